"""The generated Python client (clients/python) against a live `offerkit serve`: every operation of openapi.json
called through it with its typed models, each JWS verified with PyJWT and cryptography and each legacy signature
with openssl (live_service.py), and one problem of each status class raised as a ProblemError with its status,
type, detail and field.

Run: .build/interop-venv/bin/python -m pytest clients/tests/python (with `pip install ./clients/python` and pytest
in that venv and the offerkit binary built; .ci/run does this).
"""
import asyncio
import base64
import json
import uuid
from pathlib import Path

import pytest
from live_service import (BUNDLE_ID, CLAIM_OFFER, EMPTY_OFFER, OTHER_BUNDLE_ID, ROOT, verify_legacy,
                          verify_token)

import offerkit_client
from offerkit_client import AuthenticatedClient, Client, ProblemError
from offerkit_client.api.campaigns import plan_campaign, validate_campaign
from offerkit_client.api.codes import campaign_status, claim_code
from offerkit_client.api.retention_messaging import get_retention_message
from offerkit_client.api.service import health, metrics, open_api_document, readiness
from offerkit_client.api.signatures import (sign_advanced_commerce_request, sign_batch,
                                            sign_introductory_offer_eligibility, sign_legacy_promotional_offer,
                                            sign_legacy_promotional_offer_deprecated_path, sign_promotional_offer)
from offerkit_client.api.tokens import create_connect_api_token, create_server_api_token
from offerkit_client.models import (AdvancedCommerceRequest, BatchAdvancedCommerceRequest,
                                    BatchAdvancedCommerceRequestType, BatchConnectAPITokenRequest,
                                    BatchConnectAPITokenRequestType, BatchIntroductoryOfferEligibilityRequest,
                                    BatchIntroductoryOfferEligibilityRequestType, BatchLegacyPromotionalOfferRequest,
                                    BatchLegacyPromotionalOfferRequestType, BatchPromotionalOfferRequest,
                                    BatchPromotionalOfferRequestType, BatchServerAPITokenRequest,
                                    BatchServerAPITokenRequestType, ClaimCodeRequest, ConnectAPITokenRequest, Health,
                                    IntroductoryOfferEligibilityRequest, LegacyPromotionalOfferRequest,
                                    PlanCampaignRequest, PromotionalOfferRequest, RealtimeRequestBody,
                                    ServerAPITokenRequest, SignatureBatchRequest, ValidateCampaignRequest)
from offerkit_client.models.advanced_commerce_one_time_charge_request import AdvancedCommerceOneTimeChargeRequest
from offerkit_client.models.advanced_commerce_subscription_create_request import (
    AdvancedCommerceSubscriptionCreateRequest)
from offerkit_client.models.advanced_commerce_subscription_modify_request import (
    AdvancedCommerceSubscriptionModifyRequest)
from offerkit_client.models.advanced_commerce_subscription_reactivate_request import (
    AdvancedCommerceSubscriptionReactivateRequest)
from offerkit_client.models.campaign import Campaign
from offerkit_client.types import Unset

DOCUMENT = json.loads((ROOT / "openapi.json").read_text())
MONTHLY = "com.example.offerkit.monthly"
# The operations each test called, by module (the operationId in snake case); the last test compares.
CALLED = set()


def call(operation, *path, **arguments):
    CALLED.add(operation.__name__.rsplit(".", 1)[1])
    return operation.sync(*path, **arguments)


def client(live, key="all"):
    return AuthenticatedClient(base_url=live.url, token=live.keys[key], raise_on_unexpected_status=True)


def test_promotional_offer_is_a_jws_pyjwt_verifies(live):
    nonce = uuid.uuid4()
    signed = call(sign_promotional_offer, client=client(live), body=PromotionalOfferRequest(
        bundle_id=BUNDLE_ID, product_id=MONTHLY, offer_identifier="WINBACK50", transaction_id="2000000900000001",
        nonce=nonce))
    verified = verify_token(signed.jws, "promotional-offer")
    assert verified["header"] == {"alg": "ES256", "kid": "DEMOKEY123", "typ": "JWT"}
    claims = verified["claims"]
    assert (claims["productId"], claims["offerIdentifier"], claims["bid"], claims["transactionId"]) == (
        MONTHLY, "WINBACK50", BUNDLE_ID, "2000000900000001")
    assert claims["nonce"] == str(nonce) == str(signed.nonce) and signed.key_id == "DEMOKEY123"
    assert signed.issued_at == claims["iat"]


