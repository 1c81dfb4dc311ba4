from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.batch_server_api_token_request_type import BatchServerAPITokenRequestType
from ..types import UNSET, Unset

T = TypeVar("T", bound="BatchServerAPITokenRequest")


@_attrs_define
class BatchServerAPITokenRequest:
    """An item of type `server-api-token`: the members of `POST /v1/tokens/server-api` (ServerAPITokenRequest), checked
    alike.

        Attributes:
            type_ (BatchServerAPITokenRequestType): `server-api-token`: the body of `POST /v1/tokens/server-api`.
            bundle_id (str): The app's bundle ID; the service must be configured with it.
            id (int | str | Unset): Any string of at most 256 characters, or an integer; echoed in the item's result.
            lifetime (int | Unset): Seconds from `iat` to `exp`, at most 3600 (60 minutes). Default: 300 (5 minutes).
    """

    type_: BatchServerAPITokenRequestType
    bundle_id: str
    id: int | str | Unset = UNSET
    lifetime: int | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_.value

        bundle_id = self.bundle_id

        id: int | str | Unset
        if isinstance(self.id, Unset):
            id = UNSET
        else:
            id = self.id

        lifetime = self.lifetime

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type_,
                "bundleId": bundle_id,
            }
        )
        if id is not UNSET:
            field_dict["id"] = id
        if lifetime is not UNSET:
            field_dict["lifetime"] = lifetime

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        type_ = BatchServerAPITokenRequestType(d.pop("type"))

        bundle_id = d.pop("bundleId")

        def _parse_id(data: object) -> int | str | Unset:
            if isinstance(data, Unset):
                return data
            return cast(int | str | Unset, data)

        id = _parse_id(d.pop("id", UNSET))

        lifetime = d.pop("lifetime", UNSET)

        batch_server_api_token_request = cls(
            type_=type_,
            bundle_id=bundle_id,
            id=id,
            lifetime=lifetime,
        )

        return batch_server_api_token_request
