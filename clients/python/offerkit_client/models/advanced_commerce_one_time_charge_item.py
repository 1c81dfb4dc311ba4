from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="AdvancedCommerceOneTimeChargeItem")


@_attrs_define
class AdvancedCommerceOneTimeChargeItem:
    """The product of a one-time charge.

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
    """

    sku: str
    description: str
    display_name: str
    price: int

    def to_dict(self) -> dict[str, Any]:
        sku = self.sku

        description = self.description

        display_name = self.display_name

        price = self.price

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "SKU": sku,
                "description": description,
                "displayName": display_name,
                "price": price,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        sku = d.pop("SKU")

        description = d.pop("description")

        display_name = d.pop("displayName")

        price = d.pop("price")

        advanced_commerce_one_time_charge_item = cls(
            sku=sku,
            description=description,
            display_name=display_name,
            price=price,
        )

        return advanced_commerce_one_time_charge_item
