from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="AdvancedCommerceDescriptors")


@_attrs_define
class AdvancedCommerceDescriptors:
    """The name and description of a subscription.

    Attributes:
        description (str): A description for your records that customers do not see, at most 45 characters (counted in
            UTF-16 code units: a character outside the Basic Multilingual Plane, such as an emoji, counts as two; JSON
            Schema's `maxLength` counts it as one, so such text can pass the schema and still be refused with `invalid-
            field`).
        display_name (str): The name customers see on the payment sheet and in their subscriptions, at most 30
            characters (counted in UTF-16 code units: a character outside the Basic Multilingual Plane, such as an emoji,
            counts as two; JSON Schema's `maxLength` counts it as one, so such text can pass the schema and still be refused
            with `invalid-field`).
    """

    description: str
    display_name: str

    def to_dict(self) -> dict[str, Any]:
        description = self.description

        display_name = self.display_name

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "description": description,
                "displayName": display_name,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        description = d.pop("description")

        display_name = d.pop("displayName")

        advanced_commerce_descriptors = cls(
            description=description,
            display_name=display_name,
        )

        return advanced_commerce_descriptors
