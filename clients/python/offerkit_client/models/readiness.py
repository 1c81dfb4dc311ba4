from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.readiness_status import ReadinessStatus

T = TypeVar("T", bound="Readiness")


@_attrs_define
class Readiness:
    """
    Attributes:
        status (ReadinessStatus):
        apps (int): How many apps are configured.
    """

    status: ReadinessStatus
    apps: int

    def to_dict(self) -> dict[str, Any]:
        status = self.status.value

        apps = self.apps

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "status": status,
                "apps": apps,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        status = ReadinessStatus(d.pop("status"))

        apps = d.pop("apps")

        readiness = cls(
            status=status,
            apps=apps,
        )

        return readiness
