from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.legacy_promotional_offer_request import LegacyPromotionalOfferRequest
from ...models.legacy_promotional_offer_signature import LegacyPromotionalOfferSignature
from ...types import Response


def _get_kwargs(
    *,
    body: LegacyPromotionalOfferRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/signatures/legacy-promotional-offer",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> LegacyPromotionalOfferSignature | None:
    problem = errors.problem_in(response)
    if problem is not None:
        raise problem
    if response.status_code == 200:
        response_200 = LegacyPromotionalOfferSignature.from_dict(response.json())

        return response_200

    if client.raise_on_unexpected_status or response.status_code >= 400:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[LegacyPromotionalOfferSignature]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: LegacyPromotionalOfferRequest,
) -> Response[LegacyPromotionalOfferSignature]:
    """Sign a promotional offer (legacy signature, version 1)

     Signs a promotional offer the legacy way: ECDSA P-256 with SHA-256 over `bundleId`, `keyId`,
    `productId`, `offerIdentifier`, `appAccountToken` (lower-cased), `nonce` and `timestamp` (UNIX
    milliseconds) joined by U+2063, DER-encoded and then base64. The response holds exactly what
    StoreKit takes: `Product.PurchaseOption.promotionalOffer(offerID:keyID:nonce:signature:timestamp:)`
    (StoreKit 2), `SKPaymentDiscount(identifier:keyIdentifier:nonce:signature:timestamp:)` (StoreKit 1),
    and Retention Messaging's `promotionalOfferSignatureV1`. The app must pass `signature`
    base64-*decoded* to `Data`, and make the purchase with the same app account token (or application
    username) that was signed.

    Args:
        body (LegacyPromotionalOfferRequest): A promotional offer to sign with the legacy (version
            1) signature.

    Raises:
        errors.ProblemError: If the service answers a problem (its status, type, detail and field).
        errors.UnexpectedStatus: If the server returns an error status without a problem, or an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[LegacyPromotionalOfferSignature]
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
    body: LegacyPromotionalOfferRequest,
) -> LegacyPromotionalOfferSignature | None:
    """Sign a promotional offer (legacy signature, version 1)

     Signs a promotional offer the legacy way: ECDSA P-256 with SHA-256 over `bundleId`, `keyId`,
    `productId`, `offerIdentifier`, `appAccountToken` (lower-cased), `nonce` and `timestamp` (UNIX
    milliseconds) joined by U+2063, DER-encoded and then base64. The response holds exactly what
    StoreKit takes: `Product.PurchaseOption.promotionalOffer(offerID:keyID:nonce:signature:timestamp:)`
    (StoreKit 2), `SKPaymentDiscount(identifier:keyIdentifier:nonce:signature:timestamp:)` (StoreKit 1),
    and Retention Messaging's `promotionalOfferSignatureV1`. The app must pass `signature`
    base64-*decoded* to `Data`, and make the purchase with the same app account token (or application
    username) that was signed.

    Args:
        body (LegacyPromotionalOfferRequest): A promotional offer to sign with the legacy (version
            1) signature.

    Raises:
        errors.ProblemError: If the service answers a problem (its status, type, detail and field).
        errors.UnexpectedStatus: If the server returns an error status without a problem, or an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        LegacyPromotionalOfferSignature
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: LegacyPromotionalOfferRequest,
) -> Response[LegacyPromotionalOfferSignature]:
    """Sign a promotional offer (legacy signature, version 1)

     Signs a promotional offer the legacy way: ECDSA P-256 with SHA-256 over `bundleId`, `keyId`,
    `productId`, `offerIdentifier`, `appAccountToken` (lower-cased), `nonce` and `timestamp` (UNIX
    milliseconds) joined by U+2063, DER-encoded and then base64. The response holds exactly what
    StoreKit takes: `Product.PurchaseOption.promotionalOffer(offerID:keyID:nonce:signature:timestamp:)`
    (StoreKit 2), `SKPaymentDiscount(identifier:keyIdentifier:nonce:signature:timestamp:)` (StoreKit 1),
    and Retention Messaging's `promotionalOfferSignatureV1`. The app must pass `signature`
    base64-*decoded* to `Data`, and make the purchase with the same app account token (or application
    username) that was signed.

    Args:
        body (LegacyPromotionalOfferRequest): A promotional offer to sign with the legacy (version
            1) signature.

    Raises:
        errors.ProblemError: If the service answers a problem (its status, type, detail and field).
        errors.UnexpectedStatus: If the server returns an error status without a problem, or an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[LegacyPromotionalOfferSignature]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: LegacyPromotionalOfferRequest,
) -> LegacyPromotionalOfferSignature | None:
    """Sign a promotional offer (legacy signature, version 1)

     Signs a promotional offer the legacy way: ECDSA P-256 with SHA-256 over `bundleId`, `keyId`,
    `productId`, `offerIdentifier`, `appAccountToken` (lower-cased), `nonce` and `timestamp` (UNIX
    milliseconds) joined by U+2063, DER-encoded and then base64. The response holds exactly what
    StoreKit takes: `Product.PurchaseOption.promotionalOffer(offerID:keyID:nonce:signature:timestamp:)`
    (StoreKit 2), `SKPaymentDiscount(identifier:keyIdentifier:nonce:signature:timestamp:)` (StoreKit 1),
    and Retention Messaging's `promotionalOfferSignatureV1`. The app must pass `signature`
    base64-*decoded* to `Data`, and make the purchase with the same app account token (or application
    username) that was signed.

    Args:
        body (LegacyPromotionalOfferRequest): A promotional offer to sign with the legacy (version
            1) signature.

    Raises:
        errors.ProblemError: If the service answers a problem (its status, type, detail and field).
        errors.UnexpectedStatus: If the server returns an error status without a problem, or an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        LegacyPromotionalOfferSignature
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
