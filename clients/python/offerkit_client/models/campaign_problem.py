from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="CampaignProblem")


@_attrs_define
class CampaignProblem:
    """One problem of a campaign.

    Attributes:
        path (str): The JSON path of the field at fault, relative to the request's `campaign` member (`$` is the
            campaign itself), such as `$.offers[1].paymentMode`.
        rule (str): A stable identifier of the rule that failed.
        message (str): What is wrong, for a person.
        allowed (str | Unset): What the field would accept.
    """

    path: str
    rule: str
    message: str
    allowed: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        path = self.path

        rule = self.rule

        message = self.message

        allowed = self.allowed

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "path": path,
                "rule": rule,
                "message": message,
            }
        )
        if allowed is not UNSET:
            field_dict["allowed"] = allowed

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        path = d.pop("path")

        rule = d.pop("rule")

        message = d.pop("message")

        allowed = d.pop("allowed", UNSET)

        campaign_problem = cls(
            path=path,
            rule=rule,
            message=message,
            allowed=allowed,
        )

        return campaign_problem
