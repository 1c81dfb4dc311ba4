from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.campaign import Campaign


T = TypeVar("T", bound="ValidateCampaignRequest")


@_attrs_define
class ValidateCampaignRequest:
    """A campaign to validate, and the day to validate it on.

    Attributes:
        campaign (Campaign): An offer-code campaign in the format of `offerkit codes validate` (see the README, "Offer
            codes", and `examples/campaign.json`): `name`, `app` {`bundleId`, `appAppleId`} and `offers`, each with its
            `referenceName`, optional `displayName`, `product`, `paymentMode`, prices and code batches. This schema bounds
            only the sizes of its lists; its members are checked by the campaign rules, so that every problem is reported at
            once with its JSON path.
        today (datetime.date | Unset): The day (UTC) that expiry limits, relative dates such as `P90D` and the quarter
            count from. Default: the service's current day in UTC.
    """

    campaign: Campaign
    today: datetime.date | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        campaign = self.campaign.to_dict()

        today: str | Unset = UNSET
        if not isinstance(self.today, Unset):
            today = self.today.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "campaign": campaign,
            }
        )
        if today is not UNSET:
            field_dict["today"] = today

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.campaign import Campaign  # noqa: PLC0415

        d = dict(src_dict)
        campaign = Campaign.from_dict(d.pop("campaign"))

        _today = d.pop("today", UNSET)
        today: datetime.date | Unset
        if isinstance(_today, Unset):
            today = UNSET
        else:
            today = datetime.date.fromisoformat(_today)

        validate_campaign_request = cls(
            campaign=campaign,
            today=today,
        )

        return validate_campaign_request
