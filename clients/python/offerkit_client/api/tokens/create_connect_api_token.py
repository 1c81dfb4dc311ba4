from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.bearer_token import BearerToken
from ...models.connect_api_token_request import ConnectAPITokenRequest
from ...types import Response


def _get_kwargs(
    *,
    body: ConnectAPITokenRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/tokens/connect-api",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> BearerToken | None:
    problem = errors.problem_in(response)
    if problem is not None:
        raise problem
    if response.status_code == 200:
        response_200 = BearerToken.from_dict(response.json())

        return response_200

    if client.raise_on_unexpected_status or response.status_code >= 400:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[BearerToken]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: ConnectAPITokenRequest,
) -> Response[BearerToken]:
    """Create an App Store Connect API token

     Signs a bearer token for the App Store Connect API (`https://api.appstoreconnect.apple.com`) with
    the service's App Store Connect API key (`connectApiKey` in the configuration; team-wide, so the
    request names no bundle ID): claims `iss` (the issuer ID of a team key; an individual key has `sub`
    = `user` instead), `iat`, `exp`, `aud` = `appstoreconnect-v1`, and `scope` when given. Apple accepts
    at most 20 minutes between `iat` and `exp`; the default lifetime is 15 minutes, leaving room for
    clock skew. A service configured without an App Store Connect API key answers 404 `not-configured`.
    The token acts for the whole team, so an API key limited to some bundle IDs gets 403 `forbidden`.

    Args:
        body (ConnectAPITokenRequest): How long the App Store Connect API token lives and what it
            may do; `{}` takes the defaults.

    Raises:
        errors.ProblemError: If the service answers a problem (its status, type, detail and field).
        errors.UnexpectedStatus: If the server returns an error status without a problem, or an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[BearerToken]
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
    body: ConnectAPITokenRequest,
) -> BearerToken | None:
    """Create an App Store Connect API token

     Signs a bearer token for the App Store Connect API (`https://api.appstoreconnect.apple.com`) with
    the service's App Store Connect API key (`connectApiKey` in the configuration; team-wide, so the
    request names no bundle ID): claims `iss` (the issuer ID of a team key; an individual key has `sub`
    = `user` instead), `iat`, `exp`, `aud` = `appstoreconnect-v1`, and `scope` when given. Apple accepts
    at most 20 minutes between `iat` and `exp`; the default lifetime is 15 minutes, leaving room for
    clock skew. A service configured without an App Store Connect API key answers 404 `not-configured`.
    The token acts for the whole team, so an API key limited to some bundle IDs gets 403 `forbidden`.

    Args:
        body (ConnectAPITokenRequest): How long the App Store Connect API token lives and what it
            may do; `{}` takes the defaults.

    Raises:
        errors.ProblemError: If the service answers a problem (its status, type, detail and field).
        errors.UnexpectedStatus: If the server returns an error status without a problem, or an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        BearerToken
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: ConnectAPITokenRequest,
) -> Response[BearerToken]:
    """Create an App Store Connect API token

     Signs a bearer token for the App Store Connect API (`https://api.appstoreconnect.apple.com`) with
    the service's App Store Connect API key (`connectApiKey` in the configuration; team-wide, so the
    request names no bundle ID): claims `iss` (the issuer ID of a team key; an individual key has `sub`
    = `user` instead), `iat`, `exp`, `aud` = `appstoreconnect-v1`, and `scope` when given. Apple accepts
    at most 20 minutes between `iat` and `exp`; the default lifetime is 15 minutes, leaving room for
    clock skew. A service configured without an App Store Connect API key answers 404 `not-configured`.
    The token acts for the whole team, so an API key limited to some bundle IDs gets 403 `forbidden`.

    Args:
        body (ConnectAPITokenRequest): How long the App Store Connect API token lives and what it
            may do; `{}` takes the defaults.

    Raises:
        errors.ProblemError: If the service answers a problem (its status, type, detail and field).
        errors.UnexpectedStatus: If the server returns an error status without a problem, or an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[BearerToken]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: ConnectAPITokenRequest,
) -> BearerToken | None:
    """Create an App Store Connect API token

     Signs a bearer token for the App Store Connect API (`https://api.appstoreconnect.apple.com`) with
    the service's App Store Connect API key (`connectApiKey` in the configuration; team-wide, so the
    request names no bundle ID): claims `iss` (the issuer ID of a team key; an individual key has `sub`
    = `user` instead), `iat`, `exp`, `aud` = `appstoreconnect-v1`, and `scope` when given. Apple accepts
    at most 20 minutes between `iat` and `exp`; the default lifetime is 15 minutes, leaving room for
    clock skew. A service configured without an App Store Connect API key answers 404 `not-configured`.
    The token acts for the whole team, so an API key limited to some bundle IDs gets 403 `forbidden`.

    Args:
        body (ConnectAPITokenRequest): How long the App Store Connect API token lives and what it
            may do; `{}` takes the defaults.

    Raises:
        errors.ProblemError: If the service answers a problem (its status, type, detail and field).
        errors.UnexpectedStatus: If the server returns an error status without a problem, or an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        BearerToken
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