def test_legacy_signatures_openssl_verifies_on_both_paths(live):
    for operation in (sign_legacy_promotional_offer, sign_legacy_promotional_offer_deprecated_path):
        signed = call(operation, client=client(live), body=LegacyPromotionalOfferRequest(
            bundle_id=BUNDLE_ID, product_id=MONTHLY, offer_identifier="WINBACK50",
            app_account_token="e3b1c9a2-4f6d-4b8e-9a1c-2d3e4f5a6b7c"))
        assert (signed.product_id, signed.offer_identifier, signed.key_id) == (MONTHLY, "WINBACK50", "DEMOKEY123")
        verify_legacy({"keyId": signed.key_id, "productId": signed.product_id,
                       "offerIdentifier": signed.offer_identifier, "appAccountToken": signed.app_account_token,
                       "nonce": str(signed.nonce), "timestamp": signed.timestamp, "signature": signed.signature})


def test_introductory_offer_eligibility_is_a_jws_pyjwt_verifies(live):
    signed = call(sign_introductory_offer_eligibility, client=client(live), body=IntroductoryOfferEligibilityRequest(
        bundle_id=BUNDLE_ID, product_id=MONTHLY, allow_introductory_offer=False, transaction_id="2000000900000001"))
    claims = verify_token(signed.jws, "introductory-offer-eligibility")["claims"]
    assert (claims["productId"], claims["allowIntroductoryOffer"], claims["transactionId"]) == (
        MONTHLY, False, "2000000900000001")


ADVANCED_COMMERCE_KINDS = {
    "CREATE_ONE_TIME_CHARGE": AdvancedCommerceOneTimeChargeRequest,
    "CREATE_SUBSCRIPTION": AdvancedCommerceSubscriptionCreateRequest,
    "MODIFY_SUBSCRIPTION": AdvancedCommerceSubscriptionModifyRequest,
    "REACTIVATE_SUBSCRIPTION": AdvancedCommerceSubscriptionReactivateRequest,
}


@pytest.mark.parametrize("operation", sorted(ADVANCED_COMMERCE_KINDS))
def test_each_kind_of_advanced_commerce_request_is_signed(live, operation):
    # The document's own example of the kind, read into the kind's model.
    examples = [branch["examples"][0] for branch in
                DOCUMENT["components"]["schemas"]["AdvancedCommerceInAppRequest"]["oneOf"]]
    example = next(e for e in examples if e["operation"] == operation)
    request = ADVANCED_COMMERCE_KINDS[operation].from_dict(example)
    signed = call(sign_advanced_commerce_request, client=client(live),
                  body=AdvancedCommerceRequest(bundle_id=BUNDLE_ID, request=request))
    claims = verify_token(signed.jws, "advanced-commerce-api")["claims"]
    assert json.loads(base64.b64decode(claims["request"])) == request.to_dict() == example


def test_both_tokens_are_jws_pyjwt_verifies(live):
    server = call(create_server_api_token, client=client(live),
                  body=ServerAPITokenRequest(bundle_id=BUNDLE_ID, lifetime=600))
    claims = verify_token(server.token, "appstoreconnect-v1")["claims"]
    assert claims["bid"] == BUNDLE_ID and claims["exp"] - claims["iat"] == 600 == server.expires_at - server.issued_at
    connect = call(create_connect_api_token, client=client(live),
                   body=ConnectAPITokenRequest(lifetime=300, scope=["GET /v1/apps"]))
    claims = verify_token(connect.token, "appstoreconnect-v1")["claims"]
    assert claims["scope"] == ["GET /v1/apps"] and "bid" not in claims


