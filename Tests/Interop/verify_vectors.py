#!/usr/bin/env python3
"""Independent verifier for OfferKit interop vectors.

Uses only `cryptography` and `PyJWT` (not OfferKit's code) to check, for every vector:
  * the payload (or legacy message) rebuilt here from the inputs equals OfferKit's bytes exactly,
  * the header is exactly {"alg":"ES256","kid":...,"typ":"JWT"},
  * the segments are unpadded base64url of those bytes and signingInput is header.payload,
  * the signature verifies with `cryptography` (raw r||s for JWS, DER for legacy),
  * every JWS also decodes and verifies with PyJWT (ES256, audience checked).

Usage: verify_vectors.py FILE [FILE ...]    exit 0 when every vector passes.
"""
import base64
import json
import sys

import jwt
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature

SEPARATOR = "\u2063"


def compact(obj):
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def b64url_decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def expected_payload(v):
    """The payload JSON rebuilt from the inputs, member order as docs/formats.md §3 and §5 state it."""
    kind, inputs = v["kind"], v["inputs"]
    if kind in ("promotional-offer", "introductory-offer-eligibility", "advanced-commerce"):
        # The aud claim is the kind's name, except Advanced Commerce's, which is Apple's advanced-commerce-api.
        aud = "advanced-commerce-api" if kind == "advanced-commerce" else kind
        claims = {"iss": v["issuerId"], "iat": v["iat"], "aud": aud, "bid": v["bundleId"], "nonce": v["nonce"]}
        if kind == "promotional-offer":
            claims["productId"] = inputs["productId"]
            claims["offerIdentifier"] = inputs["offerIdentifier"]
            if inputs.get("transactionId") is not None:
                claims["transactionId"] = inputs["transactionId"]
        elif kind == "introductory-offer-eligibility":
            claims["productId"] = inputs["productId"]
            claims["allowIntroductoryOffer"] = inputs["allowIntroductoryOffer"]
            claims["transactionId"] = inputs["transactionId"]
        else:
            request_json = v["expected"]["requestJson"]
            if json.loads(request_json) != inputs:
                raise AssertionError("requestJson does not carry the same request as inputs")
            if request_json != compact(json.loads(request_json)):
                raise AssertionError("requestJson is not compact JSON")
            claims["request"] = base64.b64encode(request_json.encode("utf-8")).decode("ascii")
        return compact(claims)
    if kind == "server-api-token":
        iat = v["iat"]
        return compact({"iss": v["issuerId"], "iat": iat, "exp": iat + inputs["lifetime"],
                        "aud": "appstoreconnect-v1", "bid": v["bundleId"]})
    if kind == "connect-api-token":
        iat = v["iat"]
        claims = {"sub": "user"} if inputs.get("individual") else {"iss": v["issuerId"]}
        claims.update({"iat": iat, "exp": iat + inputs["lifetime"], "aud": "appstoreconnect-v1"})
        if inputs.get("scope"):
            claims["scope"] = inputs["scope"]
        return compact(claims)
    raise AssertionError(f"unknown kind {kind}")


def check_jws(v, public_key):
    e = v["expected"]
    header_json = compact({"alg": "ES256", "kid": v["keyId"], "typ": "JWT"})
    payload_json = expected_payload(v)
    assert e["headerJson"] == header_json, f"header differs:\n  {e['headerJson']}\n  {header_json}"
    assert e["payloadJson"] == payload_json, f"payload differs:\n  {e['payloadJson']}\n  {payload_json}"
    assert e["headerSegment"] == b64url(header_json.encode()), "headerSegment is not base64url(headerJson)"
    assert e["payloadSegment"] == b64url(payload_json.encode()), "payloadSegment is not base64url(payloadJson)"
    assert e["signingInput"] == e["headerSegment"] + "." + e["payloadSegment"], "signingInput"
    assert e["jws"] == e["signingInput"] + "." + e["signature"], "jws is not signingInput.signature"
    raw = b64url_decode(e["signature"])
    assert len(raw) == 64, f"ES256 signature must be 64 raw bytes, got {len(raw)}"
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    public_key.verify(der, e["signingInput"].encode("ascii"), ec.ECDSA(hashes.SHA256()))
    audience = json.loads(payload_json)["aud"]
    decoded = jwt.decode(e["jws"], public_key, algorithms=["ES256"], audience=audience,
                         options={"verify_exp": False, "verify_iat": False, "verify_nbf": False})
    assert decoded == json.loads(payload_json), "PyJWT decoded different claims"
    assert jwt.get_unverified_header(e["jws"]) == {"alg": "ES256", "kid": v["keyId"], "typ": "JWT"}


def check_legacy(v, public_key):
    e, inputs = v["expected"], v["inputs"]
    message = SEPARATOR.join([
        v["bundleId"], v["keyId"], inputs["productId"], inputs["offerIdentifier"],
        inputs.get("appAccountToken", "").lower(), v["nonce"], str(v["timestamp"]),
    ])
    assert e["message"] == message, f"message differs:\n  {e['message']!r}\n  {message!r}"
    assert e["messageHex"] == message.encode("utf-8").hex(), "messageHex"
    assert v["nonce"] == v["nonce"].lower(), "nonce must be lower-case"
    signature = base64.b64decode(e["signature"], validate=True)
    assert base64.b64encode(signature).decode() == e["signature"], "signature is not padded standard base64"
    public_key.verify(signature, message.encode("utf-8"), ec.ECDSA(hashes.SHA256()))


def main(paths):
    count = 0
    failures = []
    for path in paths:
        with open(path, encoding="utf-8") as handle:
            document = json.load(handle)
        for v in document["vectors"]:
            try:
                public_key = serialization.load_pem_public_key(v["publicKeyPem"].encode())
                assert isinstance(public_key.curve, ec.SECP256R1), "public key is not P-256"
                if v["kind"] == "legacy-promotional-offer":
                    check_legacy(v, public_key)
                else:
                    check_jws(v, public_key)
                count += 1
            except (AssertionError, InvalidSignature, jwt.PyJWTError, KeyError) as error:
                failures.append(f"{path}: {v.get('name')}: {type(error).__name__}: {error}")
    for failure in failures:
        print("FAIL", failure)
    print(f"interop: {count} passed, {len(failures)} failed")
    return 1 if failures or count == 0 else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
