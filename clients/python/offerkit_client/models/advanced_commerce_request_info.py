from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="AdvancedCommerceRequestInfo")


@_attrs_define
class AdvancedCommerceRequestInfo:
    """Metadata every Advanced Commerce request carries.

    Attributes:
        request_reference_id (UUID): A UUID you generate for this request.
        app_account_token (UUID | Unset): The customer's app account token, if your app uses one.
        consistency_token (str | Unset): The `advancedCommerceConsistencyToken` from the subscription's latest renewal
            info, passed through unchanged (at most 512 characters).
    """

    request_reference_id: UUID
    app_account_token: UUID | Unset = UNSET
    consistency_token: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        request_reference_id = str(self.request_reference_id)

        app_account_token: str | Unset = UNSET
        if not isinstance(self.app_account_token, Unset):
            app_account_token = str(self.app_account_token)

        consistency_token = self.consistency_token

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "requestReferenceId": request_reference_id,
            }
        )
        if app_account_token is not UNSET:
            field_dict["appAccountToken"] = app_account_token
        if consistency_token is not UNSET:
            field_dict["consistencyToken"] = consistency_token

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        request_reference_id = UUID(d.pop("requestReferenceId"))

        _app_account_token = d.pop("appAccountToken", UNSET)
        app_account_token: UUID | Unset
        if isinstance(_app_account_token, Unset):
            app_account_token = UNSET
        else:
            app_account_token = UUID(_app_account_token)

        consistency_token = d.pop("consistencyToken", UNSET)

        advanced_commerce_request_info = cls(
            request_reference_id=request_reference_id,
            app_account_token=app_account_token,
            consistency_token=consistency_token,
        )

        return advanced_commerce_request_info
