from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.batch_connect_api_token_request_type import BatchConnectAPITokenRequestType
from ..types import UNSET, Unset

T = TypeVar("T", bound="BatchConnectAPITokenRequest")


@_attrs_define
class BatchConnectAPITokenRequest:
    """An item of type `connect-api-token`: the members of `POST /v1/tokens/connect-api` (ConnectAPITokenRequest), checked
    alike.

        Attributes:
            type_ (BatchConnectAPITokenRequestType): `connect-api-token`: the body of `POST /v1/tokens/connect-api`.
            id (int | str | Unset): Any string of at most 256 characters, or an integer; echoed in the item's result.
            lifetime (int | Unset): Seconds from `iat` to `exp`, at most 1200 (20 minutes). Default: 900 (15 minutes).
            scope (list[str] | Unset): The requests the token may make (the `scope` claim), such as `GET /v1/apps` or `GET
                /v1/apps?filter[platform]=IOS`. Leave it out for a token that may make any request the key may.
    """

    type_: BatchConnectAPITokenRequestType
    id: int | str | Unset = UNSET
    lifetime: int | Unset = UNSET
    scope: list[str] | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_.value

        id: int | str | Unset
        if isinstance(self.id, Unset):
            id = UNSET
        else:
            id = self.id

        lifetime = self.lifetime

        scope: list[str] | Unset = UNSET
        if not isinstance(self.scope, Unset):
            scope = self.scope

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type_,
            }
        )
        if id is not UNSET:
            field_dict["id"] = id
        if lifetime is not UNSET:
            field_dict["lifetime"] = lifetime
        if scope is not UNSET:
            field_dict["scope"] = scope

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        type_ = BatchConnectAPITokenRequestType(d.pop("type"))

        def _parse_id(data: object) -> int | str | Unset:
            if isinstance(data, Unset):
                return data
            return cast(int | str | Unset, data)

        id = _parse_id(d.pop("id", UNSET))

        lifetime = d.pop("lifetime", UNSET)

        scope = cast(list[str], d.pop("scope", UNSET))

        batch_connect_api_token_request = cls(
            type_=type_,
            id=id,
            lifetime=lifetime,
            scope=scope,
        )

        return batch_connect_api_token_request
