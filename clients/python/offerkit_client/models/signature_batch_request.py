from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.batch_advanced_commerce_request import BatchAdvancedCommerceRequest
    from ..models.batch_connect_api_token_request import BatchConnectAPITokenRequest
    from ..models.batch_introductory_offer_eligibility_request import BatchIntroductoryOfferEligibilityRequest
    from ..models.batch_legacy_promotional_offer_request import BatchLegacyPromotionalOfferRequest
    from ..models.batch_promotional_offer_request import BatchPromotionalOfferRequest
    from ..models.batch_server_api_token_request import BatchServerAPITokenRequest


T = TypeVar("T", bound="SignatureBatchRequest")


@_attrs_define
class SignatureBatchRequest:
    """Signing requests of any types, for one API key.

    Attributes:
        requests (list[BatchAdvancedCommerceRequest | BatchConnectAPITokenRequest |
            BatchIntroductoryOfferEligibilityRequest | BatchLegacyPromotionalOfferRequest | BatchPromotionalOfferRequest |
            BatchServerAPITokenRequest]): 1 to 1000 items, answered in this order. A batch takes one rate-limit token per
            item, so it can hold at most the API key's burst.
    """

    requests: list[
        BatchAdvancedCommerceRequest
        | BatchConnectAPITokenRequest
        | BatchIntroductoryOfferEligibilityRequest
        | BatchLegacyPromotionalOfferRequest
        | BatchPromotionalOfferRequest
        | BatchServerAPITokenRequest
    ]

    def to_dict(self) -> dict[str, Any]:
        from ..models.batch_advanced_commerce_request import BatchAdvancedCommerceRequest  # noqa: PLC0415
        from ..models.batch_introductory_offer_eligibility_request import BatchIntroductoryOfferEligibilityRequest  # noqa: PLC0415
        from ..models.batch_legacy_promotional_offer_request import BatchLegacyPromotionalOfferRequest  # noqa: PLC0415
        from ..models.batch_promotional_offer_request import BatchPromotionalOfferRequest  # noqa: PLC0415
        from ..models.batch_server_api_token_request import BatchServerAPITokenRequest  # noqa: PLC0415

        requests = []
        for requests_item_data in self.requests:
            requests_item: dict[str, Any]
            if isinstance(requests_item_data, BatchPromotionalOfferRequest):
                requests_item = requests_item_data.to_dict()
            elif isinstance(requests_item_data, BatchLegacyPromotionalOfferRequest):
                requests_item = requests_item_data.to_dict()
            elif isinstance(requests_item_data, BatchIntroductoryOfferEligibilityRequest):
                requests_item = requests_item_data.to_dict()
            elif isinstance(requests_item_data, BatchAdvancedCommerceRequest):
                requests_item = requests_item_data.to_dict()
            elif isinstance(requests_item_data, BatchServerAPITokenRequest):
                requests_item = requests_item_data.to_dict()
            else:
                requests_item = requests_item_data.to_dict()

            requests.append(requests_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "requests": requests,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.batch_advanced_commerce_request import BatchAdvancedCommerceRequest  # noqa: PLC0415
        from ..models.batch_connect_api_token_request import BatchConnectAPITokenRequest  # noqa: PLC0415
        from ..models.batch_introductory_offer_eligibility_request import BatchIntroductoryOfferEligibilityRequest  # noqa: PLC0415
        from ..models.batch_legacy_promotional_offer_request import BatchLegacyPromotionalOfferRequest  # noqa: PLC0415
        from ..models.batch_promotional_offer_request import BatchPromotionalOfferRequest  # noqa: PLC0415
        from ..models.batch_server_api_token_request import BatchServerAPITokenRequest  # noqa: PLC0415

        d = dict(src_dict)
        requests = []
        _requests = d.pop("requests")
        for requests_item_data in _requests:

            def _parse_requests_item(
                data: object,
            ) -> (
                BatchAdvancedCommerceRequest
                | BatchConnectAPITokenRequest
                | BatchIntroductoryOfferEligibilityRequest
                | BatchLegacyPromotionalOfferRequest
                | BatchPromotionalOfferRequest
                | BatchServerAPITokenRequest
            ):
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    requests_item_type_0 = BatchPromotionalOfferRequest.from_dict(data)

                    return requests_item_type_0
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    requests_item_type_1 = BatchLegacyPromotionalOfferRequest.from_dict(data)

                    return requests_item_type_1
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    requests_item_type_2 = BatchIntroductoryOfferEligibilityRequest.from_dict(data)

                    return requests_item_type_2
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    requests_item_type_3 = BatchAdvancedCommerceRequest.from_dict(data)

                    return requests_item_type_3
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    requests_item_type_4 = BatchServerAPITokenRequest.from_dict(data)

                    return requests_item_type_4
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                if not isinstance(data, dict):
                    raise TypeError()
                requests_item_type_5 = BatchConnectAPITokenRequest.from_dict(data)

                return requests_item_type_5

            requests_item = _parse_requests_item(requests_item_data)

            requests.append(requests_item)

        signature_batch_request = cls(
            requests=requests,
        )

        return signature_batch_request
