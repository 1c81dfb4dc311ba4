from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="ConnectAPITokenRequest")


@_attrs_define
class ConnectAPITokenRequest:
    """How long the App Store Connect API token lives and what it may do; `{}` takes the defaults.

    Attributes:
        lifetime (int | Unset): Seconds from `iat` to `exp`, at most 1200 (20 minutes). Default: 900 (15 minutes).
        scope (list[str] | Unset): The requests the token may make (the `scope` claim), such as `GET /v1/apps` or `GET
            /v1/apps?filter[platform]=IOS`. Leave it out for a token that may make any request the key may.
    """

    lifetime: int | Unset = UNSET
    scope: list[str] | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        lifetime = self.lifetime

        scope: list[str] | Unset = UNSET
        if not isinstance(self.scope, Unset):
            scope = self.scope

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if lifetime is not UNSET:
            field_dict["lifetime"] = lifetime
        if scope is not UNSET:
            field_dict["scope"] = scope

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        lifetime = d.pop("lifetime", UNSET)

        scope = cast(list[str], d.pop("scope", UNSET))

        connect_api_token_request = cls(
            lifetime=lifetime,
            scope=scope,
        )

        return connect_api_token_request
