from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.campaign_status import CampaignStatus
from ...types import Response


def _get_kwargs(
    name: str,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/campaigns/{name}/status".format(
            name=quote(str(name), safe=""),
        ),
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> CampaignStatus | None:
    problem = errors.problem_in(response)
    if problem is not None:
        raise problem
    if response.status_code == 200:
        response_200 = CampaignStatus.from_dict(response.json())

        return response_200

    if client.raise_on_unexpected_status or response.status_code >= 400:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[CampaignStatus]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    name: str,
    *,
    client: AuthenticatedClient,
) -> Response[CampaignStatus]:
    """A campaign's codes: recorded, imported, assigned and left

     What the service's code ledger holds for a campaign, with the members `offerkit codes status
    --format json` prints: per offer and batch, the codes recorded, stored (custom codes, or one-time-
    use codes imported from Apple), handed out and left, and whether the batch expired before today
    (UTC); totals per offer and environment; the app's usage of this quarter's limits (codes per
    quarter, active offers); and the campaign's App Store Connect resources as `offerkit codes apply`
    recorded them. Needs the `codes` scope, as claiming does. Only a service configured with a ledger
    (`"ledger"`) has this operation. The campaign's app, as the ledger recorded it, must be one the
    service serves and the API key may use.

    Args:
        name (str):

    Raises:
        errors.ProblemError: If the service answers a problem (its status, type, detail and field).
        errors.UnexpectedStatus: If the server returns an error status without a problem, or an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CampaignStatus]
    """

    kwargs = _get_kwargs(
        name=name,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    name: str,
    *,
    client: AuthenticatedClient,
) -> CampaignStatus | None:
    """A campaign's codes: recorded, imported, assigned and left

     What the service's code ledger holds for a campaign, with the members `offerkit codes status
    --format json` prints: per offer and batch, the codes recorded, stored (custom codes, or one-time-
    use codes imported from Apple), handed out and left, and whether the batch expired before today
    (UTC); totals per offer and environment; the app's usage of this quarter's limits (codes per
    quarter, active offers); and the campaign's App Store Connect resources as `offerkit codes apply`
    recorded them. Needs the `codes` scope, as claiming does. Only a service configured with a ledger
    (`"ledger"`) has this operation. The campaign's app, as the ledger recorded it, must be one the
    service serves and the API key may use.

    Args:
        name (str):

    Raises:
        errors.ProblemError: If the service answers a problem (its status, type, detail and field).
        errors.UnexpectedStatus: If the server returns an error status without a problem, or an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CampaignStatus
    """

    return sync_detailed(
        name=name,
        client=client,
    ).parsed


async def asyncio_detailed(
    name: str,
    *,
    client: AuthenticatedClient,
) -> Response[CampaignStatus]:
    """A campaign's codes: recorded, imported, assigned and left

     What the service's code ledger holds for a campaign, with the members `offerkit codes status
    --format json` prints: per offer and batch, the codes recorded, stored (custom codes, or one-time-
    use codes imported from Apple), handed out and left, and whether the batch expired before today
    (UTC); totals per offer and environment; the app's usage of this quarter's limits (codes per
    quarter, active offers); and the campaign's App Store Connect resources as `offerkit codes apply`
    recorded them. Needs the `codes` scope, as claiming does. Only a service configured with a ledger
    (`"ledger"`) has this operation. The campaign's app, as the ledger recorded it, must be one the
    service serves and the API key may use.

    Args:
        name (str):

    Raises:
        errors.ProblemError: If the service answers a problem (its status, type, detail and field).
        errors.UnexpectedStatus: If the server returns an error status without a problem, or an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CampaignStatus]
    """

    kwargs = _get_kwargs(
        name=name,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    name: str,
    *,
    client: AuthenticatedClient,
) -> CampaignStatus | None:
    """A campaign's codes: recorded, imported, assigned and left

     What the service's code ledger holds for a campaign, with the members `offerkit codes status
    --format json` prints: per offer and batch, the codes recorded, stored (custom codes, or one-time-
    use codes imported from Apple), handed out and left, and whether the batch expired before today
    (UTC); totals per offer and environment; the app's usage of this quarter's limits (codes per
    quarter, active offers); and the campaign's App Store Connect resources as `offerkit codes apply`
    recorded them. Needs the `codes` scope, as claiming does. Only a service configured with a ledger
    (`"ledger"`) has this operation. The campaign's app, as the ledger recorded it, must be one the
    service serves and the API key may use.

    Args:
        name (str):

    Raises:
        errors.ProblemError: If the service answers a problem (its status, type, detail and field).
        errors.UnexpectedStatus: If the server returns an error status without a problem, or an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CampaignStatus
    """

    return (
        await asyncio_detailed(
            name=name,
            client=client,
        )
    ).parsed
