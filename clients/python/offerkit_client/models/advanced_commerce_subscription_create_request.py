from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

from ..models.advanced_commerce_period import AdvancedCommercePeriod
from ..models.advanced_commerce_subscription_create_request_operation import (
    AdvancedCommerceSubscriptionCreateRequestOperation,
)
from ..models.advanced_commerce_subscription_create_request_version import (
    AdvancedCommerceSubscriptionCreateRequestVersion,
)
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.advanced_commerce_descriptors import AdvancedCommerceDescriptors
    from ..models.advanced_commerce_request_info import AdvancedCommerceRequestInfo
    from ..models.advanced_commerce_subscription_item import AdvancedCommerceSubscriptionItem


T = TypeVar("T", bound="AdvancedCommerceSubscriptionCreateRequest")


@_attrs_define
class AdvancedCommerceSubscriptionCreateRequest:
    """`CREATE_SUBSCRIPTION`: a customer subscribes.

    Attributes:
        operation (AdvancedCommerceSubscriptionCreateRequestOperation): The kind of request.
        request_info (AdvancedCommerceRequestInfo): Metadata every Advanced Commerce request carries.
        currency (str): The ISO 4217 currency code of the prices: exactly three upper-case letters A–Z, such as `USD`
            (anything else is refused with `invalid-field`).
        tax_code (str): The product's tax code from Apple's list of Advanced Commerce tax codes (at most 64 characters).
        descriptors (AdvancedCommerceDescriptors): The name and description of a subscription.
        items (list[AdvancedCommerceSubscriptionItem]): The subscription's items. At most 100 (OfferKit's bound: Apple
            limits the items of a request without publishing the number).
        period (AdvancedCommercePeriod): A subscription's billing period, as an ISO 8601 duration.
        version (AdvancedCommerceSubscriptionCreateRequestVersion | Unset): The request format's version; "1", also when
            left out.
        previous_transaction_id (str | Unset): The transaction ID of the customer's previous subscription, when they
            subscribe again (at most 64 characters).
        storefront (str | Unset): The storefront, as an ISO 3166-1 alpha-3 code: exactly three upper-case letters A–Z,
            such as `USA` (anything else is refused with `invalid-field`).
    """

    operation: AdvancedCommerceSubscriptionCreateRequestOperation
    request_info: AdvancedCommerceRequestInfo
    currency: str
    tax_code: str
    descriptors: AdvancedCommerceDescriptors
    items: list[AdvancedCommerceSubscriptionItem]
    period: AdvancedCommercePeriod
    version: AdvancedCommerceSubscriptionCreateRequestVersion | Unset = UNSET
    previous_transaction_id: str | Unset = UNSET
    storefront: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        operation = self.operation.value

        request_info = self.request_info.to_dict()

        currency = self.currency

        tax_code = self.tax_code

        descriptors = self.descriptors.to_dict()

        items = []
        for items_item_data in self.items:
            items_item = items_item_data.to_dict()
            items.append(items_item)

        period = self.period.value

        version: str | Unset = UNSET
        if not isinstance(self.version, Unset):
            version = self.version.value

        previous_transaction_id = self.previous_transaction_id

        storefront = self.storefront

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "operation": operation,
                "requestInfo": request_info,
                "currency": currency,
                "taxCode": tax_code,
                "descriptors": descriptors,
                "items": items,
                "period": period,
            }
        )
        if version is not UNSET:
            field_dict["version"] = version
        if previous_transaction_id is not UNSET:
            field_dict["previousTransactionId"] = previous_transaction_id
        if storefront is not UNSET:
            field_dict["storefront"] = storefront

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.advanced_commerce_descriptors import AdvancedCommerceDescriptors  # noqa: PLC0415
        from ..models.advanced_commerce_request_info import AdvancedCommerceRequestInfo  # noqa: PLC0415
        from ..models.advanced_commerce_subscription_item import AdvancedCommerceSubscriptionItem  # noqa: PLC0415

        d = dict(src_dict)
        operation = AdvancedCommerceSubscriptionCreateRequestOperation(d.pop("operation"))

        request_info = AdvancedCommerceRequestInfo.from_dict(d.pop("requestInfo"))

        currency = d.pop("currency")

        tax_code = d.pop("taxCode")

        descriptors = AdvancedCommerceDescriptors.from_dict(d.pop("descriptors"))

        items = []
        _items = d.pop("items")
        for items_item_data in _items:
            items_item = AdvancedCommerceSubscriptionItem.from_dict(items_item_data)

            items.append(items_item)

        period = AdvancedCommercePeriod(d.pop("period"))

        _version = d.pop("version", UNSET)
        version: AdvancedCommerceSubscriptionCreateRequestVersion | Unset
        if isinstance(_version, Unset):
            version = UNSET
        else:
            version = AdvancedCommerceSubscriptionCreateRequestVersion(_version)

        previous_transaction_id = d.pop("previousTransactionId", UNSET)

        storefront = d.pop("storefront", UNSET)

        advanced_commerce_subscription_create_request = cls(
            operation=operation,
            request_info=request_info,
            currency=currency,
            tax_code=tax_code,
            descriptors=descriptors,
            items=items,
            period=period,
            version=version,
            previous_transaction_id=previous_transaction_id,
            storefront=storefront,
        )

        return advanced_commerce_subscription_create_request
