from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.advanced_commerce_effective import AdvancedCommerceEffective
from ..models.advanced_commerce_period import AdvancedCommercePeriod

T = TypeVar("T", bound="AdvancedCommercePeriodChange")


@_attrs_define
class AdvancedCommercePeriodChange:
    """A change of a subscription's billing period.

    Attributes:
        effective (AdvancedCommerceEffective): When a change takes effect: now, or at the next renewal.
        period (AdvancedCommercePeriod): A subscription's billing period, as an ISO 8601 duration.
    """

    effective: AdvancedCommerceEffective
    period: AdvancedCommercePeriod

    def to_dict(self) -> dict[str, Any]:
        effective = self.effective.value

        period = self.period.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "effective": effective,
                "period": period,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        effective = AdvancedCommerceEffective(d.pop("effective"))

        period = AdvancedCommercePeriod(d.pop("period"))

        advanced_commerce_period_change = cls(
            effective=effective,
            period=period,
        )

        return advanced_commerce_period_change
