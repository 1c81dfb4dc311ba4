from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.signature_batch_request import SignatureBatchRequest
from ...models.signature_batch_response import SignatureBatchResponse
from ...types import Response


def _get_kwargs(
    *,
    body: SignatureBatchRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/signatures/batch",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> SignatureBatchResponse | None:
    problem = errors.problem_in(response)
    if problem is not None:
        raise problem
    if response.status_code == 200:
        response_200 = SignatureBatchResponse.from_dict(response.json())

        return response_200

    if client.raise_on_unexpected_status or response.status_code >= 400:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[SignatureBatchResponse]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: SignatureBatchRequest,
) -> Response[SignatureBatchResponse]:
    """Sign up to 1000 requests of any types in one call

     Signs several requests in one round trip (a storefront that shows three offers signs them at once),
    each exactly as its own endpoint would: an item is that endpoint's body with `type` (`promotional-
    offer`, `legacy-promotional-offer`, `introductory-offer-eligibility`, `advanced-commerce`, `server-
    api-token`, `connect-api-token`: the names of `offerkit batch` and of the API key scopes) and an
    optional `id` (a string or an integer, echoed). Each item is checked on its own: its scope (a key
    without it gets a `403` for that item), its members against its endpoint's schema, its bundle ID; a
    refused item's result carries the `problem` its endpoint would have answered, with its `status`, and
    the other items are signed. Results come in request order with `index`, `type` and `id`. The answer
    is `200` whenever the envelope is valid, even if every item failed. Envelope problems answer for the
    whole request: no key (`401`), a body that is not JSON (`400`), too large (`413`), or has no
    `requests` array of 1 to 1000 items (`422` naming `requests`). The batch takes one rate-limit token
    per item, all at once: too few left is a `429` with `Retry-After` for that many, and more items than
    the key's burst is a `422` naming `requests`. Larger batches are signed on every core.

    Args:
        body (SignatureBatchRequest): Signing requests of any types, for one API key.

    Raises:
        errors.ProblemError: If the service answers a problem (its status, type, detail and field).
        errors.UnexpectedStatus: If the server returns an error status without a problem, or an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[SignatureBatchResponse]
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
    body: SignatureBatchRequest,
) -> SignatureBatchResponse | None:
    """Sign up to 1000 requests of any types in one call

     Signs several requests in one round trip (a storefront that shows three offers signs them at once),
    each exactly as its own endpoint would: an item is that endpoint's body with `type` (`promotional-
    offer`, `legacy-promotional-offer`, `introductory-offer-eligibility`, `advanced-commerce`, `server-
    api-token`, `connect-api-token`: the names of `offerkit batch` and of the API key scopes) and an
    optional `id` (a string or an integer, echoed). Each item is checked on its own: its scope (a key
    without it gets a `403` for that item), its members against its endpoint's schema, its bundle ID; a
    refused item's result carries the `problem` its endpoint would have answered, with its `status`, and
    the other items are signed. Results come in request order with `index`, `type` and `id`. The answer
    is `200` whenever the envelope is valid, even if every item failed. Envelope problems answer for the
    whole request: no key (`401`), a body that is not JSON (`400`), too large (`413`), or has no
    `requests` array of 1 to 1000 items (`422` naming `requests`). The batch takes one rate-limit token
    per item, all at once: too few left is a `429` with `Retry-After` for that many, and more items than
    the key's burst is a `422` naming `requests`. Larger batches are signed on every core.

    Args:
        body (SignatureBatchRequest): Signing requests of any types, for one API key.

    Raises:
        errors.ProblemError: If the service answers a problem (its status, type, detail and field).
        errors.UnexpectedStatus: If the server returns an error status without a problem, or an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        SignatureBatchResponse
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: SignatureBatchRequest,
) -> Response[SignatureBatchResponse]:
    """Sign up to 1000 requests of any types in one call

     Signs several requests in one round trip (a storefront that shows three offers signs them at once),
    each exactly as its own endpoint would: an item is that endpoint's body with `type` (`promotional-
    offer`, `legacy-promotional-offer`, `introductory-offer-eligibility`, `advanced-commerce`, `server-
    api-token`, `connect-api-token`: the names of `offerkit batch` and of the API key scopes) and an
    optional `id` (a string or an integer, echoed). Each item is checked on its own: its scope (a key
    without it gets a `403` for that item), its members against its endpoint's schema, its bundle ID; a
    refused item's result carries the `problem` its endpoint would have answered, with its `status`, and
    the other items are signed. Results come in request order with `index`, `type` and `id`. The answer
    is `200` whenever the envelope is valid, even if every item failed. Envelope problems answer for the
    whole request: no key (`401`), a body that is not JSON (`400`), too large (`413`), or has no
    `requests` array of 1 to 1000 items (`422` naming `requests`). The batch takes one rate-limit token
    per item, all at once: too few left is a `429` with `Retry-After` for that many, and more items than
    the key's burst is a `422` naming `requests`. Larger batches are signed on every core.

    Args:
        body (SignatureBatchRequest): Signing requests of any types, for one API key.

    Raises:
        errors.ProblemError: If the service answers a problem (its status, type, detail and field).
        errors.UnexpectedStatus: If the server returns an error status without a problem, or an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[SignatureBatchResponse]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: SignatureBatchRequest,
) -> SignatureBatchResponse | None:
    """Sign up to 1000 requests of any types in one call

     Signs several requests in one round trip (a storefront that shows three offers signs them at once),
    each exactly as its own endpoint would: an item is that endpoint's body with `type` (`promotional-
    offer`, `legacy-promotional-offer`, `introductory-offer-eligibility`, `advanced-commerce`, `server-
    api-token`, `connect-api-token`: the names of `offerkit batch` and of the API key scopes) and an
    optional `id` (a string or an integer, echoed). Each item is checked on its own: its scope (a key
    without it gets a `403` for that item), its members against its endpoint's schema, its bundle ID; a
    refused item's result carries the `problem` its endpoint would have answered, with its `status`, and
    the other items are signed. Results come in request order with `index`, `type` and `id`. The answer
    is `200` whenever the envelope is valid, even if every item failed. Envelope problems answer for the
    whole request: no key (`401`), a body that is not JSON (`400`), too large (`413`), or has no
    `requests` array of 1 to 1000 items (`422` naming `requests`). The batch takes one rate-limit token
    per item, all at once: too few left is a `429` with `Retry-After` for that many, and more items than
    the key's burst is a `422` naming `requests`. Larger batches are signed on every core.

    Args:
        body (SignatureBatchRequest): Signing requests of any types, for one API key.

    Raises:
        errors.ProblemError: If the service answers a problem (its status, type, detail and field).
        errors.UnexpectedStatus: If the server returns an error status without a problem, or an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        SignatureBatchResponse
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
