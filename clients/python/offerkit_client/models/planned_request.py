from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.planned_request_method import PlannedRequestMethod

if TYPE_CHECKING:
    from ..models.planned_request_body import PlannedRequestBody


T = TypeVar("T", bound="PlannedRequest")


@_attrs_define
class PlannedRequest:
    """One App Store Connect create request.

    Attributes:
        id (str): A stable id within the plan: `offer-1`, `offer-1-one-time-use-1`, `offer-1-custom-code-3`.
        method (PlannedRequestMethod): The HTTP method.
        path (str): The path under `https://api.appstoreconnect.apple.com`.
        schema (str): The name of Apple's request schema (App Store Connect API 4.4.1) the body follows.
        depends_on (list[str]): The ids of earlier requests whose returned resource id the body needs.
        body (PlannedRequestBody): The JSON:API request body, with `<id of R>` placeholders.
    """

    id: str
    method: PlannedRequestMethod
    path: str
    schema: str
    depends_on: list[str]
    body: PlannedRequestBody

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        method = self.method.value

        path = self.path

        schema = self.schema

        depends_on = self.depends_on

        body = self.body.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "method": method,
                "path": path,
                "schema": schema,
                "dependsOn": depends_on,
                "body": body,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.planned_request_body import PlannedRequestBody  # noqa: PLC0415

        d = dict(src_dict)
        id = d.pop("id")

        method = PlannedRequestMethod(d.pop("method"))

        path = d.pop("path")

        schema = d.pop("schema")

        depends_on = cast(list[str], d.pop("dependsOn"))

        body = PlannedRequestBody.from_dict(d.pop("body"))

        planned_request = cls(
            id=id,
            method=method,
            path=path,
            schema=schema,
            depends_on=depends_on,
            body=body,
        )

        return planned_request
