from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define

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
    """

    encoded_signature: str
    product_id: str
    nonce: UUID
    timestamp: int
    key_id: str
    offer_identifier: str

    def to_dict(self) -> dict[str, Any]:
        encoded_signature = self.encoded_signature

        product_id = self.product_id

        nonce = str(self.nonce)

        timestamp = self.timestamp

        key_id = self.key_id

        offer_identifier = self.offer_identifier

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

        promotional_offer_signature_v1 = cls(
            encoded_signature=encoded_signature,
            product_id=product_id,
            nonce=nonce,
            timestamp=timestamp,
            key_id=key_id,
            offer_identifier=offer_identifier,
        )

        return promotional_offer_signature_v1
