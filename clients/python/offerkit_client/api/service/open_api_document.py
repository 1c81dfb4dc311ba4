from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.open_api_document import OpenAPIDocument
from ...types import Response


def _get_kwargs() -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/openapi.json",
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> OpenAPIDocument | None:
    problem = errors.problem_in(response)
    if problem is not None:
        raise problem
    if response.status_code == 200:
        response_200 = OpenAPIDocument.from_dict(response.json())

        return response_200

    if client.raise_on_unexpected_status or response.status_code >= 400:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[OpenAPIDocument]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
) -> Response[OpenAPIDocument]:
    """This OpenAPI description

     The service's OpenAPI 3.1.0 description, generated from the same operations and schemas the service
    routes and validates with; identical to `offerkit openapi` and to `openapi.json` in the repository,
    except that a service without a code ledger leaves out the operations that need one. Needs no API
    key; caches may keep it.

    Raises:
        errors.ProblemError: If the service answers a problem (its status, type, detail and field).
        errors.UnexpectedStatus: If the server returns an error status without a problem, or an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[OpenAPIDocument]
    """

    kwargs = _get_kwargs()

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
) -> OpenAPIDocument | None:
    """This OpenAPI description

     The service's OpenAPI 3.1.0 description, generated from the same operations and schemas the service
    routes and validates with; identical to `offerkit openapi` and to `openapi.json` in the repository,
    except that a service without a code ledger leaves out the operations that need one. Needs no API
    key; caches may keep it.

    Raises:
        errors.ProblemError: If the service answers a problem (its status, type, detail and field).
        errors.UnexpectedStatus: If the server returns an error status without a problem, or an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        OpenAPIDocument
    """

    return sync_detailed(
        client=client,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
) -> Response[OpenAPIDocument]:
    """This OpenAPI description

     The service's OpenAPI 3.1.0 description, generated from the same operations and schemas the service
    routes and validates with; identical to `offerkit openapi` and to `openapi.json` in the repository,
    except that a service without a code ledger leaves out the operations that need one. Needs no API
    key; caches may keep it.

    Raises:
        errors.ProblemError: If the service answers a problem (its status, type, detail and field).
        errors.UnexpectedStatus: If the server returns an error status without a problem, or an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[OpenAPIDocument]
    """

    kwargs = _get_kwargs()

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
) -> OpenAPIDocument | None:
    """This OpenAPI description

     The service's OpenAPI 3.1.0 description, generated from the same operations and schemas the service
    routes and validates with; identical to `offerkit openapi` and to `openapi.json` in the repository,
    except that a service without a code ledger leaves out the operations that need one. Needs no API
    key; caches may keep it.

    Raises:
        errors.ProblemError: If the service answers a problem (its status, type, detail and field).
        errors.UnexpectedStatus: If the server returns an error status without a problem, or an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        OpenAPIDocument
    """

    return (
        await asyncio_detailed(
            client=client,
        )
    ).parsed
