from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.bearer_token import BearerToken
from ...models.server_api_token_request import ServerAPITokenRequest
from ...types import Response


def _get_kwargs(
    *,
    body: ServerAPITokenRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/tokens/server-api",
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
    body: ServerAPITokenRequest,
) -> Response[BearerToken]:
    """Create an App Store Server API token

     Signs a bearer token for the App Store Server API (`https://api.storekit.apple.com`) with the app's
    In-App Purchase key: claims `iss` (issuer ID), `iat`, `exp`, `aud` = `appstoreconnect-v1` and `bid`
    (the bundle ID). Apple accepts at most 60 minutes between `iat` and `exp`; the default lifetime is 5
    minutes, as in Apple's libraries. Reuse a token until shortly before `expiresAt`.

    Args:
        body (ServerAPITokenRequest): The app to sign an App Store Server API token for, and how
            long the token lives.

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
    body: ServerAPITokenRequest,
) -> BearerToken | None:
    """Create an App Store Server API token

     Signs a bearer token for the App Store Server API (`https://api.storekit.apple.com`) with the app's
    In-App Purchase key: claims `iss` (issuer ID), `iat`, `exp`, `aud` = `appstoreconnect-v1` and `bid`
    (the bundle ID). Apple accepts at most 60 minutes between `iat` and `exp`; the default lifetime is 5
    minutes, as in Apple's libraries. Reuse a token until shortly before `expiresAt`.

    Args:
        body (ServerAPITokenRequest): The app to sign an App Store Server API token for, and how
            long the token lives.

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
    body: ServerAPITokenRequest,
) -> Response[BearerToken]:
    """Create an App Store Server API token

     Signs a bearer token for the App Store Server API (`https://api.storekit.apple.com`) with the app's
    In-App Purchase key: claims `iss` (issuer ID), `iat`, `exp`, `aud` = `appstoreconnect-v1` and `bid`
    (the bundle ID). Apple accepts at most 60 minutes between `iat` and `exp`; the default lifetime is 5
    minutes, as in Apple's libraries. Reuse a token until shortly before `expiresAt`.

    Args:
        body (ServerAPITokenRequest): The app to sign an App Store Server API token for, and how
            long the token lives.

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
    body: ServerAPITokenRequest,
) -> BearerToken | None:
    """Create an App Store Server API token

     Signs a bearer token for the App Store Server API (`https://api.storekit.apple.com`) with the app's
    In-App Purchase key: claims `iss` (issuer ID), `iat`, `exp`, `aud` = `appstoreconnect-v1` and `bid`
    (the bundle ID). Apple accepts at most 60 minutes between `iat` and `exp`; the default lifetime is 5
    minutes, as in Apple's libraries. Reuse a token until shortly before `expiresAt`.

    Args:
        body (ServerAPITokenRequest): The app to sign an App Store Server API token for, and how
            long the token lives.

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
