from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.campaign_status_app_store_connect_item import CampaignStatusAppStoreConnectItem
    from ..models.campaign_status_offers_item import CampaignStatusOffersItem
    from ..models.campaign_status_usage import CampaignStatusUsage


T = TypeVar("T", bound="CampaignStatus")


@_attrs_define
class CampaignStatus:
    """What the ledger holds for a campaign and how much of it was handed out.

    Attributes:
        campaign (str): The campaign's name.
        app_apple_id (str): The App Apple ID of its app.
        today (datetime.date): The day (UTC) the status was taken: batches that expired before it are marked.
        offers (list[CampaignStatusOffersItem]): The campaign's offers, in the order they were first recorded.
        usage (CampaignStatusUsage): The app's usage of Apple's limits in this quarter.
        app_store_connect (list[CampaignStatusAppStoreConnectItem]): The campaign's App Store Connect resources, as
            `offerkit codes apply` recorded them, in the order of its plan; empty until it runs.
    """

    campaign: str
    app_apple_id: str
    today: datetime.date
    offers: list[CampaignStatusOffersItem]
    usage: CampaignStatusUsage
    app_store_connect: list[CampaignStatusAppStoreConnectItem]

    def to_dict(self) -> dict[str, Any]:
        campaign = self.campaign

        app_apple_id = self.app_apple_id

        today = self.today.isoformat()

        offers = []
        for offers_item_data in self.offers:
            offers_item = offers_item_data.to_dict()
            offers.append(offers_item)

        usage = self.usage.to_dict()

        app_store_connect = []
        for app_store_connect_item_data in self.app_store_connect:
            app_store_connect_item = app_store_connect_item_data.to_dict()
            app_store_connect.append(app_store_connect_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "campaign": campaign,
                "appAppleId": app_apple_id,
                "today": today,
                "offers": offers,
                "usage": usage,
                "appStoreConnect": app_store_connect,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.campaign_status_app_store_connect_item import CampaignStatusAppStoreConnectItem  # noqa: PLC0415
        from ..models.campaign_status_offers_item import CampaignStatusOffersItem  # noqa: PLC0415
        from ..models.campaign_status_usage import CampaignStatusUsage  # noqa: PLC0415

        d = dict(src_dict)
        campaign = d.pop("campaign")

        app_apple_id = d.pop("appAppleId")

        today = datetime.date.fromisoformat(d.pop("today"))

        offers = []
        _offers = d.pop("offers")
        for offers_item_data in _offers:
            offers_item = CampaignStatusOffersItem.from_dict(offers_item_data)

            offers.append(offers_item)

        usage = CampaignStatusUsage.from_dict(d.pop("usage"))

        app_store_connect = []
        _app_store_connect = d.pop("appStoreConnect")
        for app_store_connect_item_data in _app_store_connect:
            app_store_connect_item = CampaignStatusAppStoreConnectItem.from_dict(app_store_connect_item_data)

            app_store_connect.append(app_store_connect_item)

        campaign_status = cls(
            campaign=campaign,
            app_apple_id=app_apple_id,
            today=today,
            offers=offers,
            usage=usage,
            app_store_connect=app_store_connect,
        )

        return campaign_status
