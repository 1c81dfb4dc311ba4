from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="CampaignOffer")


@_attrs_define
class CampaignOffer:
    """One offer, in the format of `offerkit codes validate`. Only the sizes of its lists are checked before the campaign
    rules, which check everything else (and report every problem at once). The bounds of `oneTimeUseCodes`,
    `customCodes` and a batch's `codes` are checked by the service before the rules (an `invalid-field` problem naming
    the list), as these members may also be `null`.

        Attributes:
            display_name (Any | Unset): The offer's customer-facing title per language (or `null`, as if absent): an object
                of at most 50 members, each a language tag (2-35 letters, digits and `-`; compared case-insensitively, `_` as
                `-`, each language once) mapped to a non-blank title of at most 100 characters without control characters, such
                as `{"en": "Three months free", "ja": "3か月無料"}`. Exported messages show it (the message's language, else `en`),
                never `referenceName`. Checked by the campaign rules.
            customer_eligibilities (list[Any] | Unset): Who may redeem the codes: each of the product type's eligibilities
                at most once.
            prices (list[Any] | Unset): One price entry per territory: at most 175, the number of App Store storefronts.
            one_time_use_codes (Any | Unset): The one-time-use batches: an array of at most 100 (or `null`, as if absent).
            custom_codes (Any | Unset): The custom-code batches: an array of at most 100 (or `null`, as if absent); a
                batch's `codes` list at most 1000000 codes, since each counts towards Apple's limit of 1000000 production codes
                per app per quarter.
    """

    display_name: Any | Unset = UNSET
    customer_eligibilities: list[Any] | Unset = UNSET
    prices: list[Any] | Unset = UNSET
    one_time_use_codes: Any | Unset = UNSET
    custom_codes: Any | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        display_name = self.display_name

        customer_eligibilities: list[Any] | Unset = UNSET
        if not isinstance(self.customer_eligibilities, Unset):
            customer_eligibilities = self.customer_eligibilities

        prices: list[Any] | Unset = UNSET
        if not isinstance(self.prices, Unset):
            prices = self.prices

        one_time_use_codes = self.one_time_use_codes

        custom_codes = self.custom_codes

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if display_name is not UNSET:
            field_dict["displayName"] = display_name
        if customer_eligibilities is not UNSET:
            field_dict["customerEligibilities"] = customer_eligibilities
        if prices is not UNSET:
            field_dict["prices"] = prices
        if one_time_use_codes is not UNSET:
            field_dict["oneTimeUseCodes"] = one_time_use_codes
        if custom_codes is not UNSET:
            field_dict["customCodes"] = custom_codes

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        display_name = d.pop("displayName", UNSET)

        customer_eligibilities = cast(list[Any], d.pop("customerEligibilities", UNSET))

        prices = cast(list[Any], d.pop("prices", UNSET))

        one_time_use_codes = d.pop("oneTimeUseCodes", UNSET)

        custom_codes = d.pop("customCodes", UNSET)

        campaign_offer = cls(
            display_name=display_name,
            customer_eligibilities=customer_eligibilities,
            prices=prices,
            one_time_use_codes=one_time_use_codes,
            custom_codes=custom_codes,
        )

        campaign_offer.additional_properties = d
        return campaign_offer

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
