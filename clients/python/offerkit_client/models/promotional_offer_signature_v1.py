from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="PromotionalOfferSignatureV1")


@_attrs_define
class PromotionalOfferSignatureV1:
    """The legacy promotional offer signature (version 1).

    Attributes:
        encoded_signature (str): The DER ECDSA signature, standard base64.
        product_id (str): The offer's subscription.
        nonce (UUID): The nonce that was signed, lower case.
        timestamp (int): UNIX time in milliseconds that was signed.
        key_id (str): The key ID that signed.
        offer_identifier (str): The promotional offer.
        app_account_token (UUID | Unset): The customer's app account token that was signed, lower case: only when a
            `RetentionDecider` of a Swift server embedding OfferService gave one.
    """

    encoded_signature: str
    product_id: str
    nonce: UUID
    timestamp: int
    key_id: str
    offer_identifier: str
    app_account_token: UUID | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        encoded_signature = self.encoded_signature

        product_id = self.product_id

        nonce = str(self.nonce)

        timestamp = self.timestamp

        key_id = self.key_id

        offer_identifier = self.offer_identifier

        app_account_token: str | Unset = UNSET
        if not isinstance(self.app_account_token, Unset):
            app_account_token = str(self.app_account_token)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "encodedSignature": encoded_signature,
                "productId": product_id,
                "nonce": nonce,
                "timestamp": timestamp,
                "keyId": key_id,
                "offerIdentifier": offer_identifier,
            }
        )
        if app_account_token is not UNSET:
            field_dict["appAccountToken"] = app_account_token

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        encoded_signature = d.pop("encodedSignature")

        product_id = d.pop("productId")

        nonce = UUID(d.pop("nonce"))

        timestamp = d.pop("timestamp")

        key_id = d.pop("keyId")

        offer_identifier = d.pop("offerIdentifier")

        _app_account_token = d.pop("appAccountToken", UNSET)
        app_account_token: UUID | Unset
        if isinstance(_app_account_token, Unset):
            app_account_token = UNSET
        else:
            app_account_token = UUID(_app_account_token)

        promotional_offer_signature_v1 = cls(
            encoded_signature=encoded_signature,
            product_id=product_id,
            nonce=nonce,
            timestamp=timestamp,
            key_id=key_id,
            offer_identifier=offer_identifier,
            app_account_token=app_account_token,
        )

        return promotional_offer_signature_v1
