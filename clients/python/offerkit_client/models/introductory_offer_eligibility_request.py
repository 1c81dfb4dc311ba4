from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="IntroductoryOfferEligibilityRequest")


@_attrs_define
class IntroductoryOfferEligibilityRequest:
    """An introductory-offer eligibility statement to sign.

    Attributes:
        bundle_id (str): The app's bundle ID; the service must be configured with it.
        product_id (str): The product ID from App Store Connect.
        allow_introductory_offer (bool): Whether the customer may get the subscription's introductory offer.
        transaction_id (str): A transaction ID of the customer.
        nonce (UUID | Unset): A nonce (random UUID, version 4). Leave it out and the service makes a fresh one.
    """

    bundle_id: str
    product_id: str
    allow_introductory_offer: bool
    transaction_id: str
    nonce: UUID | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        bundle_id = self.bundle_id

        product_id = self.product_id

        allow_introductory_offer = self.allow_introductory_offer

        transaction_id = self.transaction_id

        nonce: str | Unset = UNSET
        if not isinstance(self.nonce, Unset):
            nonce = str(self.nonce)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "bundleId": bundle_id,
                "productId": product_id,
                "allowIntroductoryOffer": allow_introductory_offer,
                "transactionId": transaction_id,
            }
        )
        if nonce is not UNSET:
            field_dict["nonce"] = nonce

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        bundle_id = d.pop("bundleId")

        product_id = d.pop("productId")

        allow_introductory_offer = d.pop("allowIntroductoryOffer")

        transaction_id = d.pop("transactionId")

        _nonce = d.pop("nonce", UNSET)
        nonce: UUID | Unset
        if isinstance(_nonce, Unset):
            nonce = UNSET
        else:
            nonce = UUID(_nonce)

        introductory_offer_eligibility_request = cls(
            bundle_id=bundle_id,
            product_id=product_id,
            allow_introductory_offer=allow_introductory_offer,
            transaction_id=transaction_id,
            nonce=nonce,
        )

        return introductory_offer_eligibility_request
