from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

from ..models.advanced_commerce_one_time_charge_request_operation import AdvancedCommerceOneTimeChargeRequestOperation
from ..models.advanced_commerce_one_time_charge_request_version import AdvancedCommerceOneTimeChargeRequestVersion
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.advanced_commerce_one_time_charge_item import AdvancedCommerceOneTimeChargeItem
    from ..models.advanced_commerce_request_info import AdvancedCommerceRequestInfo


T = TypeVar("T", bound="AdvancedCommerceOneTimeChargeRequest")


@_attrs_define
class AdvancedCommerceOneTimeChargeRequest:
    """`CREATE_ONE_TIME_CHARGE`: a customer buys a one-time-charge product.

    Attributes:
        operation (AdvancedCommerceOneTimeChargeRequestOperation): The kind of request.
        request_info (AdvancedCommerceRequestInfo): Metadata every Advanced Commerce request carries.
        currency (str): The ISO 4217 currency code of the prices: exactly three upper-case letters A–Z, such as `USD`
            (anything else is refused with `invalid-field`).
        tax_code (str): The product's tax code from Apple's list of Advanced Commerce tax codes (at most 64 characters).
        item (AdvancedCommerceOneTimeChargeItem): The product of a one-time charge.
        version (AdvancedCommerceOneTimeChargeRequestVersion | Unset): The request format's version; "1", also when left
            out.
        storefront (str | Unset): The storefront, as an ISO 3166-1 alpha-3 code: exactly three upper-case letters A–Z,
            such as `USA` (anything else is refused with `invalid-field`).
    """

    operation: AdvancedCommerceOneTimeChargeRequestOperation
    request_info: AdvancedCommerceRequestInfo
    currency: str
    tax_code: str
    item: AdvancedCommerceOneTimeChargeItem
    version: AdvancedCommerceOneTimeChargeRequestVersion | Unset = UNSET
    storefront: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        operation = self.operation.value

        request_info = self.request_info.to_dict()

        currency = self.currency

        tax_code = self.tax_code

        item = self.item.to_dict()

        version: str | Unset = UNSET
        if not isinstance(self.version, Unset):
            version = self.version.value

        storefront = self.storefront

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "operation": operation,
                "requestInfo": request_info,
                "currency": currency,
                "taxCode": tax_code,
                "item": item,
            }
        )
        if version is not UNSET:
            field_dict["version"] = version
        if storefront is not UNSET:
            field_dict["storefront"] = storefront

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.advanced_commerce_one_time_charge_item import AdvancedCommerceOneTimeChargeItem  # noqa: PLC0415
        from ..models.advanced_commerce_request_info import AdvancedCommerceRequestInfo  # noqa: PLC0415

        d = dict(src_dict)
        operation = AdvancedCommerceOneTimeChargeRequestOperation(d.pop("operation"))

        request_info = AdvancedCommerceRequestInfo.from_dict(d.pop("requestInfo"))

        currency = d.pop("currency")

        tax_code = d.pop("taxCode")

        item = AdvancedCommerceOneTimeChargeItem.from_dict(d.pop("item"))

        _version = d.pop("version", UNSET)
        version: AdvancedCommerceOneTimeChargeRequestVersion | Unset
        if isinstance(_version, Unset):
            version = UNSET
        else:
            version = AdvancedCommerceOneTimeChargeRequestVersion(_version)

        storefront = d.pop("storefront", UNSET)

        advanced_commerce_one_time_charge_request = cls(
            operation=operation,
            request_info=request_info,
            currency=currency,
            tax_code=tax_code,
            item=item,
            version=version,
            storefront=storefront,
        )

        return advanced_commerce_one_time_charge_request