def test_campaign_validated_and_planned(live):
    validation = call(validate_campaign, client=client(live),
                      body=ValidateCampaignRequest(campaign=Campaign.from_dict(live.campaign)))
    assert (validation.valid, validation.problem_count, validation.problems) == (True, 0, [])
    plan = call(plan_campaign, client=client(live), body=PlanCampaignRequest.from_dict(live.plan_request))
    assert plan.campaign == live.campaign["name"] and plan.app.app_apple_id == "1234567890"
    custom = [r.body.to_dict()["data"]["attributes"].get("customCode") for r in plan.requests]
    supplied = [code for batch in live.plan_request["customCodes"] for code in batch["codes"]]
    assert set(supplied) | {"SPRING27", "PRESS2027", "REVIEWER27"} == set(custom) - {None}


def test_code_claimed_once_and_status_counts_it(live):
    campaign = live.campaign["name"]
    request = ClaimCodeRequest(campaign=campaign, offer=CLAIM_OFFER, recipient="user-8412")
    first = call(claim_code, client=client(live), body=request)
    again = call(claim_code, client=client(live), body=request)
    assert (first.new, again.new, again.code) == (True, False, first.code)
    assert first.url.endswith("code=" + first.code) and first.campaign == campaign
    status = call(campaign_status, campaign, client=client(live))
    offer = next(o for o in status.offers if o.offer == CLAIM_OFFER)
    assert sum(batch.assigned for batch in offer.batches) == 1


def test_retention_message_offer_is_a_jws_pyjwt_verifies(live):
    answer = call(get_retention_message, client=Client(base_url=live.url, raise_on_unexpected_status=True),
                  body=RealtimeRequestBody(signed_payload=live.signed_payloads[0]))
    offer = answer.promotional_offer
    claims = verify_token(offer.promotional_offer_signature_v2, "promotional-offer")["claims"]
    assert (claims["productId"], claims["offerIdentifier"], claims["transactionId"]) == (
        MONTHLY, "WINBACK50", "2000000900000001")
    assert str(offer.message_identifier) == "7c9e6679-7425-40de-944b-e07fc1f90ae7"


def test_service_endpoints(live):
    public = Client(base_url=live.url, raise_on_unexpected_status=True)
    assert isinstance(call(health, client=public), Health)
    assert call(health, client=public).version == DOCUMENT["info"]["version"]
    assert call(readiness, client=public).apps == 2
    document = call(open_api_document, client=public)
    assert document.openapi.value == "3.1.0" and document.paths == DOCUMENT["paths"]
    text = call(metrics, client=client(live))
    assert 'offerkit_signatures_total{type="promotional-offer"}' in text


def test_the_async_functions_call_the_service_too(live):
    async def sign():
        async with client(live) as caller:
            return await sign_promotional_offer.asyncio(client=caller, body=PromotionalOfferRequest(
                bundle_id=BUNDLE_ID, product_id=MONTHLY, offer_identifier="WINBACK50"))

    signed = asyncio.run(sign())
    assert verify_token(signed.jws, "promotional-offer")["claims"]["offerIdentifier"] == "WINBACK50"


def problem_of(operation, *path, **arguments):
    with pytest.raises(ProblemError) as raised:
        call(operation, *path, **arguments)
    return raised.value


