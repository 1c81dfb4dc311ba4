from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define

T = TypeVar("T", bound="LegacyPromotionalOfferSignature")


@_attrs_define
class LegacyPromotionalOfferSignature:
    """A legacy promotional offer signature and the values that were signed with it.

    Attributes:
        key_id (str): The key ID of the key that signed.
        nonce (UUID): The nonce that was signed, lower-case (StoreKit's `nonce:` takes it as a UUID).
        timestamp (int): The signed time: UNIX time in milliseconds.
        signature (str): The ECDSA signature, DER-encoded, standard base64 with padding. Decode it to `Data` before
            passing it to StoreKit.
        product_id (str): The product ID from App Store Connect.
        offer_identifier (str): The promotional offer's identifier.
        app_account_token (str): The app account token that was signed, lower-cased; empty when none was.
    """

    key_id: str
    nonce: UUID
    timestamp: int
    signature: str
    product_id: str
    offer_identifier: str
    app_account_token: str

    def to_dict(self) -> dict[str, Any]:
        key_id = self.key_id

        nonce = str(self.nonce)

        timestamp = self.timestamp

        signature = self.signature

        product_id = self.product_id

        offer_identifier = self.offer_identifier

        app_account_token = self.app_account_token

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "keyId": key_id,
                "nonce": nonce,
                "timestamp": timestamp,
                "signature": signature,
                "productId": product_id,
                "offerIdentifier": offer_identifier,
                "appAccountToken": app_account_token,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        key_id = d.pop("keyId")

        nonce = UUID(d.pop("nonce"))

        timestamp = d.pop("timestamp")

        signature = d.pop("signature")

        product_id = d.pop("productId")

        offer_identifier = d.pop("offerIdentifier")

        app_account_token = d.pop("appAccountToken")

        legacy_promotional_offer_signature = cls(
            key_id=key_id,
            nonce=nonce,
            timestamp=timestamp,
            signature=signature,
            product_id=product_id,
            offer_identifier=offer_identifier,
            app_account_token=app_account_token,
        )

        return legacy_promotional_offer_signature
