from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="BearerToken")


@_attrs_define
class BearerToken:
    """A signed API bearer token and when it was issued and expires.

    Attributes:
        token (str): The bearer token, a compact JWS (ES256). Send it as `Authorization: Bearer <token>`.
        issued_at (int): The `iat` claim: UNIX time in seconds.
        expires_at (int): The `exp` claim: UNIX time in seconds, when the token stops working.
    """

    token: str
    issued_at: int
    expires_at: int

    def to_dict(self) -> dict[str, Any]:
        token = self.token

        issued_at = self.issued_at

        expires_at = self.expires_at

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "token": token,
                "issuedAt": issued_at,
                "expiresAt": expires_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        token = d.pop("token")

        issued_at = d.pop("issuedAt")

        expires_at = d.pop("expiresAt")

        bearer_token = cls(
            token=token,
            issued_at=issued_at,
            expires_at=expires_at,
        )

        return bearer_token
