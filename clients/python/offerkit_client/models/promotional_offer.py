from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.promotional_offer_signature_v1 import PromotionalOfferSignatureV1


T = TypeVar("T", bound="PromotionalOffer")


@_attrs_define
class PromotionalOffer:
    """A message with a promotional offer: one of the two signatures.

    Attributes:
        message_identifier (UUID): The identifier of a message uploaded to Apple; it must be APPROVED.
        promotional_offer_signature_v2 (str | Unset): The promotional-offer compact JWS, `transactionId` = the request's
            `originalTransactionId`.
        promotional_offer_signature_v1 (PromotionalOfferSignatureV1 | Unset): The legacy promotional offer signature
            (version 1).
    """

    message_identifier: UUID
    promotional_offer_signature_v2: str | Unset = UNSET
    promotional_offer_signature_v1: PromotionalOfferSignatureV1 | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        message_identifier = str(self.message_identifier)

        promotional_offer_signature_v2 = self.promotional_offer_signature_v2

        promotional_offer_signature_v1: dict[str, Any] | Unset = UNSET
        if not isinstance(self.promotional_offer_signature_v1, Unset):
            promotional_offer_signature_v1 = self.promotional_offer_signature_v1.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "messageIdentifier": message_identifier,
            }
        )
        if promotional_offer_signature_v2 is not UNSET:
            field_dict["promotionalOfferSignatureV2"] = promotional_offer_signature_v2
        if promotional_offer_signature_v1 is not UNSET:
            field_dict["promotionalOfferSignatureV1"] = promotional_offer_signature_v1

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.promotional_offer_signature_v1 import PromotionalOfferSignatureV1  # noqa: PLC0415

        d = dict(src_dict)
        message_identifier = UUID(d.pop("messageIdentifier"))

        promotional_offer_signature_v2 = d.pop("promotionalOfferSignatureV2", UNSET)

        _promotional_offer_signature_v1 = d.pop("promotionalOfferSignatureV1", UNSET)
        promotional_offer_signature_v1: PromotionalOfferSignatureV1 | Unset
        if isinstance(_promotional_offer_signature_v1, Unset):
            promotional_offer_signature_v1 = UNSET
        else:
            promotional_offer_signature_v1 = PromotionalOfferSignatureV1.from_dict(_promotional_offer_signature_v1)

        promotional_offer = cls(
            message_identifier=message_identifier,
            promotional_offer_signature_v2=promotional_offer_signature_v2,
            promotional_offer_signature_v1=promotional_offer_signature_v1,
        )

        return promotional_offer
