from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.campaign_status_offers_item import CampaignStatusOffersItem
    from ..models.campaign_status_usage import CampaignStatusUsage


T = TypeVar("T", bound="CampaignStatus")


@_attrs_define
class CampaignStatus:
    """What the ledger holds for a campaign and how much of it was handed out.

    Attributes:
        campaign (str): The campaign's name.
        app_apple_id (str): The App Apple ID of its app.
        offers (list[CampaignStatusOffersItem]): The campaign's offers, in the order they were first recorded.
        usage (CampaignStatusUsage): The app's usage of Apple's limits in this quarter.
    """

    campaign: str
    app_apple_id: str
    offers: list[CampaignStatusOffersItem]
    usage: CampaignStatusUsage

    def to_dict(self) -> dict[str, Any]:
        campaign = self.campaign

        app_apple_id = self.app_apple_id

        offers = []
        for offers_item_data in self.offers:
            offers_item = offers_item_data.to_dict()
            offers.append(offers_item)

        usage = self.usage.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "campaign": campaign,
                "appAppleId": app_apple_id,
                "offers": offers,
                "usage": usage,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.campaign_status_offers_item import CampaignStatusOffersItem  # noqa: PLC0415
        from ..models.campaign_status_usage import CampaignStatusUsage  # noqa: PLC0415

        d = dict(src_dict)
        campaign = d.pop("campaign")

        app_apple_id = d.pop("appAppleId")

        offers = []
        _offers = d.pop("offers")
        for offers_item_data in _offers:
            offers_item = CampaignStatusOffersItem.from_dict(offers_item_data)

            offers.append(offers_item)

        usage = CampaignStatusUsage.from_dict(d.pop("usage"))

        campaign_status = cls(
            campaign=campaign,
            app_apple_id=app_apple_id,
            offers=offers,
            usage=usage,
        )

        return campaign_status
