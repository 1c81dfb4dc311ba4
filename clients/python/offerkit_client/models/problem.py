from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

from ..models.problem_type import ProblemType
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.campaign_problem import CampaignProblem


T = TypeVar("T", bound="Problem")


@_attrs_define
class Problem:
    """An RFC 9457 problem (`application/problem+json`).

    Attributes:
        type_ (ProblemType): The problem's stable type; clients may branch on it. See `x-problem-types`.
        title (str): A short, fixed summary of the type.
        status (int): The HTTP status code, repeated from the response.
        detail (str): What happened in this request, for a person. Never contains key material.
        request_id (str): The request's id, as in the `X-Request-Id` response header and the service's log.
        field (str | Unset): The path of the field at fault, such as `productId` or `request.items[0].SKU`.
        problems (list[CampaignProblem] | Unset): The campaign's problems, in document order, at most the first 1000
            (`problemCount` has the total); paths are relative to the request's `campaign` member.
        problem_count (int | Unset): How many problems the campaign has in all, listed or not.
        truncated (bool | Unset): Whether `problems` lists only the first 1000 of the `problemCount` problems.
        assigned (int | Unset): With `no-code-left`: the codes handed out (shared codes: to how many recipients).
        stored (int | Unset): With `no-code-left`: the codes there were to hand out (shared codes: redemptions).
    """

    type_: ProblemType
    title: str
    status: int
    detail: str
    request_id: str
    field: str | Unset = UNSET
    problems: list[CampaignProblem] | Unset = UNSET
    problem_count: int | Unset = UNSET
    truncated: bool | Unset = UNSET
    assigned: int | Unset = UNSET
    stored: int | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_.value

        title = self.title

        status = self.status

        detail = self.detail

        request_id = self.request_id

        field = self.field

        problems: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.problems, Unset):
            problems = []
            for problems_item_data in self.problems:
                problems_item = problems_item_data.to_dict()
                problems.append(problems_item)

        problem_count = self.problem_count

        truncated = self.truncated

        assigned = self.assigned

        stored = self.stored

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type_,
                "title": title,
                "status": status,
                "detail": detail,
                "requestId": request_id,
            }
        )
        if field is not UNSET:
            field_dict["field"] = field
        if problems is not UNSET:
            field_dict["problems"] = problems
        if problem_count is not UNSET:
            field_dict["problemCount"] = problem_count
        if truncated is not UNSET:
            field_dict["truncated"] = truncated
        if assigned is not UNSET:
            field_dict["assigned"] = assigned
        if stored is not UNSET:
            field_dict["stored"] = stored

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.campaign_problem import CampaignProblem  # noqa: PLC0415

        d = dict(src_dict)
        type_ = ProblemType(d.pop("type"))

        title = d.pop("title")

        status = d.pop("status")

        detail = d.pop("detail")

        request_id = d.pop("requestId")

        field = d.pop("field", UNSET)

        _problems = d.pop("problems", UNSET)
        problems: list[CampaignProblem] | Unset = UNSET
        if _problems is not UNSET:
            problems = []
            for problems_item_data in _problems:
                problems_item = CampaignProblem.from_dict(problems_item_data)

                problems.append(problems_item)

        problem_count = d.pop("problemCount", UNSET)

        truncated = d.pop("truncated", UNSET)

        assigned = d.pop("assigned", UNSET)

        stored = d.pop("stored", UNSET)

        problem = cls(
            type_=type_,
            title=title,
            status=status,
            detail=detail,
            request_id=request_id,
            field=field,
            problems=problems,
            problem_count=problem_count,
            truncated=truncated,
            assigned=assigned,
            stored=stored,
        )

        return problem
