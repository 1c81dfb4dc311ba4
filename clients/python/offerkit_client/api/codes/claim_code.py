from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.claim_code_request import ClaimCodeRequest
from ...models.code_claim import CodeClaim
from ...types import Response


def _get_kwargs(
    *,
    body: ClaimCodeRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/codes/claim",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> CodeClaim | None:
    problem = errors.problem_in(response)
    if problem is not None:
        raise problem
    if response.status_code == 200:
        response_200 = CodeClaim.from_dict(response.json())

        return response_200

    if client.raise_on_unexpected_status or response.status_code >= 400:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[CodeClaim]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: ClaimCodeRequest,
) -> Response[CodeClaim]:
    """Claim an offer code for a recipient

     Hands out one code of a campaign's offer to a recipient and records it in the service's code ledger,
    as `offerkit codes claim` does: the offer's next unassigned personal code (batch by batch, in the
    order recorded, skipping batches that expired before today in UTC), or, for an offer whose codes are
    all shared (redemption limit above 1), the campaign's shared code while it has redemptions left.
    Each personal code goes to one recipient only, also when several services share one ledger. The same
    recipient claiming again gets the same code (`new: false`), so a client may retry after a timeout.
    Only a service configured with a ledger (`"ledger"`) has this operation. The campaign's app, as the
    ledger recorded it, must be one the service serves and the API key may use.

    Args:
        body (ClaimCodeRequest): The offer to hand out a code of, and to whom.

    Raises:
        errors.ProblemError: If the service answers a problem (its status, type, detail and field).
        errors.UnexpectedStatus: If the server returns an error status without a problem, or an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CodeClaim]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    body: ClaimCodeRequest,
) -> CodeClaim | None:
    """Claim an offer code for a recipient

     Hands out one code of a campaign's offer to a recipient and records it in the service's code ledger,
    as `offerkit codes claim` does: the offer's next unassigned personal code (batch by batch, in the
    order recorded, skipping batches that expired before today in UTC), or, for an offer whose codes are
    all shared (redemption limit above 1), the campaign's shared code while it has redemptions left.
    Each personal code goes to one recipient only, also when several services share one ledger. The same
    recipient claiming again gets the same code (`new: false`), so a client may retry after a timeout.
    Only a service configured with a ledger (`"ledger"`) has this operation. The campaign's app, as the
    ledger recorded it, must be one the service serves and the API key may use.

    Args:
        body (ClaimCodeRequest): The offer to hand out a code of, and to whom.

    Raises:
        errors.ProblemError: If the service answers a problem (its status, type, detail and field).
        errors.UnexpectedStatus: If the server returns an error status without a problem, or an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CodeClaim
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: ClaimCodeRequest,
) -> Response[CodeClaim]:
    """Claim an offer code for a recipient

     Hands out one code of a campaign's offer to a recipient and records it in the service's code ledger,
    as `offerkit codes claim` does: the offer's next unassigned personal code (batch by batch, in the
    order recorded, skipping batches that expired before today in UTC), or, for an offer whose codes are
    all shared (redemption limit above 1), the campaign's shared code while it has redemptions left.
    Each personal code goes to one recipient only, also when several services share one ledger. The same
    recipient claiming again gets the same code (`new: false`), so a client may retry after a timeout.
    Only a service configured with a ledger (`"ledger"`) has this operation. The campaign's app, as the
    ledger recorded it, must be one the service serves and the API key may use.

    Args:
        body (ClaimCodeRequest): The offer to hand out a code of, and to whom.

    Raises:
        errors.ProblemError: If the service answers a problem (its status, type, detail and field).
        errors.UnexpectedStatus: If the server returns an error status without a problem, or an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CodeClaim]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: ClaimCodeRequest,
) -> CodeClaim | None:
    """Claim an offer code for a recipient

     Hands out one code of a campaign's offer to a recipient and records it in the service's code ledger,
    as `offerkit codes claim` does: the offer's next unassigned personal code (batch by batch, in the
    order recorded, skipping batches that expired before today in UTC), or, for an offer whose codes are
    all shared (redemption limit above 1), the campaign's shared code while it has redemptions left.
    Each personal code goes to one recipient only, also when several services share one ledger. The same
    recipient claiming again gets the same code (`new: false`), so a client may retry after a timeout.
    Only a service configured with a ledger (`"ledger"`) has this operation. The campaign's app, as the
    ledger recorded it, must be one the service serves and the API key may use.

    Args:
        body (ClaimCodeRequest): The offer to hand out a code of, and to whom.

    Raises:
        errors.ProblemError: If the service answers a problem (its status, type, detail and field).
        errors.UnexpectedStatus: If the server returns an error status without a problem, or an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CodeClaim
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
