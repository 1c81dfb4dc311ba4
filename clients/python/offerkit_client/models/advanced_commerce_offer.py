from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.advanced_commerce_offer_period import AdvancedCommerceOfferPeriod
from ..models.advanced_commerce_offer_reason import AdvancedCommerceOfferReason

T = TypeVar("T", bound="AdvancedCommerceOffer")


@_attrs_define
class AdvancedCommerceOffer:
    """A discount offer on a subscription item.

    Attributes:
        period (AdvancedCommerceOfferPeriod): How long one period of a discount offer lasts, as an ISO 8601 duration.
        period_count (int): How many periods the offer lasts.
        price (int): The discounted price per period, in milli-units of the currency.
        reason (AdvancedCommerceOfferReason): Why a discount offer is given.
    """

    period: AdvancedCommerceOfferPeriod
    period_count: int
    price: int
    reason: AdvancedCommerceOfferReason

    def to_dict(self) -> dict[str, Any]:
        period = self.period.value

        period_count = self.period_count

        price = self.price

        reason = self.reason.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "period": period,
                "periodCount": period_count,
                "price": price,
                "reason": reason,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        period = AdvancedCommerceOfferPeriod(d.pop("period"))

        period_count = d.pop("periodCount")

        price = d.pop("price")

        reason = AdvancedCommerceOfferReason(d.pop("reason"))

        advanced_commerce_offer = cls(
            period=period,
            period_count=period_count,
            price=price,
            reason=reason,
        )

        return advanced_commerce_offer
