from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="AdvancedCommerceSKUItem")


@_attrs_define
class AdvancedCommerceSKUItem:
    """An item named by its SKU alone.

    Attributes:
        sku (str): Your identifier of the product, at most 128 characters (counted in UTF-16 code units: a character
            outside the Basic Multilingual Plane, such as an emoji, counts as two; JSON Schema's `maxLength` counts it as
            one, so such text can pass the schema and still be refused with `invalid-field`).
    """

    sku: str

    def to_dict(self) -> dict[str, Any]:
        sku = self.sku

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "SKU": sku,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        sku = d.pop("SKU")

        advanced_commerce_sku_item = cls(
            sku=sku,
        )

        return advanced_commerce_sku_item
