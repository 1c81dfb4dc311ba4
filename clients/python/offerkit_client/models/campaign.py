from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.campaign_offer import CampaignOffer


T = TypeVar("T", bound="Campaign")


@_attrs_define
class Campaign:
    """An offer-code campaign in the format of `offerkit codes validate` (see the README, "Offer codes", and
    `examples/campaign.json`): `name`, `app` {`bundleId`, `appAppleId`} and `offers`, each with its `referenceName`,
    optional `displayName`, `product`, `paymentMode`, prices and code batches. This schema bounds only the sizes of its
    lists; its members are checked by the campaign rules, so that every problem is reported at once with its JSON path.

        Attributes:
            name (Any | Unset): The campaign's name.
            app (Any | Unset): The app: `bundleId` and `appAppleId`.
            offers (list[CampaignOffer] | Unset): The offers: at most 100, ten times Apple's limit of 10 active offers per
                app (the campaign rules report that limit as a problem).
    """

    name: Any | Unset = UNSET
    app: Any | Unset = UNSET
    offers: list[CampaignOffer] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        app = self.app

        offers: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.offers, Unset):
            offers = []
            for offers_item_data in self.offers:
                offers_item = offers_item_data.to_dict()
                offers.append(offers_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if name is not UNSET:
            field_dict["name"] = name
        if app is not UNSET:
            field_dict["app"] = app
        if offers is not UNSET:
            field_dict["offers"] = offers

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.campaign_offer import CampaignOffer  # noqa: PLC0415

        d = dict(src_dict)
        name = d.pop("name", UNSET)

        app = d.pop("app", UNSET)

        _offers = d.pop("offers", UNSET)
        offers: list[CampaignOffer] | Unset = UNSET
        if _offers is not UNSET:
            offers = []
            for offers_item_data in _offers:
                offers_item = CampaignOffer.from_dict(offers_item_data)

                offers.append(offers_item)

        campaign = cls(
            name=name,
            app=app,
            offers=offers,
        )

        campaign.additional_properties = d
        return campaign

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
