from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.signature_batch_result import SignatureBatchResult


T = TypeVar("T", bound="SignatureBatchResponse")


@_attrs_define
class SignatureBatchResponse:
    """Every item's result, in request order; 200 whenever the envelope was valid.

    Attributes:
        results (list[SignatureBatchResult]): One result per item, in the order of `requests`.
        succeeded (int): How many items were signed.
        failed (int): How many items failed (with a `problem`).
    """

    results: list[SignatureBatchResult]
    succeeded: int
    failed: int

    def to_dict(self) -> dict[str, Any]:
        results = []
        for results_item_data in self.results:
            results_item = results_item_data.to_dict()
            results.append(results_item)

        succeeded = self.succeeded

        failed = self.failed

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "results": results,
                "succeeded": succeeded,
                "failed": failed,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.signature_batch_result import SignatureBatchResult  # noqa: PLC0415

        d = dict(src_dict)
        results = []
        _results = d.pop("results")
        for results_item_data in _results:
            results_item = SignatureBatchResult.from_dict(results_item_data)

            results.append(results_item)

        succeeded = d.pop("succeeded")

        failed = d.pop("failed")

        signature_batch_response = cls(
            results=results,
            succeeded=succeeded,
            failed=failed,
        )

        return signature_batch_response
