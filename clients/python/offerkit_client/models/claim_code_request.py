from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.claim_code_request_environment import ClaimCodeRequestEnvironment
from ..types import UNSET, Unset

T = TypeVar("T", bound="ClaimCodeRequest")


@_attrs_define
class ClaimCodeRequest:
    """The offer to hand out a code of, and to whom.

    Attributes:
        campaign (str): The campaign's `name`, as `offerkit codes generate` or `import` recorded it in the ledger: 1-64
            letters, digits, `-`, `_` and `.`, the campaign file's rule (checked before the ledger is read).
        offer (str): The offer's `referenceName` in the campaign.
        recipient (str): Who receives the code: an opaque id you choose (a user id, an email hash, a name), compared
            byte for byte; 1-256 UTF-8 bytes without control characters. Claiming again with the same id gives the same
            code.
        environment (ClaimCodeRequestEnvironment | Unset): Which codes: `PRODUCTION` (the default) or `SANDBOX` (they
            work only in the sandbox), App Store Connect's names, read in any case (`sandbox` is `SANDBOX`).
    """

    campaign: str
    offer: str
    recipient: str
    environment: ClaimCodeRequestEnvironment | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        campaign = self.campaign

        offer = self.offer

        recipient = self.recipient

        environment: str | Unset = UNSET
        if not isinstance(self.environment, Unset):
            environment = self.environment.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "campaign": campaign,
                "offer": offer,
                "recipient": recipient,
            }
        )
        if environment is not UNSET:
            field_dict["environment"] = environment

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        campaign = d.pop("campaign")

        offer = d.pop("offer")

        recipient = d.pop("recipient")

        _environment = d.pop("environment", UNSET)
        environment: ClaimCodeRequestEnvironment | Unset
        if isinstance(_environment, Unset):
            environment = UNSET
        else:
            environment = ClaimCodeRequestEnvironment(_environment)

        claim_code_request = cls(
            campaign=campaign,
            offer=offer,
            recipient=recipient,
            environment=environment,
        )

        return claim_code_request
