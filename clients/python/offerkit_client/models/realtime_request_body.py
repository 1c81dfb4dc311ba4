from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="RealtimeRequestBody")


@_attrs_define
class RealtimeRequestBody:
    """Apple's RealtimeRequestBody: what the App Store posts.

    Attributes:
        signed_payload (str): A DecodedRealtimeRequestBody signed by the App Store: a compact JWS whose `x5c` header
            holds the certificate chain.
    """

    signed_payload: str

    def to_dict(self) -> dict[str, Any]:
        signed_payload = self.signed_payload

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "signedPayload": signed_payload,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        signed_payload = d.pop("signedPayload")

        realtime_request_body = cls(
            signed_payload=signed_payload,
        )

        return realtime_request_body
