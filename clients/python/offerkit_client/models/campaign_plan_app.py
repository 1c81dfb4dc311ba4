from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="CampaignPlanApp")


@_attrs_define
class CampaignPlanApp:
    """
    Attributes:
        bundle_id (str): The app's bundle ID.
        app_apple_id (str): The app's Apple ID.
    """

    bundle_id: str
    app_apple_id: str

    def to_dict(self) -> dict[str, Any]:
        bundle_id = self.bundle_id

        app_apple_id = self.app_apple_id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "bundleId": bundle_id,
                "appAppleId": app_apple_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        bundle_id = d.pop("bundleId")

        app_apple_id = d.pop("appAppleId")

        campaign_plan_app = cls(
            bundle_id=bundle_id,
            app_apple_id=app_apple_id,
        )

        return campaign_plan_app
