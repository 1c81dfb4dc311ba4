from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.realtime_request_body import RealtimeRequestBody
from ...models.realtime_response_body import RealtimeResponseBody
from ...types import Response


def _get_kwargs(
    *,
    body: RealtimeRequestBody,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/retention/realtime",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> RealtimeResponseBody | None:
    problem = errors.problem_in(response)
    if problem is not None:
        raise problem
    if response.status_code == 200:
        response_200 = RealtimeResponseBody.from_dict(response.json())

        return response_200

    if client.raise_on_unexpected_status or response.status_code >= 400:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[RealtimeResponseBody]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: RealtimeRequestBody,
) -> Response[RealtimeResponseBody]:
    """Get Retention Message (called by the App Store)

     The App Store calls this endpoint (the URL registered with `PUT /inApps/v1/messaging/realtime/url`
    of the App Store Server API) while a customer looks at cancelling a subscription, with a
    `RealtimeRequestBody`: `signedPayload`, a `DecodedRealtimeRequestBody` the App Store signed. Needs
    no API key: Apple's signature is the authentication. The service verifies the payload (the `x5c`
    chain to Apple Root CA - G3 or the configured roots, Apple's certificate extensions, validity at
    `signedDate`, the ES256 signature), names the app by its `appAppleId`, accepts only the configured
    environments and a `signedDate` at most `maxRequestAgeSeconds` old (60 s ahead at most), then
    answers a `RealtimeResponseBody` with exactly one of `message`, `alternateProduct`,
    `promotionalOffer` or `advancedCommerceInfo` as the app's rules decide, the offer signed for this
    customer now (V2 with `transactionId` = `originalTransactionId`), or `{}` when nothing is chosen, so
    that Apple shows the default message. The same request again (same `requestIdentifier`, same
    payload) gets the same bytes. Anything that does not verify, is for another app or environment, or
    is stale is `401 unverified-request`, which says nothing about why. The body is read whatever its
    `Content-Type` (Apple's documentation does not state one), at most 65536 bytes. Only a service
    configured with `retention` has this operation (`x-offerkit-requires-retention: true`), at the
    configured `retention.path`.

    Args:
        body (RealtimeRequestBody): Apple's RealtimeRequestBody: what the App Store posts.

    Raises:
        errors.ProblemError: If the service answers a problem (its status, type, detail and field).
        errors.UnexpectedStatus: If the server returns an error status without a problem, or an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[RealtimeResponseBody]
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
    client: AuthenticatedClient | Client,
    body: RealtimeRequestBody,
) -> RealtimeResponseBody | None:
    """Get Retention Message (called by the App Store)

     The App Store calls this endpoint (the URL registered with `PUT /inApps/v1/messaging/realtime/url`
    of the App Store Server API) while a customer looks at cancelling a subscription, with a
    `RealtimeRequestBody`: `signedPayload`, a `DecodedRealtimeRequestBody` the App Store signed. Needs
    no API key: Apple's signature is the authentication. The service verifies the payload (the `x5c`
    chain to Apple Root CA - G3 or the configured roots, Apple's certificate extensions, validity at
    `signedDate`, the ES256 signature), names the app by its `appAppleId`, accepts only the configured
    environments and a `signedDate` at most `maxRequestAgeSeconds` old (60 s ahead at most), then
    answers a `RealtimeResponseBody` with exactly one of `message`, `alternateProduct`,
    `promotionalOffer` or `advancedCommerceInfo` as the app's rules decide, the offer signed for this
    customer now (V2 with `transactionId` = `originalTransactionId`), or `{}` when nothing is chosen, so
    that Apple shows the default message. The same request again (same `requestIdentifier`, same
    payload) gets the same bytes. Anything that does not verify, is for another app or environment, or
    is stale is `401 unverified-request`, which says nothing about why. The body is read whatever its
    `Content-Type` (Apple's documentation does not state one), at most 65536 bytes. Only a service
    configured with `retention` has this operation (`x-offerkit-requires-retention: true`), at the
    configured `retention.path`.

    Args:
        body (RealtimeRequestBody): Apple's RealtimeRequestBody: what the App Store posts.

    Raises:
        errors.ProblemError: If the service answers a problem (its status, type, detail and field).
        errors.UnexpectedStatus: If the server returns an error status without a problem, or an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        RealtimeResponseBody
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: RealtimeRequestBody,
) -> Response[RealtimeResponseBody]:
    """Get Retention Message (called by the App Store)

     The App Store calls this endpoint (the URL registered with `PUT /inApps/v1/messaging/realtime/url`
    of the App Store Server API) while a customer looks at cancelling a subscription, with a
    `RealtimeRequestBody`: `signedPayload`, a `DecodedRealtimeRequestBody` the App Store signed. Needs
    no API key: Apple's signature is the authentication. The service verifies the payload (the `x5c`
    chain to Apple Root CA - G3 or the configured roots, Apple's certificate extensions, validity at
    `signedDate`, the ES256 signature), names the app by its `appAppleId`, accepts only the configured
    environments and a `signedDate` at most `maxRequestAgeSeconds` old (60 s ahead at most), then
    answers a `RealtimeResponseBody` with exactly one of `message`, `alternateProduct`,
    `promotionalOffer` or `advancedCommerceInfo` as the app's rules decide, the offer signed for this
    customer now (V2 with `transactionId` = `originalTransactionId`), or `{}` when nothing is chosen, so
    that Apple shows the default message. The same request again (same `requestIdentifier`, same
    payload) gets the same bytes. Anything that does not verify, is for another app or environment, or
    is stale is `401 unverified-request`, which says nothing about why. The body is read whatever its
    `Content-Type` (Apple's documentation does not state one), at most 65536 bytes. Only a service
    configured with `retention` has this operation (`x-offerkit-requires-retention: true`), at the
    configured `retention.path`.

    Args:
        body (RealtimeRequestBody): Apple's RealtimeRequestBody: what the App Store posts.

    Raises:
        errors.ProblemError: If the service answers a problem (its status, type, detail and field).
        errors.UnexpectedStatus: If the server returns an error status without a problem, or an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[RealtimeResponseBody]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: RealtimeRequestBody,
) -> RealtimeResponseBody | None:
    """Get Retention Message (called by the App Store)

     The App Store calls this endpoint (the URL registered with `PUT /inApps/v1/messaging/realtime/url`
    of the App Store Server API) while a customer looks at cancelling a subscription, with a
    `RealtimeRequestBody`: `signedPayload`, a `DecodedRealtimeRequestBody` the App Store signed. Needs
    no API key: Apple's signature is the authentication. The service verifies the payload (the `x5c`
    chain to Apple Root CA - G3 or the configured roots, Apple's certificate extensions, validity at
    `signedDate`, the ES256 signature), names the app by its `appAppleId`, accepts only the configured
    environments and a `signedDate` at most `maxRequestAgeSeconds` old (60 s ahead at most), then
    answers a `RealtimeResponseBody` with exactly one of `message`, `alternateProduct`,
    `promotionalOffer` or `advancedCommerceInfo` as the app's rules decide, the offer signed for this
    customer now (V2 with `transactionId` = `originalTransactionId`), or `{}` when nothing is chosen, so
    that Apple shows the default message. The same request again (same `requestIdentifier`, same
    payload) gets the same bytes. Anything that does not verify, is for another app or environment, or
    is stale is `401 unverified-request`, which says nothing about why. The body is read whatever its
    `Content-Type` (Apple's documentation does not state one), at most 65536 bytes. Only a service
    configured with `retention` has this operation (`x-offerkit-requires-retention: true`), at the
    configured `retention.path`.

    Args:
        body (RealtimeRequestBody): Apple's RealtimeRequestBody: what the App Store posts.

    Raises:
        errors.ProblemError: If the service answers a problem (its status, type, detail and field).
        errors.UnexpectedStatus: If the server returns an error status without a problem, or an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        RealtimeResponseBody
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
