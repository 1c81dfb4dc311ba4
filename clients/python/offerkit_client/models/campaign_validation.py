from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.campaign_problem import CampaignProblem


T = TypeVar("T", bound="CampaignValidation")


@_attrs_define
class CampaignValidation:
    """Whether the campaign is valid, and its problems (none when it is valid): the first 1000, with the total in
    `problemCount`.

        Attributes:
            valid (bool): Whether the campaign breaks no rule.
            problems (list[CampaignProblem]): The campaign's problems, in document order, at most the first 1000
                (`problemCount` has the total); paths are relative to the request's `campaign` member.
            problem_count (int): How many problems the campaign has in all, listed or not.
            truncated (bool): Whether `problems` lists only the first 1000 of the `problemCount` problems.
    """

    valid: bool
    problems: list[CampaignProblem]
    problem_count: int
    truncated: bool

    def to_dict(self) -> dict[str, Any]:
        valid = self.valid

        problems = []
        for problems_item_data in self.problems:
            problems_item = problems_item_data.to_dict()
            problems.append(problems_item)

        problem_count = self.problem_count

        truncated = self.truncated

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "valid": valid,
                "problems": problems,
                "problemCount": problem_count,
                "truncated": truncated,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.campaign_problem import CampaignProblem  # noqa: PLC0415

        d = dict(src_dict)
        valid = d.pop("valid")

        problems = []
        _problems = d.pop("problems")
        for problems_item_data in _problems:
            problems_item = CampaignProblem.from_dict(problems_item_data)

            problems.append(problems_item)

        problem_count = d.pop("problemCount")

        truncated = d.pop("truncated")

        campaign_validation = cls(
            valid=valid,
            problems=problems,
            problem_count=problem_count,
            truncated=truncated,
        )

        return campaign_validation
