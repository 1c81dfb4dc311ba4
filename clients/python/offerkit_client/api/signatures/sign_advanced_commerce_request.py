from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.advanced_commerce_request import AdvancedCommerceRequest
from ...models.signed_jws import SignedJWS
from ...types import Response


def _get_kwargs(
    *,
    body: AdvancedCommerceRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/signatures/advanced-commerce",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> SignedJWS | None:
    problem = errors.problem_in(response)
    if problem is not None:
        raise problem
    if response.status_code == 200:
        response_200 = SignedJWS.from_dict(response.json())

        return response_200

    if client.raise_on_unexpected_status or response.status_code >= 400:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[SignedJWS]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: AdvancedCommerceRequest,
) -> Response[SignedJWS]:
    """Sign an Advanced Commerce in-app request (compact JWS)

     Checks an Advanced Commerce API in-app request (one-time charge, create, modify or reactivate a
    subscription) against Apple's rules and signs it as a compact JWS (`aud` = `advanced-commerce-api`)
    whose `request` claim is the request's JSON, base64-encoded. The app passes the JWS to StoreKit's
    `AdvancedCommerceProduct.purchase(compactJWS:confirmIn:options:)` (iOS 18.4+; see Apple's "Sending
    Advanced Commerce API requests from your app"). Fields are checked by the schema first, then by the
    signing library (upper-case `currency` and `storefront`, lengths in UTF-16 code units); either way a
    refused field is an `invalid-field` problem whose `field` starts with `request.`, such as
    `request.items[0].SKU`. A `nonce`, when given, must be a version-4 UUID.

    Args:
        body (AdvancedCommerceRequest): An Advanced Commerce in-app request to sign for an app.

    Raises:
        errors.ProblemError: If the service answers a problem (its status, type, detail and field).
        errors.UnexpectedStatus: If the server returns an error status without a problem, or an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[SignedJWS]
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
    body: AdvancedCommerceRequest,
) -> SignedJWS | None:
    """Sign an Advanced Commerce in-app request (compact JWS)

     Checks an Advanced Commerce API in-app request (one-time charge, create, modify or reactivate a
    subscription) against Apple's rules and signs it as a compact JWS (`aud` = `advanced-commerce-api`)
    whose `request` claim is the request's JSON, base64-encoded. The app passes the JWS to StoreKit's
    `AdvancedCommerceProduct.purchase(compactJWS:confirmIn:options:)` (iOS 18.4+; see Apple's "Sending
    Advanced Commerce API requests from your app"). Fields are checked by the schema first, then by the
    signing library (upper-case `currency` and `storefront`, lengths in UTF-16 code units); either way a
    refused field is an `invalid-field` problem whose `field` starts with `request.`, such as
    `request.items[0].SKU`. A `nonce`, when given, must be a version-4 UUID.

    Args:
        body (AdvancedCommerceRequest): An Advanced Commerce in-app request to sign for an app.

    Raises:
        errors.ProblemError: If the service answers a problem (its status, type, detail and field).
        errors.UnexpectedStatus: If the server returns an error status without a problem, or an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        SignedJWS
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: AdvancedCommerceRequest,
) -> Response[SignedJWS]:
    """Sign an Advanced Commerce in-app request (compact JWS)

     Checks an Advanced Commerce API in-app request (one-time charge, create, modify or reactivate a
    subscription) against Apple's rules and signs it as a compact JWS (`aud` = `advanced-commerce-api`)
    whose `request` claim is the request's JSON, base64-encoded. The app passes the JWS to StoreKit's
    `AdvancedCommerceProduct.purchase(compactJWS:confirmIn:options:)` (iOS 18.4+; see Apple's "Sending
    Advanced Commerce API requests from your app"). Fields are checked by the schema first, then by the
    signing library (upper-case `currency` and `storefront`, lengths in UTF-16 code units); either way a
    refused field is an `invalid-field` problem whose `field` starts with `request.`, such as
    `request.items[0].SKU`. A `nonce`, when given, must be a version-4 UUID.

    Args:
        body (AdvancedCommerceRequest): An Advanced Commerce in-app request to sign for an app.

    Raises:
        errors.ProblemError: If the service answers a problem (its status, type, detail and field).
        errors.UnexpectedStatus: If the server returns an error status without a problem, or an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[SignedJWS]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: AdvancedCommerceRequest,
) -> SignedJWS | None:
    """Sign an Advanced Commerce in-app request (compact JWS)

     Checks an Advanced Commerce API in-app request (one-time charge, create, modify or reactivate a
    subscription) against Apple's rules and signs it as a compact JWS (`aud` = `advanced-commerce-api`)
    whose `request` claim is the request's JSON, base64-encoded. The app passes the JWS to StoreKit's
    `AdvancedCommerceProduct.purchase(compactJWS:confirmIn:options:)` (iOS 18.4+; see Apple's "Sending
    Advanced Commerce API requests from your app"). Fields are checked by the schema first, then by the
    signing library (upper-case `currency` and `storefront`, lengths in UTF-16 code units); either way a
    refused field is an `invalid-field` problem whose `field` starts with `request.`, such as
    `request.items[0].SKU`. A `nonce`, when given, must be a version-4 UUID.

    Args:
        body (AdvancedCommerceRequest): An Advanced Commerce in-app request to sign for an app.

    Raises:
        errors.ProblemError: If the service answers a problem (its status, type, detail and field).
        errors.UnexpectedStatus: If the server returns an error status without a problem, or an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        SignedJWS
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
