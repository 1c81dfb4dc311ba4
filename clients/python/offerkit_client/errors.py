"""Contains shared errors types that can be raised from API functions"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import httpx

if TYPE_CHECKING:
    from .models.problem import Problem


class UnexpectedStatus(Exception):
    """Raised by api functions when the response status an undocumented status and Client.raise_on_unexpected_status is True"""

    def __init__(self, status_code: int, content: bytes):
        self.status_code = status_code
        self.content = content

        super().__init__(
            f"Unexpected status code: {status_code}\n\nResponse content:\n{content.decode(errors='ignore')}"
        )


class ProblemError(Exception):
    """The service answered an RFC 9457 problem (`application/problem+json`).

    Every API function raises it for a problem answer, documented for the operation or not, instead of
    returning the problem. Its attributes are the problem's members:

    Attributes:
        status (int): The HTTP status, such as 422.
        type (str): The problem's stable type, such as `urn:offerkit:problem:invalid-field`.
        title (str): A short, fixed summary of the type.
        detail (str): What happened in this request, for a person.
        field (str | None): The path of the field at fault, such as `productId`, or None.
        request_id (str | None): The request's id, as in the service's log.
        retry_after (int | None): With 429 and 503: the seconds of the `Retry-After` header, or None.
        problem (Problem | None): The problem as the typed model, with the members only some types have
            (`problems`, `problem_count`, `assigned`, `stored`); None when it does not parse as the model
            (a problem type newer than this client).
        document (dict): The problem's JSON object as the service sent it.
        headers (httpx.Headers): The response's headers.
    """

    def __init__(self, document: dict[str, Any], headers: httpx.Headers, problem: Problem | None):
        self.document = document
        self.headers = headers
        self.problem = problem
        self.status: int = document["status"]
        self.type: str = document["type"]
        self.title: str = _text(document.get("title")) or ""
        self.detail: str = _text(document.get("detail")) or ""
        self.field: str | None = _text(document.get("field"))
        self.request_id: str | None = _text(document.get("requestId"))
        retry_after = headers.get("retry-after", "")
        self.retry_after: int | None = int(retry_after) if retry_after.isdigit() else None
        where = f" (field {self.field})" if self.field is not None else ""
        super().__init__(f"{self.status} {self.type}: {self.detail}{where}")


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def problem_in(response: httpx.Response) -> ProblemError | None:
    """The ProblemError that `response` carries: an error status with an `application/problem+json` body
    holding a JSON object with an integer `status` and a string `type`; None for anything else."""
    if response.status_code < 400:
        return None
    media_type = response.headers.get("content-type", "").split(";")[0].strip().lower()
    if media_type != "application/problem+json":
        return None
    try:
        document = response.json()
    except ValueError:
        return None
    if (
        not isinstance(document, dict)
        or type(document.get("status")) is not int
        or not isinstance(document.get("type"), str)
    ):
        return None
    from .models.problem import Problem

    try:
        problem: Problem | None = Problem.from_dict(document)
    except (ValueError, KeyError, TypeError):
        problem = None
    return ProblemError(document, response.headers, problem)


__all__ = ["ProblemError", "UnexpectedStatus", "problem_in"]
