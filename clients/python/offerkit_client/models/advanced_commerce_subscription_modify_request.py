from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

from ..models.advanced_commerce_subscription_modify_request_operation import (
    AdvancedCommerceSubscriptionModifyRequestOperation,
)
from ..models.advanced_commerce_subscription_modify_request_version import (
    AdvancedCommerceSubscriptionModifyRequestVersion,
)
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.advanced_commerce_add_item import AdvancedCommerceAddItem
    from ..models.advanced_commerce_change_item import AdvancedCommerceChangeItem
    from ..models.advanced_commerce_modify_descriptors import AdvancedCommerceModifyDescriptors
    from ..models.advanced_commerce_period_change import AdvancedCommercePeriodChange
    from ..models.advanced_commerce_request_info import AdvancedCommerceRequestInfo
    from ..models.advanced_commerce_sku_item import AdvancedCommerceSKUItem


T = TypeVar("T", bound="AdvancedCommerceSubscriptionModifyRequest")


@_attrs_define
class AdvancedCommerceSubscriptionModifyRequest:
    """`MODIFY_SUBSCRIPTION`: a customer changes a subscription (upgrade, downgrade, add or remove items, change the period
    or the descriptors).

        Attributes:
            operation (AdvancedCommerceSubscriptionModifyRequestOperation): The kind of request.
            request_info (AdvancedCommerceRequestInfo): Metadata every Advanced Commerce request carries.
            transaction_id (str): The subscription's transaction ID (at most 64 characters).
            retain_billing_cycle (bool): Whether the subscription keeps its billing cycle.
            version (AdvancedCommerceSubscriptionModifyRequestVersion | Unset): The request format's version; "1", also when
                left out.
            add_items (list[AdvancedCommerceAddItem] | Unset): Items to add. At most 100 (OfferKit's bound: Apple limits the
                items of a request without publishing the number).
            change_items (list[AdvancedCommerceChangeItem] | Unset): Items to replace. At most 100 (OfferKit's bound: Apple
                limits the items of a request without publishing the number).
            remove_items (list[AdvancedCommerceSKUItem] | Unset): Items to remove. At most 100 (OfferKit's bound: Apple
                limits the items of a request without publishing the number).
            period_change (AdvancedCommercePeriodChange | Unset): A change of a subscription's billing period.
            descriptors (AdvancedCommerceModifyDescriptors | Unset): A change of a subscription's name or description.
            currency (str | Unset): The ISO 4217 currency code of the prices: exactly three upper-case letters A–Z, such as
                `USD` (anything else is refused with `invalid-field`).
            tax_code (str | Unset): The product's tax code from Apple's list of Advanced Commerce tax codes (at most 64
                characters).
            storefront (str | Unset): The storefront, as an ISO 3166-1 alpha-3 code: exactly three upper-case letters A–Z,
                such as `USA` (anything else is refused with `invalid-field`).
    """

    operation: AdvancedCommerceSubscriptionModifyRequestOperation
    request_info: AdvancedCommerceRequestInfo
    transaction_id: str
    retain_billing_cycle: bool
    version: AdvancedCommerceSubscriptionModifyRequestVersion | Unset = UNSET
    add_items: list[AdvancedCommerceAddItem] | Unset = UNSET
    change_items: list[AdvancedCommerceChangeItem] | Unset = UNSET
    remove_items: list[AdvancedCommerceSKUItem] | Unset = UNSET
    period_change: AdvancedCommercePeriodChange | Unset = UNSET
    descriptors: AdvancedCommerceModifyDescriptors | Unset = UNSET
    currency: str | Unset = UNSET
    tax_code: str | Unset = UNSET
    storefront: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        operation = self.operation.value

        request_info = self.request_info.to_dict()

        transaction_id = self.transaction_id

        retain_billing_cycle = self.retain_billing_cycle

        version: str | Unset = UNSET
        if not isinstance(self.version, Unset):
            version = self.version.value

        add_items: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.add_items, Unset):
            add_items = []
            for add_items_item_data in self.add_items:
                add_items_item = add_items_item_data.to_dict()
                add_items.append(add_items_item)

        change_items: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.change_items, Unset):
            change_items = []
            for change_items_item_data in self.change_items:
                change_items_item = change_items_item_data.to_dict()
                change_items.append(change_items_item)

        remove_items: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.remove_items, Unset):
            remove_items = []
            for remove_items_item_data in self.remove_items:
                remove_items_item = remove_items_item_data.to_dict()
                remove_items.append(remove_items_item)

        period_change: dict[str, Any] | Unset = UNSET
        if not isinstance(self.period_change, Unset):
            period_change = self.period_change.to_dict()

        descriptors: dict[str, Any] | Unset = UNSET
        if not isinstance(self.descriptors, Unset):
            descriptors = self.descriptors.to_dict()

        currency = self.currency

        tax_code = self.tax_code

        storefront = self.storefront

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "operation": operation,
                "requestInfo": request_info,
                "transactionId": transaction_id,
                "retainBillingCycle": retain_billing_cycle,
            }
        )
        if version is not UNSET:
            field_dict["version"] = version
        if add_items is not UNSET:
            field_dict["addItems"] = add_items
        if change_items is not UNSET:
            field_dict["changeItems"] = change_items
        if remove_items is not UNSET:
            field_dict["removeItems"] = remove_items
        if period_change is not UNSET:
            field_dict["periodChange"] = period_change
        if descriptors is not UNSET:
            field_dict["descriptors"] = descriptors
        if currency is not UNSET:
            field_dict["currency"] = currency
        if tax_code is not UNSET:
            field_dict["taxCode"] = tax_code
        if storefront is not UNSET:
            field_dict["storefront"] = storefront

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.advanced_commerce_add_item import AdvancedCommerceAddItem  # noqa: PLC0415
        from ..models.advanced_commerce_change_item import AdvancedCommerceChangeItem  # noqa: PLC0415
        from ..models.advanced_commerce_modify_descriptors import AdvancedCommerceModifyDescriptors  # noqa: PLC0415
        from ..models.advanced_commerce_period_change import AdvancedCommercePeriodChange  # noqa: PLC0415
        from ..models.advanced_commerce_request_info import AdvancedCommerceRequestInfo  # noqa: PLC0415
        from ..models.advanced_commerce_sku_item import AdvancedCommerceSKUItem  # noqa: PLC0415

        d = dict(src_dict)
        operation = AdvancedCommerceSubscriptionModifyRequestOperation(d.pop("operation"))

        request_info = AdvancedCommerceRequestInfo.from_dict(d.pop("requestInfo"))

        transaction_id = d.pop("transactionId")

        retain_billing_cycle = d.pop("retainBillingCycle")

        _version = d.pop("version", UNSET)
        version: AdvancedCommerceSubscriptionModifyRequestVersion | Unset
        if isinstance(_version, Unset):
            version = UNSET
        else:
            version = AdvancedCommerceSubscriptionModifyRequestVersion(_version)

        _add_items = d.pop("addItems", UNSET)
        add_items: list[AdvancedCommerceAddItem] | Unset = UNSET
        if _add_items is not UNSET:
            add_items = []
            for add_items_item_data in _add_items:
                add_items_item = AdvancedCommerceAddItem.from_dict(add_items_item_data)

                add_items.append(add_items_item)

        _change_items = d.pop("changeItems", UNSET)
        change_items: list[AdvancedCommerceChangeItem] | Unset = UNSET
        if _change_items is not UNSET:
            change_items = []
            for change_items_item_data in _change_items:
                change_items_item = AdvancedCommerceChangeItem.from_dict(change_items_item_data)

                change_items.append(change_items_item)

        _remove_items = d.pop("removeItems", UNSET)
        remove_items: list[AdvancedCommerceSKUItem] | Unset = UNSET
        if _remove_items is not UNSET:
            remove_items = []
            for remove_items_item_data in _remove_items:
                remove_items_item = AdvancedCommerceSKUItem.from_dict(remove_items_item_data)

                remove_items.append(remove_items_item)

        _period_change = d.pop("periodChange", UNSET)
        period_change: AdvancedCommercePeriodChange | Unset
        if isinstance(_period_change, Unset):
            period_change = UNSET
        else:
            period_change = AdvancedCommercePeriodChange.from_dict(_period_change)

        _descriptors = d.pop("descriptors", UNSET)
        descriptors: AdvancedCommerceModifyDescriptors | Unset
        if isinstance(_descriptors, Unset):
            descriptors = UNSET
        else:
            descriptors = AdvancedCommerceModifyDescriptors.from_dict(_descriptors)

        currency = d.pop("currency", UNSET)

        tax_code = d.pop("taxCode", UNSET)

        storefront = d.pop("storefront", UNSET)

        advanced_commerce_subscription_modify_request = cls(
            operation=operation,
            request_info=request_info,
            transaction_id=transaction_id,
            retain_billing_cycle=retain_billing_cycle,
            version=version,
            add_items=add_items,
            change_items=change_items,
            remove_items=remove_items,
            period_change=period_change,
            descriptors=descriptors,
            currency=currency,
            tax_code=tax_code,
            storefront=storefront,
        )

        return advanced_commerce_subscription_modify_request
