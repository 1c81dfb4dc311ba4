from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

from ..models.signature_batch_result_type import SignatureBatchResultType
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.problem import Problem


T = TypeVar("T", bound="SignatureBatchResult")


@_attrs_define
class SignatureBatchResult:
    """One item's result: `index`, `type` (absent when the item named no known type), `id` (when it gave a valid one) and
    `status`, then on success (200) exactly the members its type's own endpoint answers (`jws`, `keyId`, `nonce`,
    `issuedAt`; the legacy signature's members; or `token`, `issuedAt`, `expiresAt`), on failure `problem`.

        Attributes:
            index (int): The item's position in `requests`, from 0.
            status (int): The status the item's own endpoint would have answered: 200, or the problem's.
            type_ (SignatureBatchResultType | Unset): What the item asks for: an operation name, as `offerkit batch` lines
                and API key scopes name it.
            id (int | str | Unset): Any string of at most 256 characters, or an integer; echoed in the item's result.
            problem (Problem | Unset): An RFC 9457 problem (`application/problem+json`).
            jws (str | Unset): The compact JWS: header.payload.signature, base64url, ES256.
            key_id (str | Unset): The key ID of the key that signed.
            nonce (Unset | UUID): The nonce in the payload, lower case.
            issued_at (int | Unset): The `iat` claim: UNIX time in seconds.
            timestamp (int | Unset): The signed time: UNIX time in milliseconds.
            signature (str | Unset): The ECDSA signature, DER-encoded, standard base64 with padding. Decode it to `Data`
                before passing it to StoreKit.
            product_id (str | Unset): The product ID from App Store Connect.
            offer_identifier (str | Unset): The promotional offer's identifier.
            app_account_token (str | Unset): The app account token that was signed, lower-cased; empty when none was.
            token (str | Unset): The bearer token, a compact JWS (ES256). Send it as `Authorization: Bearer <token>`.
            expires_at (int | Unset): The `exp` claim: UNIX time in seconds, when the token stops working.
    """

    index: int
    status: int
    type_: SignatureBatchResultType | Unset = UNSET
    id: int | str | Unset = UNSET
    problem: Problem | Unset = UNSET
    jws: str | Unset = UNSET
    key_id: str | Unset = UNSET
    nonce: Unset | UUID = UNSET
    issued_at: int | Unset = UNSET
    timestamp: int | Unset = UNSET
    signature: str | Unset = UNSET
    product_id: str | Unset = UNSET
    offer_identifier: str | Unset = UNSET
    app_account_token: str | Unset = UNSET
    token: str | Unset = UNSET
    expires_at: int | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        index = self.index

        status = self.status

        type_: str | Unset = UNSET
        if not isinstance(self.type_, Unset):
            type_ = self.type_.value

        id: int | str | Unset
        if isinstance(self.id, Unset):
            id = UNSET
        else:
            id = self.id

        problem: dict[str, Any] | Unset = UNSET
        if not isinstance(self.problem, Unset):
            problem = self.problem.to_dict()

        jws = self.jws

        key_id = self.key_id

        nonce: str | Unset
        if isinstance(self.nonce, Unset):
            nonce = UNSET
        else:
            nonce = str(self.nonce)

        issued_at = self.issued_at

        timestamp = self.timestamp

        signature = self.signature

        product_id = self.product_id

        offer_identifier = self.offer_identifier

        app_account_token = self.app_account_token

        token = self.token

        expires_at = self.expires_at

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "index": index,
                "status": status,
            }
        )
        if type_ is not UNSET:
            field_dict["type"] = type_
        if id is not UNSET:
            field_dict["id"] = id
        if problem is not UNSET:
            field_dict["problem"] = problem
        if jws is not UNSET:
            field_dict["jws"] = jws
        if key_id is not UNSET:
            field_dict["keyId"] = key_id
        if nonce is not UNSET:
            field_dict["nonce"] = nonce
        if issued_at is not UNSET:
            field_dict["issuedAt"] = issued_at
        if timestamp is not UNSET:
            field_dict["timestamp"] = timestamp
        if signature is not UNSET:
            field_dict["signature"] = signature
        if product_id is not UNSET:
            field_dict["productId"] = product_id
        if offer_identifier is not UNSET:
            field_dict["offerIdentifier"] = offer_identifier
        if app_account_token is not UNSET:
            field_dict["appAccountToken"] = app_account_token
        if token is not UNSET:
            field_dict["token"] = token
        if expires_at is not UNSET:
            field_dict["expiresAt"] = expires_at

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.problem import Problem  # noqa: PLC0415

        d = dict(src_dict)
        index = d.pop("index")

        status = d.pop("status")

        _type_ = d.pop("type", UNSET)
        type_: SignatureBatchResultType | Unset
        if isinstance(_type_, Unset):
            type_ = UNSET
        else:
            type_ = SignatureBatchResultType(_type_)

        def _parse_id(data: object) -> int | str | Unset:
            if isinstance(data, Unset):
                return data
            return cast(int | str | Unset, data)

        id = _parse_id(d.pop("id", UNSET))

        _problem = d.pop("problem", UNSET)
        problem: Problem | Unset
        if isinstance(_problem, Unset):
            problem = UNSET
        else:
            problem = Problem.from_dict(_problem)

        jws = d.pop("jws", UNSET)

        key_id = d.pop("keyId", UNSET)

        def _parse_nonce(data: object) -> Unset | UUID:
            if isinstance(data, Unset):
                return data
            if not isinstance(data, str):
                raise TypeError()
            nonce_type_0 = UUID(data)

            return nonce_type_0

        nonce = _parse_nonce(d.pop("nonce", UNSET))

        issued_at = d.pop("issuedAt", UNSET)

        timestamp = d.pop("timestamp", UNSET)

        signature = d.pop("signature", UNSET)

        product_id = d.pop("productId", UNSET)

        offer_identifier = d.pop("offerIdentifier", UNSET)

        app_account_token = d.pop("appAccountToken", UNSET)

        token = d.pop("token", UNSET)

        expires_at = d.pop("expiresAt", UNSET)

        signature_batch_result = cls(
            index=index,
            status=status,
            type_=type_,
            id=id,
            problem=problem,
            jws=jws,
            key_id=key_id,
            nonce=nonce,
            issued_at=issued_at,
            timestamp=timestamp,
            signature=signature,
            product_id=product_id,
            offer_identifier=offer_identifier,
            app_account_token=app_account_token,
            token=token,
            expires_at=expires_at,
        )

        return signature_batch_result