def test_problems_are_raised_as_problem_errors(live):
    offer = PromotionalOfferRequest(bundle_id=BUNDLE_ID, product_id=MONTHLY, offer_identifier="WINBACK50")
    no_key = AuthenticatedClient(base_url=live.url, token="offerkit_" + "A" * 43)
    cases = [
        (401, "unauthorized", None, problem_of(sign_promotional_offer, client=no_key, body=offer)),
        (403, "forbidden", None, problem_of(sign_legacy_promotional_offer, client=client(live, "narrow"),
                                            body=LegacyPromotionalOfferRequest(
                                                bundle_id=BUNDLE_ID, product_id=MONTHLY,
                                                offer_identifier="WINBACK50"))),
        (403, "forbidden", "bundleId", problem_of(sign_promotional_offer, client=client(live, "narrow"),
                                            body=PromotionalOfferRequest(bundle_id=OTHER_BUNDLE_ID, product_id=MONTHLY,
                                                                         offer_identifier="WINBACK50"))),
        (404, "unknown-app", "bundleId", problem_of(sign_promotional_offer, client=client(live),
                                                    body=PromotionalOfferRequest(bundle_id="com.example.nothing",
                                                                                 product_id=MONTHLY,
                                                                                 offer_identifier="WINBACK50"))),
        (404, "unknown-campaign", None, problem_of(campaign_status, "no-such-campaign", client=client(live))),
        (409, "nothing-to-assign", None, problem_of(claim_code, client=client(live), body=ClaimCodeRequest(
            campaign=live.campaign["name"], offer=EMPTY_OFFER, recipient="user-1"))),
        (422, "invalid-field", "lifetime", problem_of(create_server_api_token, client=client(live),
                                                      body=ServerAPITokenRequest(bundle_id=BUNDLE_ID, lifetime=7200))),
        (401, "unverified-request", None, problem_of(get_retention_message, client=Client(base_url=live.url),
                                                     body=RealtimeRequestBody(signed_payload="a.b.c"))),
    ]
    for status, slug, field, error in cases:
        assert isinstance(error, offerkit_client.errors.ProblemError)
        assert (error.status, error.type, error.field) == (status, "urn:offerkit:problem:" + slug, field), error
        assert error.detail and error.title and error.request_id and error.problem is not None
        assert error.problem.status == status and error.problem.type_.value == error.type
        assert str(error).startswith(f"{status} urn:offerkit:problem:{slug}: ")


def test_problems_of_the_limits_are_raised_too(live):
    limited = AuthenticatedClient(base_url=live.limited_url, token=live.keys["limited"])
    campaign = dict(live.campaign, offers=[dict(offer, referenceName=offer["referenceName"] + " " + "x" * 2000)
                                           for offer in live.campaign["offers"]])
    too_large = problem_of(validate_campaign, client=limited,
                           body=ValidateCampaignRequest(campaign=Campaign.from_dict(campaign)))
    assert (too_large.status, too_large.type) == (413, "urn:offerkit:problem:body-too-large")
    assert too_large.detail
    # One request a second, a burst of one: within a few requests one is refused.
    errors = []
    for _ in range(5):
        try:
            call(create_server_api_token, client=limited, body=ServerAPITokenRequest(bundle_id=BUNDLE_ID))
        except ProblemError as error:
            errors.append(error)
            break
    assert errors, "five requests in a row at one a second were all answered"
    rate_limited = errors[0]
    assert (rate_limited.status, rate_limited.type) == (429, "urn:offerkit:problem:rate-limited")
    assert rate_limited.retry_after is not None and rate_limited.retry_after >= 1 and rate_limited.detail


