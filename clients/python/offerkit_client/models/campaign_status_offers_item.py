from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.campaign_status_offers_item_batches_item import CampaignStatusOffersItemBatchesItem


T = TypeVar("T", bound="CampaignStatusOffersItem")


@_attrs_define
class CampaignStatusOffersItem:
    """One offer of the campaign.

    Attributes:
        name (str): The offer's `referenceName`.
        active (bool): App Store Connect's `active` switch, as the ledger knows it.
        batches (list[CampaignStatusOffersItemBatchesItem]): Its batches, in the order they were recorded.
    """

    name: str
    active: bool
    batches: list[CampaignStatusOffersItemBatchesItem]

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        active = self.active

        batches = []
        for batches_item_data in self.batches:
            batches_item = batches_item_data.to_dict()
            batches.append(batches_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
                "active": active,
                "batches": batches,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.campaign_status_offers_item_batches_item import CampaignStatusOffersItemBatchesItem  # noqa: PLC0415

        d = dict(src_dict)
        name = d.pop("name")

        active = d.pop("active")

        batches = []
        _batches = d.pop("batches")
        for batches_item_data in _batches:
            batches_item = CampaignStatusOffersItemBatchesItem.from_dict(batches_item_data)

            batches.append(batches_item)

        campaign_status_offers_item = cls(
            name=name,
            active=active,
            batches=batches,
        )

        return campaign_status_offers_item
