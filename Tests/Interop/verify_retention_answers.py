#!/usr/bin/env python3
"""Checks the Get Retention Message endpoint's cases with independent tools (Apple's own library,
PyJWT, cryptography, openssl), outside the Swift code.

usage: verify_retention_answers.py CASES.json PUBLIC_KEY.pem

CASES.json (written by the Swift tests): {"rootPEM", "bundleId", "keyId", "cases": [{"name",
"signedPayload", "environment", "appAppleId", "originalTransactionId", "answer" (the endpoint's
200 body as text, or null when it answered 401)}]}.

For each case:
1. Apple's SignedDataVerifier (app-store-server-library, online checks off, the case's root as its
   only root) verifies the signedPayload with verify_and_decode_realtime_request, for the case's
   environment and App Apple ID: accepted or not, and its status.
2. An answer is deserialized with Apple's models (RealtimeResponseBody, by the library's own cattrs
   converter) and written back: it must give the same JSON (only Apple's members, at most one);
   a V2 offer is verified with PyJWT (ES256, header, aud promotional-offer, transactionId =
   originalTransactionId, productId, offerIdentifier, bid); a V1 signature with `openssl dgst
   -sha256 -verify` over docs/formats.md §2's message (its appAccountToken, lower case, when the answer has
   one); advancedCommerceData is base64 of
   {"signatureInfo":{"token":JWS}}, the JWS verified with PyJWT (aud advanced-commerce-api) and
   its request read by Apple's AdvancedCommerceSubscriptionModifyInAppRequest model.

Prints one JSON line per case: {"name", "appleAccepted", "appleStatus", "kind", "problems": [...]}.
"""
import base64
import json
import os
import subprocess
import sys
import tempfile
import uuid

import jwt
from cryptography import x509
from cryptography.hazmat.primitives import serialization
from appstoreserverlibrary.models.AdvancedCommerceSubscriptionModifyInAppRequest import (
    AdvancedCommerceSubscriptionModifyInAppRequest)
from appstoreserverlibrary.models.Environment import Environment
from appstoreserverlibrary.models.LibraryUtility import _get_cattrs_converter
from appstoreserverlibrary.models.RealtimeResponseBody import RealtimeResponseBody
from appstoreserverlibrary.signed_data_verifier import SignedDataVerifier, VerificationException

MEMBERS = {"message", "alternateProduct", "promotionalOffer", "advancedCommerceInfo"}


def apple_verdict(case, root):
    try:
        verifier = SignedDataVerifier([root], False, Environment(case["environment"]), "unused.by.realtime",
                                      case["appAppleId"])
        verifier.verify_and_decode_realtime_request(case["signedPayload"])
        return True, "OK"
    except VerificationException as error:
        return False, error.status.name
    except Exception as error:  # cattrs and PyJWT errors: Apple's library refuses the input
        return False, type(error).__name__


