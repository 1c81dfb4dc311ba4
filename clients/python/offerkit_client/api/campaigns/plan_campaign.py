from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.campaign_plan import CampaignPlan
from ...models.plan_campaign_request import PlanCampaignRequest
from ...types import Response


def _get_kwargs(
    *,
    body: PlanCampaignRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/campaigns/plan",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> CampaignPlan | None:
    problem = errors.problem_in(response)
    if problem is not None:
        raise problem
    if response.status_code == 200:
        response_200 = CampaignPlan.from_dict(response.json())

        return response_200

    if client.raise_on_unexpected_status or response.status_code >= 400:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[CampaignPlan]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: PlanCampaignRequest,
) -> Response[CampaignPlan]:
    """Plan the App Store Connect requests that create a campaign

     Validates the campaign, then answers the App Store Connect API 4.4.1 create requests (method, path,
    JSON:API body) that make its offers and codes, in dependency order: the same document as `offerkit
    codes plan`. Nothing is sent to App Store Connect. A body that needs an id App Store Connect returns
    holds the placeholder `<id of R>`: replace it with `data.id` of the 201 response to request R
    (listed in `dependsOn`).

    The service keeps no ledger, so the codes of each custom-code batch with `generate` must come with
    the request, in `customCodes`: generate and record them with `offerkit codes generate` (with the
    ledger), then send them. They must fit the batch's `generate` (count, prefix, length, alphabet) and
    be unique in the campaign, ignoring case. An invalid campaign is a 422 `invalid-campaign` problem
    whose `problems` lists the problems (the first 1000; `problemCount` has the total), with JSON paths
    relative to `campaign`. The campaign's app (`app.bundleId`) must be one the service serves and the
    API key may use.

    Args:
        body (PlanCampaignRequest): A campaign to plan, the day to plan it on, and the codes of
            its generated batches.

    Raises:
        errors.ProblemError: If the service answers a problem (its status, type, detail and field).
        errors.UnexpectedStatus: If the server returns an error status without a problem, or an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CampaignPlan]
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
    body: PlanCampaignRequest,
) -> CampaignPlan | None:
    """Plan the App Store Connect requests that create a campaign

     Validates the campaign, then answers the App Store Connect API 4.4.1 create requests (method, path,
    JSON:API body) that make its offers and codes, in dependency order: the same document as `offerkit
    codes plan`. Nothing is sent to App Store Connect. A body that needs an id App Store Connect returns
    holds the placeholder `<id of R>`: replace it with `data.id` of the 201 response to request R
    (listed in `dependsOn`).

    The service keeps no ledger, so the codes of each custom-code batch with `generate` must come with
    the request, in `customCodes`: generate and record them with `offerkit codes generate` (with the
    ledger), then send them. They must fit the batch's `generate` (count, prefix, length, alphabet) and
    be unique in the campaign, ignoring case. An invalid campaign is a 422 `invalid-campaign` problem
    whose `problems` lists the problems (the first 1000; `problemCount` has the total), with JSON paths
    relative to `campaign`. The campaign's app (`app.bundleId`) must be one the service serves and the
    API key may use.

    Args:
        body (PlanCampaignRequest): A campaign to plan, the day to plan it on, and the codes of
            its generated batches.

    Raises:
        errors.ProblemError: If the service answers a problem (its status, type, detail and field).
        errors.UnexpectedStatus: If the server returns an error status without a problem, or an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CampaignPlan
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: PlanCampaignRequest,
) -> Response[CampaignPlan]:
    """Plan the App Store Connect requests that create a campaign

     Validates the campaign, then answers the App Store Connect API 4.4.1 create requests (method, path,
    JSON:API body) that make its offers and codes, in dependency order: the same document as `offerkit
    codes plan`. Nothing is sent to App Store Connect. A body that needs an id App Store Connect returns
    holds the placeholder `<id of R>`: replace it with `data.id` of the 201 response to request R
    (listed in `dependsOn`).

    The service keeps no ledger, so the codes of each custom-code batch with `generate` must come with
    the request, in `customCodes`: generate and record them with `offerkit codes generate` (with the
    ledger), then send them. They must fit the batch's `generate` (count, prefix, length, alphabet) and
    be unique in the campaign, ignoring case. An invalid campaign is a 422 `invalid-campaign` problem
    whose `problems` lists the problems (the first 1000; `problemCount` has the total), with JSON paths
    relative to `campaign`. The campaign's app (`app.bundleId`) must be one the service serves and the
    API key may use.

    Args:
        body (PlanCampaignRequest): A campaign to plan, the day to plan it on, and the codes of
            its generated batches.

    Raises:
        errors.ProblemError: If the service answers a problem (its status, type, detail and field).
        errors.UnexpectedStatus: If the server returns an error status without a problem, or an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CampaignPlan]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: PlanCampaignRequest,
) -> CampaignPlan | None:
    """Plan the App Store Connect requests that create a campaign

     Validates the campaign, then answers the App Store Connect API 4.4.1 create requests (method, path,
    JSON:API body) that make its offers and codes, in dependency order: the same document as `offerkit
    codes plan`. Nothing is sent to App Store Connect. A body that needs an id App Store Connect returns
    holds the placeholder `<id of R>`: replace it with `data.id` of the 201 response to request R
    (listed in `dependsOn`).

    The service keeps no ledger, so the codes of each custom-code batch with `generate` must come with
    the request, in `customCodes`: generate and record them with `offerkit codes generate` (with the
    ledger), then send them. They must fit the batch's `generate` (count, prefix, length, alphabet) and
    be unique in the campaign, ignoring case. An invalid campaign is a 422 `invalid-campaign` problem
    whose `problems` lists the problems (the first 1000; `problemCount` has the total), with JSON paths
    relative to `campaign`. The campaign's app (`app.bundleId`) must be one the service serves and the
    API key may use.

    Args:
        body (PlanCampaignRequest): A campaign to plan, the day to plan it on, and the codes of
            its generated batches.

    Raises:
        errors.ProblemError: If the service answers a problem (its status, type, detail and field).
        errors.UnexpectedStatus: If the server returns an error status without a problem, or an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CampaignPlan
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
