from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.campaign_plan_app import CampaignPlanApp
    from ..models.planned_request import PlannedRequest


T = TypeVar("T", bound="CampaignPlan")


@_attrs_define
class CampaignPlan:
    """The App Store Connect requests that create the campaign, in dependency order: the same document as `offerkit codes
    plan`.

        Attributes:
            campaign (str): The campaign's name.
            app (CampaignPlanApp):
            placeholders (str): How to replace the `<id of R>` placeholders.
            requests (list[PlannedRequest]): The requests, in the order to send them.
    """

    campaign: str
    app: CampaignPlanApp
    placeholders: str
    requests: list[PlannedRequest]

    def to_dict(self) -> dict[str, Any]:
        campaign = self.campaign

        app = self.app.to_dict()

        placeholders = self.placeholders

        requests = []
        for requests_item_data in self.requests:
            requests_item = requests_item_data.to_dict()
            requests.append(requests_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "campaign": campaign,
                "app": app,
                "placeholders": placeholders,
                "requests": requests,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.campaign_plan_app import CampaignPlanApp  # noqa: PLC0415
        from ..models.planned_request import PlannedRequest  # noqa: PLC0415

        d = dict(src_dict)
        campaign = d.pop("campaign")

        app = CampaignPlanApp.from_dict(d.pop("app"))

        placeholders = d.pop("placeholders")

        requests = []
        _requests = d.pop("requests")
        for requests_item_data in _requests:
            requests_item = PlannedRequest.from_dict(requests_item_data)

            requests.append(requests_item)

        campaign_plan = cls(
            campaign=campaign,
            app=app,
            placeholders=placeholders,
            requests=requests,
        )

        return campaign_plan