def check_answer(case, document, public_pem, work, problems):
    text = case["answer"]
    answer = json.loads(text)
    if not isinstance(answer, dict) or not set(answer) <= MEMBERS or len(answer) > 1:
        problems.append(f"not a RealtimeResponseBody with at most one of Apple's members: {sorted(answer)}")
        return None
    converter = _get_cattrs_converter(RealtimeResponseBody)
    model = converter.structure(answer, RealtimeResponseBody)
    if converter.unstructure(model) != answer:
        problems.append("Apple's model does not give back the same JSON: a member Apple does not have, or a value "
                        f"it reads otherwise: {converter.unstructure(model)}")
    kind = next(iter(answer), "default")
    bundle_id, key_id = document["bundleId"], document["keyId"]
    if model.promotionalOffer and model.promotionalOffer.promotionalOfferSignatureV2:
        token = model.promotionalOffer.promotionalOfferSignatureV2
        header = jwt.get_unverified_header(token)
        if header != {"alg": "ES256", "kid": key_id, "typ": "JWT"}:
            problems.append(f"V2 header {header}")
        claims = jwt.decode(token, public_pem, algorithms=["ES256"], audience="promotional-offer")
        expected = {"bid": bundle_id, "transactionId": case["originalTransactionId"],
                    "productId": "com.example.offerkit.monthly", "offerIdentifier": "WINBACK50"}
        for name, value in expected.items():
            if claims.get(name) != value:
                problems.append(f"V2 claim {name} is {claims.get(name)!r}, expected {value!r}")
        if str(uuid.UUID(claims["nonce"])) != claims["nonce"] or not isinstance(claims["iat"], int):
            problems.append(f"V2 nonce or iat: {claims}")
        kind = "promotionalOffer-v2"
    elif model.promotionalOffer and model.promotionalOffer.promotionalOfferSignatureV1:
        v1 = answer["promotionalOffer"]["promotionalOfferSignatureV1"]
        token = v1.get("appAccountToken", "")
        if v1["nonce"] != v1["nonce"].lower() or v1["keyId"] != key_id or not isinstance(v1["timestamp"], int):
            problems.append(f"V1 fields {v1}")
        if token and token != str(uuid.UUID(token)):
            problems.append(f"V1 appAccountToken is not a lower-case UUID: {token!r}")
        fields = [bundle_id, v1["keyId"], v1["productId"], v1["offerIdentifier"], token, v1["nonce"],
                  str(v1["timestamp"])]
        message, signature = os.path.join(work, "v1.msg"), os.path.join(work, "v1.der")
        with open(message, "wb") as handle:
            handle.write("\u2063".join(fields).encode())
        with open(signature, "wb") as handle:
            handle.write(base64.b64decode(v1["encodedSignature"], validate=True))
        result = subprocess.run(["openssl", "dgst", "-sha256", "-verify", document["publicKeyPath"], "-signature",
                                 signature, message], capture_output=True, text=True)
        if result.returncode != 0 or "Verified OK" not in result.stdout:
            problems.append(f"openssl refuses the V1 signature: {result.stdout} {result.stderr}")
        kind = "promotionalOffer-v1"
    elif model.advancedCommerceInfo:
        data = base64.b64decode(model.advancedCommerceInfo.advancedCommerceData, validate=True)
        wrapper = json.loads(data.decode("utf-8"))
        if set(wrapper) != {"signatureInfo"} or set(wrapper["signatureInfo"]) != {"token"}:
            problems.append(f"advancedCommerceData is not {{\"signatureInfo\":{{\"token\"}}}}: {wrapper}")
        token = wrapper["signatureInfo"]["token"]
        if jwt.get_unverified_header(token) != {"alg": "ES256", "kid": key_id, "typ": "JWT"}:
            problems.append("advanced commerce header")
        claims = jwt.decode(token, public_pem, algorithms=["ES256"], audience="advanced-commerce-api")
        if claims.get("bid") != bundle_id:
            problems.append(f"advanced commerce bid {claims.get('bid')}")
        request = json.loads(base64.b64decode(claims["request"], validate=True).decode("utf-8"))
        modify = _get_cattrs_converter(AdvancedCommerceSubscriptionModifyInAppRequest).structure(
            request, AdvancedCommerceSubscriptionModifyInAppRequest)
        if request.get("operation") != "MODIFY_SUBSCRIPTION" or modify.transactionId != case["originalTransactionId"]:
            problems.append(f"advanced commerce request {request}")
        if len(modify.changeItems or []) != 1 or modify.addItems or request.get("removeItems"):
            problems.append("advanced commerce request: not exactly one changeItems entry")
        uuid.UUID(request["requestInfo"]["requestReferenceId"])
    return kind


def main():
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    with open(sys.argv[1], encoding="utf-8") as handle:
        document = json.load(handle)
    document["publicKeyPath"] = sys.argv[2]
    with open(sys.argv[2], "rb") as handle:
        public_pem = handle.read()
    root = x509.load_pem_x509_certificate(document["rootPEM"].encode()).public_bytes(serialization.Encoding.DER)
    with tempfile.TemporaryDirectory() as work:
        for case in document["cases"]:
            accepted, status = apple_verdict(case, root)
            problems, kind = [], None
            if case.get("answer") is not None:
                try:
                    kind = check_answer(case, document, public_pem, work, problems)
                except Exception as error:  # an answer Apple's models or PyJWT cannot read
                    problems.append(f"{type(error).__name__}: {error}")
            print(json.dumps({"name": case["name"], "appleAccepted": accepted, "appleStatus": status, "kind": kind,
                              "problems": problems}))


if __name__ == "__main__":
    main()
