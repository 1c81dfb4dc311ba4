from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define

T = TypeVar("T", bound="SignedJWS")


@_attrs_define
class SignedJWS:
    """A signed compact JWS and the values it carries.

    Attributes:
        jws (str): The compact JWS: header.payload.signature, base64url, ES256.
        key_id (str): The key ID of the key that signed.
        nonce (UUID): The nonce in the payload, lower case.
        issued_at (int): The `iat` claim: UNIX time in seconds.
    """

    jws: str
    key_id: str
    nonce: UUID
    issued_at: int

    def to_dict(self) -> dict[str, Any]:
        jws = self.jws

        key_id = self.key_id

        nonce = str(self.nonce)

        issued_at = self.issued_at

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "jws": jws,
                "keyId": key_id,
                "nonce": nonce,
                "issuedAt": issued_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        jws = d.pop("jws")

        key_id = d.pop("keyId")

        nonce = UUID(d.pop("nonce"))

        issued_at = d.pop("issuedAt")

        signed_jws = cls(
            jws=jws,
            key_id=key_id,
            nonce=nonce,
            issued_at=issued_at,
        )

        return signed_jws
