from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="ServerAPITokenRequest")


@_attrs_define
class ServerAPITokenRequest:
    """The app to sign an App Store Server API token for, and how long the token lives.

    Attributes:
        bundle_id (str): The app's bundle ID; the service must be configured with it.
        lifetime (int | Unset): Seconds from `iat` to `exp`, at most 3600 (60 minutes). Default: 300 (5 minutes).
    """

    bundle_id: str
    lifetime: int | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        bundle_id = self.bundle_id

        lifetime = self.lifetime

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "bundleId": bundle_id,
            }
        )
        if lifetime is not UNSET:
            field_dict["lifetime"] = lifetime

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        bundle_id = d.pop("bundleId")

        lifetime = d.pop("lifetime", UNSET)

        server_api_token_request = cls(
            bundle_id=bundle_id,
            lifetime=lifetime,
        )

        return server_api_token_request
