from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="PromotionalOfferRequest")


@_attrs_define
class PromotionalOfferRequest:
    """A promotional offer to sign.

    Attributes:
        bundle_id (str): The app's bundle ID; the service must be configured with it.
        product_id (str): The product ID from App Store Connect.
        offer_identifier (str): The promotional offer's identifier.
        transaction_id (str | Unset): A transaction ID of the customer.
        nonce (UUID | Unset): A nonce (random UUID, version 4). Leave it out and the service makes a fresh one.
    """

    bundle_id: str
    product_id: str
    offer_identifier: str
    transaction_id: str | Unset = UNSET
    nonce: UUID | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        bundle_id = self.bundle_id

        product_id = self.product_id

        offer_identifier = self.offer_identifier

        transaction_id = self.transaction_id

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
        if transaction_id is not UNSET:
            field_dict["transactionId"] = transaction_id
        if nonce is not UNSET:
            field_dict["nonce"] = nonce

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        bundle_id = d.pop("bundleId")

        product_id = d.pop("productId")

        offer_identifier = d.pop("offerIdentifier")

        transaction_id = d.pop("transactionId", UNSET)

        _nonce = d.pop("nonce", UNSET)
        nonce: UUID | Unset
        if isinstance(_nonce, Unset):
            nonce = UNSET
        else:
            nonce = UUID(_nonce)

        promotional_offer_request = cls(
            bundle_id=bundle_id,
            product_id=product_id,
            offer_identifier=offer_identifier,
            transaction_id=transaction_id,
            nonce=nonce,
        )

        return promotional_offer_request
