from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

from ..models.batch_advanced_commerce_request_type import BatchAdvancedCommerceRequestType
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.advanced_commerce_one_time_charge_request import AdvancedCommerceOneTimeChargeRequest
    from ..models.advanced_commerce_subscription_create_request import AdvancedCommerceSubscriptionCreateRequest
    from ..models.advanced_commerce_subscription_modify_request import AdvancedCommerceSubscriptionModifyRequest
    from ..models.advanced_commerce_subscription_reactivate_request import AdvancedCommerceSubscriptionReactivateRequest


T = TypeVar("T", bound="BatchAdvancedCommerceRequest")


@_attrs_define
class BatchAdvancedCommerceRequest:
    """An item of type `advanced-commerce`: the members of `POST /v1/signatures/advanced-commerce`
    (AdvancedCommerceRequest), checked alike.

        Attributes:
            type_ (BatchAdvancedCommerceRequestType): `advanced-commerce`: the body of `POST /v1/signatures/advanced-
                commerce`.
            bundle_id (str): The app's bundle ID; the service must be configured with it.
            request (AdvancedCommerceOneTimeChargeRequest | AdvancedCommerceSubscriptionCreateRequest |
                AdvancedCommerceSubscriptionModifyRequest | AdvancedCommerceSubscriptionReactivateRequest): An Advanced Commerce
                in-app request: the JSON your app would otherwise build, chosen by `operation`. It is signed, base64-encoded,
                into the JWS's `request` claim with the members in a fixed order.
            id (int | str | Unset): Any string of at most 256 characters, or an integer; echoed in the item's result.
            nonce (UUID | Unset): A nonce (random UUID, version 4). Leave it out and the service makes a fresh one.
    """

    type_: BatchAdvancedCommerceRequestType
    bundle_id: str
    request: (
        AdvancedCommerceOneTimeChargeRequest
        | AdvancedCommerceSubscriptionCreateRequest
        | AdvancedCommerceSubscriptionModifyRequest
        | AdvancedCommerceSubscriptionReactivateRequest
    )
    id: int | str | Unset = UNSET
    nonce: UUID | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.advanced_commerce_one_time_charge_request import AdvancedCommerceOneTimeChargeRequest  # noqa: PLC0415
        from ..models.advanced_commerce_subscription_create_request import AdvancedCommerceSubscriptionCreateRequest  # noqa: PLC0415
        from ..models.advanced_commerce_subscription_modify_request import AdvancedCommerceSubscriptionModifyRequest  # noqa: PLC0415

        type_ = self.type_.value

        bundle_id = self.bundle_id

        request: dict[str, Any]
        if isinstance(self.request, AdvancedCommerceOneTimeChargeRequest):
            request = self.request.to_dict()
        elif isinstance(self.request, AdvancedCommerceSubscriptionCreateRequest):
            request = self.request.to_dict()
        elif isinstance(self.request, AdvancedCommerceSubscriptionModifyRequest):
            request = self.request.to_dict()
        else:
            request = self.request.to_dict()

        id: int | str | Unset
        if isinstance(self.id, Unset):
            id = UNSET
        else:
            id = self.id

        nonce: str | Unset = UNSET
        if not isinstance(self.nonce, Unset):
            nonce = str(self.nonce)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type_,
                "bundleId": bundle_id,
                "request": request,
            }
        )
        if id is not UNSET:
            field_dict["id"] = id
        if nonce is not UNSET:
            field_dict["nonce"] = nonce

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.advanced_commerce_one_time_charge_request import AdvancedCommerceOneTimeChargeRequest  # noqa: PLC0415
        from ..models.advanced_commerce_subscription_create_request import AdvancedCommerceSubscriptionCreateRequest  # noqa: PLC0415
        from ..models.advanced_commerce_subscription_modify_request import AdvancedCommerceSubscriptionModifyRequest  # noqa: PLC0415
        from ..models.advanced_commerce_subscription_reactivate_request import (
            AdvancedCommerceSubscriptionReactivateRequest,  # noqa: PLC0415
        )

        d = dict(src_dict)
        type_ = BatchAdvancedCommerceRequestType(d.pop("type"))

        bundle_id = d.pop("bundleId")

        def _parse_request(
            data: object,
        ) -> (
            AdvancedCommerceOneTimeChargeRequest
            | AdvancedCommerceSubscriptionCreateRequest
            | AdvancedCommerceSubscriptionModifyRequest
            | AdvancedCommerceSubscriptionReactivateRequest
        ):
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_advanced_commerce_in_app_request_type_0 = (
                    AdvancedCommerceOneTimeChargeRequest.from_dict(data)
                )

                return componentsschemas_advanced_commerce_in_app_request_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_advanced_commerce_in_app_request_type_1 = (
                    AdvancedCommerceSubscriptionCreateRequest.from_dict(data)
                )

                return componentsschemas_advanced_commerce_in_app_request_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_advanced_commerce_in_app_request_type_2 = (
                    AdvancedCommerceSubscriptionModifyRequest.from_dict(data)
                )

                return componentsschemas_advanced_commerce_in_app_request_type_2
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            componentsschemas_advanced_commerce_in_app_request_type_3 = (
                AdvancedCommerceSubscriptionReactivateRequest.from_dict(data)
            )

            return componentsschemas_advanced_commerce_in_app_request_type_3

        request = _parse_request(d.pop("request"))

        def _parse_id(data: object) -> int | str | Unset:
            if isinstance(data, Unset):
                return data
            return cast(int | str | Unset, data)

        id = _parse_id(d.pop("id", UNSET))

        _nonce = d.pop("nonce", UNSET)
        nonce: UUID | Unset
        if isinstance(_nonce, Unset):
            nonce = UNSET
        else:
            nonce = UUID(_nonce)

        batch_advanced_commerce_request = cls(
            type_=type_,
            bundle_id=bundle_id,
            request=request,
            id=id,
            nonce=nonce,
        )

        return batch_advanced_commerce_request
