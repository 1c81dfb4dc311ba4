from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define

T = TypeVar("T", bound="RetentionMessage")


@_attrs_define
class RetentionMessage:
    """A retention message (text, optional image).

    Attributes:
        message_identifier (UUID): The identifier of a message uploaded to Apple; it must be APPROVED.
    """

    message_identifier: UUID

    def to_dict(self) -> dict[str, Any]:
        message_identifier = str(self.message_identifier)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "messageIdentifier": message_identifier,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        message_identifier = UUID(d.pop("messageIdentifier"))

        retention_message = cls(
            message_identifier=message_identifier,
        )

        return retention_message
