from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.advanced_commerce_effective import AdvancedCommerceEffective
from ..types import UNSET, Unset

T = TypeVar("T", bound="AdvancedCommerceModifyDescriptors")


@_attrs_define
class AdvancedCommerceModifyDescriptors:
    """A change of a subscription's name or description.

    Attributes:
        effective (AdvancedCommerceEffective): When a change takes effect: now, or at the next renewal.
        description (str | Unset): A description for your records that customers do not see, at most 45 characters
            (counted in UTF-16 code units: a character outside the Basic Multilingual Plane, such as an emoji, counts as
            two; JSON Schema's `maxLength` counts it as one, so such text can pass the schema and still be refused with
            `invalid-field`).
        display_name (str | Unset): The name customers see on the payment sheet and in their subscriptions, at most 30
            characters (counted in UTF-16 code units: a character outside the Basic Multilingual Plane, such as an emoji,
            counts as two; JSON Schema's `maxLength` counts it as one, so such text can pass the schema and still be refused
            with `invalid-field`).
    """

    effective: AdvancedCommerceEffective
    description: str | Unset = UNSET
    display_name: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        effective = self.effective.value

        description = self.description

        display_name = self.display_name

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "effective": effective,
            }
        )
        if description is not UNSET:
            field_dict["description"] = description
        if display_name is not UNSET:
            field_dict["displayName"] = display_name

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        effective = AdvancedCommerceEffective(d.pop("effective"))

        description = d.pop("description", UNSET)

        display_name = d.pop("displayName", UNSET)

        advanced_commerce_modify_descriptors = cls(
            effective=effective,
            description=description,
            display_name=display_name,
        )

        return advanced_commerce_modify_descriptors
