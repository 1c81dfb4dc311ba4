from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define

from ..models.alternate_product_billing_plan_type import AlternateProductBillingPlanType
from ..types import UNSET, Unset

T = TypeVar("T", bound="AlternateProduct")


@_attrs_define
class AlternateProduct:
    """A switch-plan message.

    Attributes:
        message_identifier (UUID): The identifier of a message uploaded to Apple; it must be APPROVED.
        product_id (str): The subscription to suggest switching to.
        billing_plan_type (AlternateProductBillingPlanType | Unset): How it is billed.
    """

    message_identifier: UUID
    product_id: str
    billing_plan_type: AlternateProductBillingPlanType | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        message_identifier = str(self.message_identifier)

        product_id = self.product_id

        billing_plan_type: str | Unset = UNSET
        if not isinstance(self.billing_plan_type, Unset):
            billing_plan_type = self.billing_plan_type.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "messageIdentifier": message_identifier,
                "productId": product_id,
            }
        )
        if billing_plan_type is not UNSET:
            field_dict["billingPlanType"] = billing_plan_type

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        message_identifier = UUID(d.pop("messageIdentifier"))

        product_id = d.pop("productId")

        _billing_plan_type = d.pop("billingPlanType", UNSET)
        billing_plan_type: AlternateProductBillingPlanType | Unset
        if isinstance(_billing_plan_type, Unset):
            billing_plan_type = UNSET
        else:
            billing_plan_type = AlternateProductBillingPlanType(_billing_plan_type)

        alternate_product = cls(
            message_identifier=message_identifier,
            product_id=product_id,
            billing_plan_type=billing_plan_type,
        )

        return alternate_product
