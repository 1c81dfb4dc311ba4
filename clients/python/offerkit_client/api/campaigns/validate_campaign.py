from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.campaign_validation import CampaignValidation
from ...models.validate_campaign_request import ValidateCampaignRequest
from ...types import Response


def _get_kwargs(
    *,
    body: ValidateCampaignRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/campaigns/validate",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> CampaignValidation | None:
    problem = errors.problem_in(response)
    if problem is not None:
        raise problem
    if response.status_code == 200:
        response_200 = CampaignValidation.from_dict(response.json())

        return response_200

    if client.raise_on_unexpected_status or response.status_code >= 400:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[CampaignValidation]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: ValidateCampaignRequest,
) -> Response[CampaignValidation]:
    """Validate an offer-code campaign

     Checks a campaign against the campaign format, App Store Connect's rules and Apple's limits, as
    `offerkit codes validate` does, and lists every problem at once, each with its JSON path (relative
    to the request's `campaign` member, such as `$.offers[1].paymentMode`), a stable rule id, a message
    and what is allowed. An invalid campaign is a 200 answer with `valid: false`; `problems` lists the
    first 1000 problems and `problemCount` their total. The service is stateless: it keeps no ledger, so
    checks against other campaigns of the app (active offers, codes already issued, codes counted
    earlier in the quarter) are left to `offerkit codes validate` with the ledger. The campaign's app
    (`app.bundleId`) must be one the service serves and the API key may use.

    Args:
        body (ValidateCampaignRequest): A campaign to validate, and the day to validate it on.

    Raises:
        errors.ProblemError: If the service answers a problem (its status, type, detail and field).
        errors.UnexpectedStatus: If the server returns an error status without a problem, or an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CampaignValidation]
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
    body: ValidateCampaignRequest,
) -> CampaignValidation | None:
    """Validate an offer-code campaign

     Checks a campaign against the campaign format, App Store Connect's rules and Apple's limits, as
    `offerkit codes validate` does, and lists every problem at once, each with its JSON path (relative
    to the request's `campaign` member, such as `$.offers[1].paymentMode`), a stable rule id, a message
    and what is allowed. An invalid campaign is a 200 answer with `valid: false`; `problems` lists the
    first 1000 problems and `problemCount` their total. The service is stateless: it keeps no ledger, so
    checks against other campaigns of the app (active offers, codes already issued, codes counted
    earlier in the quarter) are left to `offerkit codes validate` with the ledger. The campaign's app
    (`app.bundleId`) must be one the service serves and the API key may use.

    Args:
        body (ValidateCampaignRequest): A campaign to validate, and the day to validate it on.

    Raises:
        errors.ProblemError: If the service answers a problem (its status, type, detail and field).
        errors.UnexpectedStatus: If the server returns an error status without a problem, or an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CampaignValidation
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: ValidateCampaignRequest,
) -> Response[CampaignValidation]:
    """Validate an offer-code campaign

     Checks a campaign against the campaign format, App Store Connect's rules and Apple's limits, as
    `offerkit codes validate` does, and lists every problem at once, each with its JSON path (relative
    to the request's `campaign` member, such as `$.offers[1].paymentMode`), a stable rule id, a message
    and what is allowed. An invalid campaign is a 200 answer with `valid: false`; `problems` lists the
    first 1000 problems and `problemCount` their total. The service is stateless: it keeps no ledger, so
    checks against other campaigns of the app (active offers, codes already issued, codes counted
    earlier in the quarter) are left to `offerkit codes validate` with the ledger. The campaign's app
    (`app.bundleId`) must be one the service serves and the API key may use.

    Args:
        body (ValidateCampaignRequest): A campaign to validate, and the day to validate it on.

    Raises:
        errors.ProblemError: If the service answers a problem (its status, type, detail and field).
        errors.UnexpectedStatus: If the server returns an error status without a problem, or an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CampaignValidation]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: ValidateCampaignRequest,
) -> CampaignValidation | None:
    """Validate an offer-code campaign

     Checks a campaign against the campaign format, App Store Connect's rules and Apple's limits, as
    `offerkit codes validate` does, and lists every problem at once, each with its JSON path (relative
    to the request's `campaign` member, such as `$.offers[1].paymentMode`), a stable rule id, a message
    and what is allowed. An invalid campaign is a 200 answer with `valid: false`; `problems` lists the
    first 1000 problems and `problemCount` their total. The service is stateless: it keeps no ledger, so
    checks against other campaigns of the app (active offers, codes already issued, codes counted
    earlier in the quarter) are left to `offerkit codes validate` with the ledger. The campaign's app
    (`app.bundleId`) must be one the service serves and the API key may use.

    Args:
        body (ValidateCampaignRequest): A campaign to validate, and the day to validate it on.

    Raises:
        errors.ProblemError: If the service answers a problem (its status, type, detail and field).
        errors.UnexpectedStatus: If the server returns an error status without a problem, or an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CampaignValidation
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
