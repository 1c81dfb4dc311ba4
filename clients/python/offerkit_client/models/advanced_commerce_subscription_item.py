from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.advanced_commerce_offer import AdvancedCommerceOffer


T = TypeVar("T", bound="AdvancedCommerceSubscriptionItem")


@_attrs_define
class AdvancedCommerceSubscriptionItem:
    """An item of a new subscription, optionally with a discount offer.

    Attributes:
        sku (str): Your identifier of the product, at most 128 characters (counted in UTF-16 code units: a character
            outside the Basic Multilingual Plane, such as an emoji, counts as two; JSON Schema's `maxLength` counts it as
            one, so such text can pass the schema and still be refused with `invalid-field`).
        description (str): A description for your records that customers do not see, at most 45 characters (counted in
            UTF-16 code units: a character outside the Basic Multilingual Plane, such as an emoji, counts as two; JSON
            Schema's `maxLength` counts it as one, so such text can pass the schema and still be refused with `invalid-
            field`).
        display_name (str): The name customers see on the payment sheet and in their subscriptions, at most 30
            characters (counted in UTF-16 code units: a character outside the Basic Multilingual Plane, such as an emoji,
            counts as two; JSON Schema's `maxLength` counts it as one, so such text can pass the schema and still be refused
            with `invalid-field`).
        price (int): The price in milli-units of the currency: 4990 is 4.99.
        offer (AdvancedCommerceOffer | Unset): A discount offer on a subscription item.
    """

    sku: str
    description: str
    display_name: str
    price: int
    offer: AdvancedCommerceOffer | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        sku = self.sku

        description = self.description

        display_name = self.display_name

        price = self.price

        offer: dict[str, Any] | Unset = UNSET
        if not isinstance(self.offer, Unset):
            offer = self.offer.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "SKU": sku,
                "description": description,
                "displayName": display_name,
                "price": price,
            }
        )
        if offer is not UNSET:
            field_dict["offer"] = offer

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.advanced_commerce_offer import AdvancedCommerceOffer  # noqa: PLC0415

        d = dict(src_dict)
        sku = d.pop("SKU")

        description = d.pop("description")

        display_name = d.pop("displayName")

        price = d.pop("price")

        _offer = d.pop("offer", UNSET)
        offer: AdvancedCommerceOffer | Unset
        if isinstance(_offer, Unset):
            offer = UNSET
        else:
            offer = AdvancedCommerceOffer.from_dict(_offer)

        advanced_commerce_subscription_item = cls(
            sku=sku,
            description=description,
            display_name=display_name,
            price=price,
            offer=offer,
        )

        return advanced_commerce_subscription_item
