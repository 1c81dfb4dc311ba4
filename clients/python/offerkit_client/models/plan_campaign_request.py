from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.campaign import Campaign
    from ..models.supplied_custom_codes import SuppliedCustomCodes


T = TypeVar("T", bound="PlanCampaignRequest")


@_attrs_define
class PlanCampaignRequest:
    """A campaign to plan, the day to plan it on, and the codes of its generated batches.

    Attributes:
        campaign (Campaign): An offer-code campaign in the format of `offerkit codes validate` (see the README, "Offer
            codes", and `examples/campaign.json`): `name`, `app` {`bundleId`, `appAppleId`} and `offers`, each with its
            `referenceName`, optional `displayName`, `product`, `paymentMode`, prices and code batches. This schema bounds
            only the sizes of its lists; its members are checked by the campaign rules, so that every problem is reported at
            once with its JSON path.
        today (datetime.date | Unset): The day (UTC) that expiry limits, relative dates such as `P90D` and the quarter
            count from. Default: the service's current day in UTC.
        custom_codes (list[SuppliedCustomCodes] | Unset): The codes of every custom-code batch with `generate`, one
            entry per batch: at most 10000, every batch of the largest campaign the service takes.
    """

    campaign: Campaign
    today: datetime.date | Unset = UNSET
    custom_codes: list[SuppliedCustomCodes] | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        campaign = self.campaign.to_dict()

        today: str | Unset = UNSET
        if not isinstance(self.today, Unset):
            today = self.today.isoformat()

        custom_codes: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.custom_codes, Unset):
            custom_codes = []
            for custom_codes_item_data in self.custom_codes:
                custom_codes_item = custom_codes_item_data.to_dict()
                custom_codes.append(custom_codes_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "campaign": campaign,
            }
        )
        if today is not UNSET:
            field_dict["today"] = today
        if custom_codes is not UNSET:
            field_dict["customCodes"] = custom_codes

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.campaign import Campaign  # noqa: PLC0415
        from ..models.supplied_custom_codes import SuppliedCustomCodes  # noqa: PLC0415

        d = dict(src_dict)
        campaign = Campaign.from_dict(d.pop("campaign"))

        _today = d.pop("today", UNSET)
        today: datetime.date | Unset
        if isinstance(_today, Unset):
            today = UNSET
        else:
            today = datetime.date.fromisoformat(_today)

        _custom_codes = d.pop("customCodes", UNSET)
        custom_codes: list[SuppliedCustomCodes] | Unset = UNSET
        if _custom_codes is not UNSET:
            custom_codes = []
            for custom_codes_item_data in _custom_codes:
                custom_codes_item = SuppliedCustomCodes.from_dict(custom_codes_item_data)

                custom_codes.append(custom_codes_item)

        plan_campaign_request = cls(
            campaign=campaign,
            today=today,
            custom_codes=custom_codes,
        )

        return plan_campaign_request
