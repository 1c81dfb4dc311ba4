from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

from ..models.batch_legacy_promotional_offer_request_type import BatchLegacyPromotionalOfferRequestType
from ..types import UNSET, Unset

T = TypeVar("T", bound="BatchLegacyPromotionalOfferRequest")


@_attrs_define
class BatchLegacyPromotionalOfferRequest:
    """An item of type `legacy-promotional-offer`: the members of `POST /v1/signatures/legacy-promotional-offer`
    (LegacyPromotionalOfferRequest), checked alike.

        Attributes:
            type_ (BatchLegacyPromotionalOfferRequestType): `legacy-promotional-offer`: the body of `POST
                /v1/signatures/legacy-promotional-offer`.
            bundle_id (str): The app's bundle ID; the service must be configured with it.
            product_id (str): The product ID from App Store Connect.
            offer_identifier (str): The promotional offer's identifier.
            id (int | str | Unset): Any string of at most 256 characters, or an integer; echoed in the item's result.
            app_account_token (str | Unset): The customer's app account token (StoreKit 2: a UUID) or application username
                (StoreKit 1). It is lower-cased before signing; the purchase must carry the same value. Leave it out, or send an
                empty string, when the app sets none.
            nonce (UUID | Unset): A nonce (a UUID). Leave it out and the service makes a fresh random one.
    """

    type_: BatchLegacyPromotionalOfferRequestType
    bundle_id: str
    product_id: str
    offer_identifier: str
    id: int | str | Unset = UNSET
    app_account_token: str | Unset = UNSET
    nonce: UUID | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_.value

        bundle_id = self.bundle_id

        product_id = self.product_id

        offer_identifier = self.offer_identifier

        id: int | str | Unset
        if isinstance(self.id, Unset):
            id = UNSET
        else:
            id = self.id

        app_account_token = self.app_account_token

        nonce: str | Unset = UNSET
        if not isinstance(self.nonce, Unset):
            nonce = str(self.nonce)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type_,
                "bundleId": bundle_id,
                "productId": product_id,
                "offerIdentifier": offer_identifier,
            }
        )
        if id is not UNSET:
            field_dict["id"] = id
        if app_account_token is not UNSET:
            field_dict["appAccountToken"] = app_account_token
        if nonce is not UNSET:
            field_dict["nonce"] = nonce

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        type_ = BatchLegacyPromotionalOfferRequestType(d.pop("type"))

        bundle_id = d.pop("bundleId")

        product_id = d.pop("productId")

        offer_identifier = d.pop("offerIdentifier")

        def _parse_id(data: object) -> int | str | Unset:
            if isinstance(data, Unset):
                return data
            return cast(int | str | Unset, data)

        id = _parse_id(d.pop("id", UNSET))

        app_account_token = d.pop("appAccountToken", UNSET)

        _nonce = d.pop("nonce", UNSET)
        nonce: UUID | Unset
        if isinstance(_nonce, Unset):
            nonce = UNSET
        else:
            nonce = UUID(_nonce)

        batch_legacy_promotional_offer_request = cls(
            type_=type_,
            bundle_id=bundle_id,
            product_id=product_id,
            offer_identifier=offer_identifier,
            id=id,
            app_account_token=app_account_token,
            nonce=nonce,
        )

        return batch_legacy_promotional_offer_request
