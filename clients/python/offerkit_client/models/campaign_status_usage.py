from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="CampaignStatusUsage")


@_attrs_define
class CampaignStatusUsage:
    """The app's usage of Apple's limits in this quarter.

    Attributes:
        quarter (str): This quarter (UTC), such as `2027-Q1`.
        production_codes (int): The app's production codes recorded in the quarter, over all campaigns (one-time-use
            codes plus custom codes times their redemption limit).
        production_limit (int): Apple's limit of production codes.
        sandbox_codes (int): The app's sandbox codes recorded in the quarter.
        sandbox_limit (int): Apple's limit of sandbox codes.
        active_offers (int): The app's active offers, over all campaigns.
        active_offer_limit (int): Apple's limit of active offers per app.
    """

    quarter: str
    production_codes: int
    production_limit: int
    sandbox_codes: int
    sandbox_limit: int
    active_offers: int
    active_offer_limit: int

    def to_dict(self) -> dict[str, Any]:
        quarter = self.quarter

        production_codes = self.production_codes

        production_limit = self.production_limit

        sandbox_codes = self.sandbox_codes

        sandbox_limit = self.sandbox_limit

        active_offers = self.active_offers

        active_offer_limit = self.active_offer_limit

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "quarter": quarter,
                "productionCodes": production_codes,
                "productionLimit": production_limit,
                "sandboxCodes": sandbox_codes,
                "sandboxLimit": sandbox_limit,
                "activeOffers": active_offers,
                "activeOfferLimit": active_offer_limit,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        quarter = d.pop("quarter")

        production_codes = d.pop("productionCodes")

        production_limit = d.pop("productionLimit")

        sandbox_codes = d.pop("sandboxCodes")

        sandbox_limit = d.pop("sandboxLimit")

        active_offers = d.pop("activeOffers")

        active_offer_limit = d.pop("activeOfferLimit")

        campaign_status_usage = cls(
            quarter=quarter,
            production_codes=production_codes,
            production_limit=production_limit,
            sandbox_codes=sandbox_codes,
            sandbox_limit=sandbox_limit,
            active_offers=active_offers,
            active_offer_limit=active_offer_limit,
        )

        return campaign_status_usage
