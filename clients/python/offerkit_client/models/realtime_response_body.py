from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.advanced_commerce_info import AdvancedCommerceInfo
    from ..models.alternate_product import AlternateProduct
    from ..models.promotional_offer import PromotionalOffer
    from ..models.retention_message import RetentionMessage


T = TypeVar("T", bound="RealtimeResponseBody")


@_attrs_define
class RealtimeResponseBody:
    """Apple's RealtimeResponseBody: at most one member; `{}` when nothing is chosen (Apple shows the default message).

    Attributes:
        message (RetentionMessage | Unset): A retention message (text, optional image).
        alternate_product (AlternateProduct | Unset): A switch-plan message.
        promotional_offer (PromotionalOffer | Unset): A message with a promotional offer: one of the two signatures.
        advanced_commerce_info (AdvancedCommerceInfo | Unset): A message with an Advanced Commerce offer or switch plan.
    """

    message: RetentionMessage | Unset = UNSET
    alternate_product: AlternateProduct | Unset = UNSET
    promotional_offer: PromotionalOffer | Unset = UNSET
    advanced_commerce_info: AdvancedCommerceInfo | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        message: dict[str, Any] | Unset = UNSET
        if not isinstance(self.message, Unset):
            message = self.message.to_dict()

        alternate_product: dict[str, Any] | Unset = UNSET
        if not isinstance(self.alternate_product, Unset):
            alternate_product = self.alternate_product.to_dict()

        promotional_offer: dict[str, Any] | Unset = UNSET
        if not isinstance(self.promotional_offer, Unset):
            promotional_offer = self.promotional_offer.to_dict()

        advanced_commerce_info: dict[str, Any] | Unset = UNSET
        if not isinstance(self.advanced_commerce_info, Unset):
            advanced_commerce_info = self.advanced_commerce_info.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if message is not UNSET:
            field_dict["message"] = message
        if alternate_product is not UNSET:
            field_dict["alternateProduct"] = alternate_product
        if promotional_offer is not UNSET:
            field_dict["promotionalOffer"] = promotional_offer
        if advanced_commerce_info is not UNSET:
            field_dict["advancedCommerceInfo"] = advanced_commerce_info

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.advanced_commerce_info import AdvancedCommerceInfo  # noqa: PLC0415
        from ..models.alternate_product import AlternateProduct  # noqa: PLC0415
        from ..models.promotional_offer import PromotionalOffer  # noqa: PLC0415
        from ..models.retention_message import RetentionMessage  # noqa: PLC0415

        d = dict(src_dict)
        _message = d.pop("message", UNSET)
        message: RetentionMessage | Unset
        if isinstance(_message, Unset):
            message = UNSET
        else:
            message = RetentionMessage.from_dict(_message)

        _alternate_product = d.pop("alternateProduct", UNSET)
        alternate_product: AlternateProduct | Unset
        if isinstance(_alternate_product, Unset):
            alternate_product = UNSET
        else:
            alternate_product = AlternateProduct.from_dict(_alternate_product)

        _promotional_offer = d.pop("promotionalOffer", UNSET)
        promotional_offer: PromotionalOffer | Unset
        if isinstance(_promotional_offer, Unset):
            promotional_offer = UNSET
        else:
            promotional_offer = PromotionalOffer.from_dict(_promotional_offer)

        _advanced_commerce_info = d.pop("advancedCommerceInfo", UNSET)
        advanced_commerce_info: AdvancedCommerceInfo | Unset
        if isinstance(_advanced_commerce_info, Unset):
            advanced_commerce_info = UNSET
        else:
            advanced_commerce_info = AdvancedCommerceInfo.from_dict(_advanced_commerce_info)

        realtime_response_body = cls(
            message=message,
            alternate_product=alternate_product,
            promotional_offer=promotional_offer,
            advanced_commerce_info=advanced_commerce_info,
        )

        return realtime_response_body
