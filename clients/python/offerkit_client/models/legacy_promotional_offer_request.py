from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="LegacyPromotionalOfferRequest")


@_attrs_define
class LegacyPromotionalOfferRequest:
    """A promotional offer to sign with the legacy (version 1) signature.

    Attributes:
        bundle_id (str): The app's bundle ID; the service must be configured with it.
        product_id (str): The product ID from App Store Connect.
        offer_identifier (str): The promotional offer's identifier.
        app_account_token (str | Unset): The customer's app account token (StoreKit 2: a UUID) or application username
            (StoreKit 1). It is lower-cased before signing; the purchase must carry the same value. Leave it out, or send an
            empty string, when the app sets none.
        nonce (UUID | Unset): A nonce (a UUID). Leave it out and the service makes a fresh random one.
    """

    bundle_id: str
    product_id: str
    offer_identifier: str
    app_account_token: str | Unset = UNSET
    nonce: UUID | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        bundle_id = self.bundle_id

        product_id = self.product_id

        offer_identifier = self.offer_identifier

        app_account_token = self.app_account_token

        nonce: str | Unset = UNSET
        if not isinstance(self.nonce, Unset):
            nonce = str(self.nonce)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "bundleId": bundle_id,
                "productId": product_id,
                "offerIdentifier": offer_identifier,
            }
        )
        if app_account_token is not UNSET:
            field_dict["appAccountToken"] = app_account_token
        if nonce is not UNSET:
            field_dict["nonce"] = nonce

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        bundle_id = d.pop("bundleId")

        product_id = d.pop("productId")

        offer_identifier = d.pop("offerIdentifier")

        app_account_token = d.pop("appAccountToken", UNSET)

        _nonce = d.pop("nonce", UNSET)
        nonce: UUID | Unset
        if isinstance(_nonce, Unset):
            nonce = UNSET
        else:
            nonce = UUID(_nonce)

        legacy_promotional_offer_request = cls(
            bundle_id=bundle_id,
            product_id=product_id,
            offer_identifier=offer_identifier,
            app_account_token=app_account_token,
            nonce=nonce,
        )

        return legacy_promotional_offer_request
