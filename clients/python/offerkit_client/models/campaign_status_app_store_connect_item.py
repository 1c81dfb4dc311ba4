from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.campaign_status_app_store_connect_item_kind import CampaignStatusAppStoreConnectItemKind
from ..models.campaign_status_app_store_connect_item_offer_kind import CampaignStatusAppStoreConnectItemOfferKind
from ..models.campaign_status_app_store_connect_item_state import CampaignStatusAppStoreConnectItemState

T = TypeVar("T", bound="CampaignStatusAppStoreConnectItem")


@_attrs_define
class CampaignStatusAppStoreConnectItem:
    """One App Store Connect resource of the campaign.

    Attributes:
        request (str): The plan's request id, such as `offer-1-custom-code-3` (`offerkit codes plan`).
        offer_kind (CampaignStatusAppStoreConnectItemOfferKind): The campaign list of its offer: `offerCode` (`offers`),
            `promotionalOffer`, `introductoryOffer` or `winBackOffer`.
        offer (str): An offer code's `referenceName`; a promotional or win-back offer's `offerIdentifier`; an
            introductory offer's subscription id.
        kind (CampaignStatusAppStoreConnectItemKind): The offer, one of its one-time-use batches, or one of its custom
            codes.
        key (str): Which one within the offer: empty for the offer, the batch's position from 0 for a one-time-use
            batch, the code upper-cased for a custom code; for a promotional or win-back offer its subscription's product
            identifier; for an introductory offer its territory and start date (`USA`, `USA 2027-03-01`).
        state (CampaignStatusAppStoreConnectItemState): `planned`, `sent` (the outcome is unknown: looked up before it
            is sent again), `created` or `failed`.
        id (None | str): App Store Connect's id, once created.
        error (None | str): Apple's errors when it failed, or why the outcome is unknown; else `null`.
        updated_at (str): When its state last changed: ISO 8601 in UTC.
    """

    request: str
    offer_kind: CampaignStatusAppStoreConnectItemOfferKind
    offer: str
    kind: CampaignStatusAppStoreConnectItemKind
    key: str
    state: CampaignStatusAppStoreConnectItemState
    id: None | str
    error: None | str
    updated_at: str

    def to_dict(self) -> dict[str, Any]:
        request = self.request

        offer_kind = self.offer_kind.value

        offer = self.offer

        kind = self.kind.value

        key = self.key

        state = self.state.value

        id: None | str
        id = self.id

        error: None | str
        error = self.error

        updated_at = self.updated_at

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "request": request,
                "offerKind": offer_kind,
                "offer": offer,
                "kind": kind,
                "key": key,
                "state": state,
                "id": id,
                "error": error,
                "updatedAt": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        request = d.pop("request")

        offer_kind = CampaignStatusAppStoreConnectItemOfferKind(d.pop("offerKind"))

        offer = d.pop("offer")

        kind = CampaignStatusAppStoreConnectItemKind(d.pop("kind"))

        key = d.pop("key")

        state = CampaignStatusAppStoreConnectItemState(d.pop("state"))

        def _parse_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        id = _parse_id(d.pop("id"))

        def _parse_error(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        error = _parse_error(d.pop("error"))

        updated_at = d.pop("updatedAt")

        campaign_status_app_store_connect_item = cls(
            request=request,
            offer_kind=offer_kind,
            offer=offer,
            kind=kind,
            key=key,
            state=state,
            id=id,
            error=error,
            updated_at=updated_at,
        )

        return campaign_status_app_store_connect_item