def test_batch_signs_each_type_and_answers_an_item_problem_inside_the_200(live):
    examples = {branch["examples"][0]["operation"]: branch["examples"][0] for branch in
                DOCUMENT["components"]["schemas"]["AdvancedCommerceInAppRequest"]["oneOf"]}
    items = [
        BatchPromotionalOfferRequest(type_=BatchPromotionalOfferRequestType.PROMOTIONAL_OFFER, id="offer",
                                     bundle_id=BUNDLE_ID, product_id=MONTHLY, offer_identifier="WINBACK50"),
        BatchLegacyPromotionalOfferRequest(type_=BatchLegacyPromotionalOfferRequestType.LEGACY_PROMOTIONAL_OFFER,
                                           id=2, bundle_id=BUNDLE_ID, product_id=MONTHLY,
                                           offer_identifier="WINBACK50",
                                           app_account_token="e3b1c9a2-4f6d-4b8e-9a1c-2d3e4f5a6b7c"),
        BatchIntroductoryOfferEligibilityRequest(
            type_=BatchIntroductoryOfferEligibilityRequestType.INTRODUCTORY_OFFER_ELIGIBILITY, bundle_id=BUNDLE_ID,
            product_id=MONTHLY, allow_introductory_offer=True, transaction_id="2000000900000001"),
        BatchAdvancedCommerceRequest(type_=BatchAdvancedCommerceRequestType.ADVANCED_COMMERCE, bundle_id=BUNDLE_ID,
                                     request=AdvancedCommerceOneTimeChargeRequest.from_dict(
                                         examples["CREATE_ONE_TIME_CHARGE"])),
        BatchServerAPITokenRequest(type_=BatchServerAPITokenRequestType.SERVER_API_TOKEN, bundle_id=BUNDLE_ID),
        BatchConnectAPITokenRequest(type_=BatchConnectAPITokenRequestType.CONNECT_API_TOKEN, lifetime=300),
        BatchPromotionalOfferRequest(type_=BatchPromotionalOfferRequestType.PROMOTIONAL_OFFER, id="unknown",
                                     bundle_id="com.example.nothing", product_id=MONTHLY,
                                     offer_identifier="WINBACK50"),
    ]
    answer = call(sign_batch, client=client(live), body=SignatureBatchRequest(requests=items))
    assert (answer.succeeded, answer.failed, [r.index for r in answer.results]) == (6, 1, list(range(7)))
    offer, legacy, eligibility, commerce, server, connect, unknown = answer.results
    assert (offer.id, legacy.id, offer.status) == ("offer", 2, 200)
    assert verify_token(offer.jws, "promotional-offer")["claims"]["offerIdentifier"] == "WINBACK50"
    verify_legacy({"keyId": legacy.key_id, "productId": legacy.product_id, "offerIdentifier": legacy.offer_identifier,
                   "appAccountToken": legacy.app_account_token, "nonce": str(legacy.nonce),
                   "timestamp": legacy.timestamp, "signature": legacy.signature})
    assert verify_token(eligibility.jws, "introductory-offer-eligibility")["claims"]["allowIntroductoryOffer"] is True
    claims = verify_token(commerce.jws, "advanced-commerce-api")["claims"]
    assert json.loads(base64.b64decode(claims["request"])) == examples["CREATE_ONE_TIME_CHARGE"]
    assert verify_token(server.token, "appstoreconnect-v1")["claims"]["bid"] == BUNDLE_ID
    assert verify_token(connect.token, "appstoreconnect-v1")["claims"]["exp"] == connect.expires_at
    # An item's problem is part of the 200 answer (the typed Problem), not raised.
    assert (unknown.status, unknown.id, unknown.problem.status, unknown.problem.type_.value, unknown.problem.field) == (
        404, "unknown", 404, "urn:offerkit:problem:unknown-app", "bundleId")
    assert unknown.problem.detail and isinstance(unknown.jws, Unset)


def test_batch_envelope_problems_are_raised(live):
    empty = problem_of(sign_batch, client=client(live), body=SignatureBatchRequest(requests=[]))
    assert (empty.status, empty.type, empty.field) == (422, "urn:offerkit:problem:invalid-field", "requests")
    # The limited service's burst is one token: a batch of two can never pass.
    limited = AuthenticatedClient(base_url=live.limited_url, token=live.keys["limited"])
    item = BatchServerAPITokenRequest(type_=BatchServerAPITokenRequestType.SERVER_API_TOKEN, bundle_id=BUNDLE_ID)
    over = problem_of(sign_batch, client=limited, body=SignatureBatchRequest(requests=[item, item]))
    assert (over.status, over.type, over.field) == (422, "urn:offerkit:problem:invalid-field", "requests")
    assert "burst" in over.detail


def test_every_operation_was_called():
    """Runs last: each operation of openapi.json has a module, and the tests above called each one."""
    api = Path(offerkit_client.__file__).parent / "api"
    modules = {path.stem for path in api.glob("*/*.py") if path.stem != "__init__"}
    operations = [o for path in DOCUMENT["paths"].values() for o in path.values()]
    assert len(modules) == len(operations)
    assert modules - CALLED == set(), "operations no test called"
