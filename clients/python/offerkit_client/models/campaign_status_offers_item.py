from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.campaign_status_offers_item_batches_item import CampaignStatusOffersItemBatchesItem
    from ..models.campaign_status_offers_item_totals_item import CampaignStatusOffersItemTotalsItem


T = TypeVar("T", bound="CampaignStatusOffersItem")


@_attrs_define
class CampaignStatusOffersItem:
    """One offer of the campaign.

    Attributes:
        offer (str): The offer's `referenceName`.
        active (bool): App Store Connect's `active` switch, as the ledger knows it.
        batches (list[CampaignStatusOffersItemBatchesItem]): Its batches, in the order they were recorded.
        totals (list[CampaignStatusOffersItemTotalsItem]): One entry per environment the offer has batches in,
            PRODUCTION first.
    """

    offer: str
    active: bool
    batches: list[CampaignStatusOffersItemBatchesItem]
    totals: list[CampaignStatusOffersItemTotalsItem]

    def to_dict(self) -> dict[str, Any]:
        offer = self.offer

        active = self.active

        batches = []
        for batches_item_data in self.batches:
            batches_item = batches_item_data.to_dict()
            batches.append(batches_item)

        totals = []
        for totals_item_data in self.totals:
            totals_item = totals_item_data.to_dict()
            totals.append(totals_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "offer": offer,
                "active": active,
                "batches": batches,
                "totals": totals,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.campaign_status_offers_item_batches_item import CampaignStatusOffersItemBatchesItem  # noqa: PLC0415
        from ..models.campaign_status_offers_item_totals_item import CampaignStatusOffersItemTotalsItem  # noqa: PLC0415

        d = dict(src_dict)
        offer = d.pop("offer")

        active = d.pop("active")

        batches = []
        _batches = d.pop("batches")
        for batches_item_data in _batches:
            batches_item = CampaignStatusOffersItemBatchesItem.from_dict(batches_item_data)

            batches.append(batches_item)

        totals = []
        _totals = d.pop("totals")
        for totals_item_data in _totals:
            totals_item = CampaignStatusOffersItemTotalsItem.from_dict(totals_item_data)

            totals.append(totals_item)

        campaign_status_offers_item = cls(
            offer=offer,
            active=active,
            batches=batches,
            totals=totals,
        )

        return campaign_status_offers_item
