from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

from ..models.advanced_commerce_subscription_reactivate_request_operation import (
    AdvancedCommerceSubscriptionReactivateRequestOperation,
)
from ..models.advanced_commerce_subscription_reactivate_request_version import (
    AdvancedCommerceSubscriptionReactivateRequestVersion,
)
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.advanced_commerce_request_info import AdvancedCommerceRequestInfo
    from ..models.advanced_commerce_sku_item import AdvancedCommerceSKUItem


T = TypeVar("T", bound="AdvancedCommerceSubscriptionReactivateRequest")


@_attrs_define
class AdvancedCommerceSubscriptionReactivateRequest:
    """`REACTIVATE_SUBSCRIPTION`: a customer turns auto-renewal of a subscription back on.

    Attributes:
        operation (AdvancedCommerceSubscriptionReactivateRequestOperation): The kind of request.
        request_info (AdvancedCommerceRequestInfo): Metadata every Advanced Commerce request carries.
        transaction_id (str): The subscription's transaction ID (at most 64 characters).
        version (AdvancedCommerceSubscriptionReactivateRequestVersion | Unset): The request format's version; "1", also
            when left out.
        items (list[AdvancedCommerceSKUItem] | Unset): The items to reactivate; all of them when left out. At most 100
            (OfferKit's bound: Apple limits the items of a request without publishing the number).
        storefront (str | Unset): The storefront, as an ISO 3166-1 alpha-3 code: exactly three upper-case letters A–Z,
            such as `USA` (anything else is refused with `invalid-field`).
    """

    operation: AdvancedCommerceSubscriptionReactivateRequestOperation
    request_info: AdvancedCommerceRequestInfo
    transaction_id: str
    version: AdvancedCommerceSubscriptionReactivateRequestVersion | Unset = UNSET
    items: list[AdvancedCommerceSKUItem] | Unset = UNSET
    storefront: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        operation = self.operation.value

        request_info = self.request_info.to_dict()

        transaction_id = self.transaction_id

        version: str | Unset = UNSET
        if not isinstance(self.version, Unset):
            version = self.version.value

        items: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.items, Unset):
            items = []
            for items_item_data in self.items:
                items_item = items_item_data.to_dict()
                items.append(items_item)

        storefront = self.storefront

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "operation": operation,
                "requestInfo": request_info,
                "transactionId": transaction_id,
            }
        )
        if version is not UNSET:
            field_dict["version"] = version
        if items is not UNSET:
            field_dict["items"] = items
        if storefront is not UNSET:
            field_dict["storefront"] = storefront

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.advanced_commerce_request_info import AdvancedCommerceRequestInfo  # noqa: PLC0415
        from ..models.advanced_commerce_sku_item import AdvancedCommerceSKUItem  # noqa: PLC0415

        d = dict(src_dict)
        operation = AdvancedCommerceSubscriptionReactivateRequestOperation(d.pop("operation"))

        request_info = AdvancedCommerceRequestInfo.from_dict(d.pop("requestInfo"))

        transaction_id = d.pop("transactionId")

        _version = d.pop("version", UNSET)
        version: AdvancedCommerceSubscriptionReactivateRequestVersion | Unset
        if isinstance(_version, Unset):
            version = UNSET
        else:
            version = AdvancedCommerceSubscriptionReactivateRequestVersion(_version)

        _items = d.pop("items", UNSET)
        items: list[AdvancedCommerceSKUItem] | Unset = UNSET
        if _items is not UNSET:
            items = []
            for items_item_data in _items:
                items_item = AdvancedCommerceSKUItem.from_dict(items_item_data)

                items.append(items_item)

        storefront = d.pop("storefront", UNSET)

        advanced_commerce_subscription_reactivate_request = cls(
            operation=operation,
            request_info=request_info,
            transaction_id=transaction_id,
            version=version,
            items=items,
            storefront=storefront,
        )

        return advanced_commerce_subscription_reactivate_request
