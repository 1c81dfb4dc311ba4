from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.promotional_offer_request import PromotionalOfferRequest
from ...models.signed_jws import SignedJWS
from ...types import Response


def _get_kwargs(
    *,
    body: PromotionalOfferRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/signatures/promotional-offer",
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
    body: PromotionalOfferRequest,
) -> Response[SignedJWS]:
    """Sign a promotional offer (V2 compact JWS)

     Signs a promotional offer as a compact JWS (`aud` = `promotional-offer`) for StoreKit's
    `Product.PurchaseOption.promotionalOffer(_:compactJWS:)` (iOS 15+, back-deployed), SwiftUI's
    `subscriptionPromotionalOffer` modifiers, and Retention Messaging's `promotionalOfferSignatureV2`.
    `transactionId` (any transaction ID of the customer, or the appTransactionId) is optional but
    recommended. A `nonce`, when given, must be a version-4 UUID.

    Args:
        body (PromotionalOfferRequest): A promotional offer to sign.

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
    body: PromotionalOfferRequest,
) -> SignedJWS | None:
    """Sign a promotional offer (V2 compact JWS)

     Signs a promotional offer as a compact JWS (`aud` = `promotional-offer`) for StoreKit's
    `Product.PurchaseOption.promotionalOffer(_:compactJWS:)` (iOS 15+, back-deployed), SwiftUI's
    `subscriptionPromotionalOffer` modifiers, and Retention Messaging's `promotionalOfferSignatureV2`.
    `transactionId` (any transaction ID of the customer, or the appTransactionId) is optional but
    recommended. A `nonce`, when given, must be a version-4 UUID.

    Args:
        body (PromotionalOfferRequest): A promotional offer to sign.

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
    body: PromotionalOfferRequest,
) -> Response[SignedJWS]:
    """Sign a promotional offer (V2 compact JWS)

     Signs a promotional offer as a compact JWS (`aud` = `promotional-offer`) for StoreKit's
    `Product.PurchaseOption.promotionalOffer(_:compactJWS:)` (iOS 15+, back-deployed), SwiftUI's
    `subscriptionPromotionalOffer` modifiers, and Retention Messaging's `promotionalOfferSignatureV2`.
    `transactionId` (any transaction ID of the customer, or the appTransactionId) is optional but
    recommended. A `nonce`, when given, must be a version-4 UUID.

    Args:
        body (PromotionalOfferRequest): A promotional offer to sign.

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
    body: PromotionalOfferRequest,
) -> SignedJWS | None:
    """Sign a promotional offer (V2 compact JWS)

     Signs a promotional offer as a compact JWS (`aud` = `promotional-offer`) for StoreKit's
    `Product.PurchaseOption.promotionalOffer(_:compactJWS:)` (iOS 15+, back-deployed), SwiftUI's
    `subscriptionPromotionalOffer` modifiers, and Retention Messaging's `promotionalOfferSignatureV2`.
    `transactionId` (any transaction ID of the customer, or the appTransactionId) is optional but
    recommended. A `nonce`, when given, must be a version-4 UUID.

    Args:
        body (PromotionalOfferRequest): A promotional offer to sign.

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
