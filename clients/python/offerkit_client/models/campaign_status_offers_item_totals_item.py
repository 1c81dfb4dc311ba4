from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.campaign_status_offers_item_totals_item_environment import CampaignStatusOffersItemTotalsItemEnvironment

T = TypeVar("T", bound="CampaignStatusOffersItemTotalsItem")


@_attrs_define
class CampaignStatusOffersItemTotalsItem:
    """An offer's batches of one environment, added up.

    Attributes:
        environment (CampaignStatusOffersItemTotalsItemEnvironment): `PRODUCTION`, or `SANDBOX` (the code works only in
            the sandbox): App Store Connect's names, as everywhere in OfferKit.
        code_count (int): The codes recorded: custom codes, or the number of one-time-use codes asked of Apple.
        stored_codes (int): The codes the ledger holds: custom codes, or the one-time-use codes imported from Apple (0
            until they are imported).
        assigned (int): Personal codes: how many were handed out. Shared codes: to how many recipients.
        left (int): What claims and exports can still hand out: left in the batches that have not expired, of the
            personal batches when the environment has any, else of the shared ones.
    """

    environment: CampaignStatusOffersItemTotalsItemEnvironment
    code_count: int
    stored_codes: int
    assigned: int
    left: int

    def to_dict(self) -> dict[str, Any]:
        environment = self.environment.value

        code_count = self.code_count

        stored_codes = self.stored_codes

        assigned = self.assigned

        left = self.left

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "environment": environment,
                "codeCount": code_count,
                "storedCodes": stored_codes,
                "assigned": assigned,
                "left": left,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        environment = CampaignStatusOffersItemTotalsItemEnvironment(d.pop("environment"))

        code_count = d.pop("codeCount")

        stored_codes = d.pop("storedCodes")

        assigned = d.pop("assigned")

        left = d.pop("left")

        campaign_status_offers_item_totals_item = cls(
            environment=environment,
            code_count=code_count,
            stored_codes=stored_codes,
            assigned=assigned,
            left=left,
        )

        return campaign_status_offers_item_totals_item
