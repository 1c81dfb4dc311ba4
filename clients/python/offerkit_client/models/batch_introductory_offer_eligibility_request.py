from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

from ..models.batch_introductory_offer_eligibility_request_type import BatchIntroductoryOfferEligibilityRequestType
from ..types import UNSET, Unset

T = TypeVar("T", bound="BatchIntroductoryOfferEligibilityRequest")


@_attrs_define
class BatchIntroductoryOfferEligibilityRequest:
    """An item of type `introductory-offer-eligibility`: the members of `POST /v1/signatures/introductory-offer-
    eligibility` (IntroductoryOfferEligibilityRequest), checked alike.

        Attributes:
            type_ (BatchIntroductoryOfferEligibilityRequestType): `introductory-offer-eligibility`: the body of `POST
                /v1/signatures/introductory-offer-eligibility`.
            bundle_id (str): The app's bundle ID; the service must be configured with it.
            product_id (str): The product ID from App Store Connect.
            allow_introductory_offer (bool): Whether the customer may get the subscription's introductory offer.
            transaction_id (str): A transaction ID of the customer.
            id (int | str | Unset): Any string of at most 256 characters, or an integer; echoed in the item's result.
            nonce (UUID | Unset): A nonce (random UUID, version 4). Leave it out and the service makes a fresh one.
    """

    type_: BatchIntroductoryOfferEligibilityRequestType
    bundle_id: str
    product_id: str
    allow_introductory_offer: bool
    transaction_id: str
    id: int | str | Unset = UNSET
    nonce: UUID | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_.value

        bundle_id = self.bundle_id

        product_id = self.product_id

        allow_introductory_offer = self.allow_introductory_offer

        transaction_id = self.transaction_id

        id: int | str | Unset
        if isinstance(self.id, Unset):
            id = UNSET
        else:
            id = self.id

        nonce: str | Unset = UNSET
        if not isinstance(self.nonce, Unset):
            nonce = str(self.nonce)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type_,
                "bundleId": bundle_id,
                "productId": product_id,
                "allowIntroductoryOffer": allow_introductory_offer,
                "transactionId": transaction_id,
            }
        )
        if id is not UNSET:
            field_dict["id"] = id
        if nonce is not UNSET:
            field_dict["nonce"] = nonce

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        type_ = BatchIntroductoryOfferEligibilityRequestType(d.pop("type"))

        bundle_id = d.pop("bundleId")

        product_id = d.pop("productId")

        allow_introductory_offer = d.pop("allowIntroductoryOffer")

        transaction_id = d.pop("transactionId")

        def _parse_id(data: object) -> int | str | Unset:
            if isinstance(data, Unset):
                return data
            return cast(int | str | Unset, data)

        id = _parse_id(d.pop("id", UNSET))

        _nonce = d.pop("nonce", UNSET)
        nonce: UUID | Unset
        if isinstance(_nonce, Unset):
            nonce = UNSET
        else:
            nonce = UUID(_nonce)

        batch_introductory_offer_eligibility_request = cls(
            type_=type_,
            bundle_id=bundle_id,
            product_id=product_id,
            allow_introductory_offer=allow_introductory_offer,
            transaction_id=transaction_id,
            id=id,
            nonce=nonce,
        )

        return batch_introductory_offer_eligibility_request
