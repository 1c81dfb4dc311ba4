from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="SuppliedCustomCodes")


@_attrs_define
class SuppliedCustomCodes:
    """The codes of one custom-code batch that the campaign generates.

    Attributes:
        offer (str): The offer's `referenceName` in the campaign.
        batch (int): Which of the offer's `customCodes` batches, numbered from 1 as everywhere in OfferKit (`offerkit
            codes --batch 1`, "batch 2" in messages): 2 is the second entry of the offer's `customCodes` list (JSON path
            `customCodes[1]`). The batch must have `generate`.
        codes (list[str]): The batch's codes, as `offerkit codes generate` recorded them in the ledger: as many as its
            `generate.count`, each the prefix followed by `length` characters of the alphabet. At most 1000000: each code
            counts at least once towards Apple's limit of production codes per app per quarter.
    """

    offer: str
    batch: int
    codes: list[str]

    def to_dict(self) -> dict[str, Any]:
        offer = self.offer

        batch = self.batch

        codes = self.codes

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "offer": offer,
                "batch": batch,
                "codes": codes,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        offer = d.pop("offer")

        batch = d.pop("batch")

        codes = cast(list[str], d.pop("codes"))

        supplied_custom_codes = cls(
            offer=offer,
            batch=batch,
            codes=codes,
        )

        return supplied_custom_codes
