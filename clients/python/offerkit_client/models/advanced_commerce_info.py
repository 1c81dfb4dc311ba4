from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define

T = TypeVar("T", bound="AdvancedCommerceInfo")


@_attrs_define
class AdvancedCommerceInfo:
    """A message with an Advanced Commerce offer or switch plan.

    Attributes:
        message_identifier (UUID): The identifier of a message uploaded to Apple; it must be APPROVED.
        advanced_commerce_data (str): Standard base64 of the UTF-8 JSON {"signatureInfo":{"token":"<JWS>"}}, the JWS an
            Advanced Commerce MODIFY_SUBSCRIPTION request with one changeItems entry.
    """

    message_identifier: UUID
    advanced_commerce_data: str

    def to_dict(self) -> dict[str, Any]:
        message_identifier = str(self.message_identifier)

        advanced_commerce_data = self.advanced_commerce_data

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "messageIdentifier": message_identifier,
                "advancedCommerceData": advanced_commerce_data,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        message_identifier = UUID(d.pop("messageIdentifier"))

        advanced_commerce_data = d.pop("advancedCommerceData")

        advanced_commerce_info = cls(
            message_identifier=message_identifier,
            advanced_commerce_data=advanced_commerce_data,
        )

        return advanced_commerce_info
