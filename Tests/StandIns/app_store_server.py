#!/usr/bin/env python3
"""A strict local stand-in for Apple's Retention Messaging API on the App Store Server API (a TEST TOOL).

`offerkit retention` talks to Apple's Retention Messaging API; no test can reach Apple, so the tests run
this server instead. It is at least as strict as Apple's documentation: bearer tokens are verified (ES256
with the registered key, `kid`, `aud`, `iss`, a registered `bid`, `iat`/`exp` within 60 minutes); every
body is checked against Apple's documented rules (unknown members refused, lengths, UUIDs, enums, PNG
structure, size and transparency); each refusal carries Apple's error code and an `errorMessage`; state
is kept per app (messages and images start PENDING and are approved or rejected through the control API);
faults are injected on demand (429 with Retry-After, 500, 503, dropped connections, slow answers); and
the performance test is real: it calls the registered real-time URL concurrently with Retention Messaging
real-time requests it signs itself with a test certificate chain (root, intermediate with OID
1.2.840.113635.100.6.2.1, leaf with 1.2.840.113635.100.6.11.1), measures each answer and counts as a
success only a 200 whose body is a valid RealtimeResponseBody (also deserialized with Apple's own Python
model). See README.md next to this file: what is checked, which error codes are Apple's documented ones
and which are guesses, and the control API.

Usage:
  app_store_server.py --public-key PEM --key-id KEY_ID --issuer-id UUID --app BUNDLE_ID=APP_APPLE_ID [--app …]
                      [--products ID,ID] [--environment Sandbox|Production] [--port 0]
                      [--test-root-out FILE] [--verbose]

Prints exactly one line, `listening on http://127.0.0.1:PORT`, to stdout once it accepts connections,
and serves until SIGTERM or SIGINT. Exit 2: unusable arguments or input files.
"""

import argparse
import base64
import concurrent.futures
import copy
import http.client
import json
import math
import os
import re
import socket
import ssl
import sys
import threading
import time
import uuid
import zlib
from collections import deque
from urllib.parse import parse_qsl, urlsplit

sys.dont_write_bytecode = True  # a test tool: leave no __pycache__ in the source tree
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "Fixtures", "apple-signed"))
sys.path.insert(0, HERE)
import standin_support  # noqa: E402  (what both stand-ins share: tokens, faults, control API, HTTP, start-up)
import make_apple_signed as chain_maker  # noqa: E402  (the test chain of OfferAppleVerification's tests)
from standin_support import (  # noqa: E402  (shared with the App Store Connect stand-in)
    TOKEN_SKEW_SECONDS, Reply, TokenError, check_lifetime, media_type, require_seconds, strict_json_loads)

TOKEN_MAX_LIFETIME_SECONDS = 3600
MAX_BODY_BYTES = 50 * 1024 * 1024
MAX_ANSWER_BYTES = 1024 * 1024  # what the performance test reads of an endpoint's answer (a real-time answer is small)
HEADER_MAX, BODY_MAX, ALT_TEXT_MAX, BULLET_TEXT_MAX, BULLET_POINTS_MAX, REALTIME_URL_MAX = 66, 144, 150, 66, 5, 256
UUID_PATTERN = re.compile(r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")
DIGITS = re.compile(r"^[0-9]{1,64}$")
IMAGE_SIZES = {"FULL_SIZE": ((3840, 3840), (160, 2160)), "BULLET_POINT": ((1024, 1024), (1024, 1024))}
HEADER_POSITIONS = ("ABOVE_BODY", "ABOVE_IMAGE")
STATES = ("PENDING", "APPROVED", "REJECTED")
SEND_ATTEMPT_RESULTS = ("SUCCESS", "TIMED_OUT", "TLS_ISSUE", "CIRCULAR_REDIRECT", "NO_RESPONSE", "SOCKET_ISSUE",
                        "UNSUPPORTED_CHARSET", "INVALID_RESPONSE", "PREMATURE_CLOSE",
                        "UNSUCCESSFUL_HTTP_RESPONSE_CODE", "OTHER")
BILLING_PLAN_TYPES = ("MONTHLY", "BILLED_UPFRONT")
# App Store Connect's locale short codes (case-sensitive), the list Retention Messaging's `locale` refers to;
# POST /_standin/config {"locales": [...]} replaces it.
LOCALES = ["ar-SA", "ca", "cs", "da", "de-DE", "el", "en-AU", "en-CA", "en-GB", "en-US", "es-ES", "es-MX", "fi",
           "fr-CA", "fr-FR", "he", "hi", "hr", "hu", "id", "it", "ja", "ko", "ms", "nl-NL", "no", "pl", "pt-BR",
           "pt-PT", "ro", "ru", "sk", "sv", "th", "tr", "uk", "vi", "zh-Hans", "zh-Hant"]

# Apple's error codes (numbers from Apple's app-store-server-library 3.1.2; HTTP status = the first 3 digits)
# and the errorMessage the stand-in sends (Apple's documented meaning).
ERRORS = {
    4000000: "The request is invalid and can't be processed.",
    4000006: "Invalid transaction id.",
    4000023: "Invalid product id.",
    4000161: "The image that's uploading is invalid.",
    4000162: "The header text is too long.",
    4000163: "The body text is too long.",
    4000164: "The locale is invalid.",
    4000175: "The alternative text for an image is too long.",
    4000211: "The performance test request is invalid.",
    4000212: "The request ID is invalid.",
    4000213: "A performance test is already running.",
    4000215: "The URL is invalid.",
    4000216: "The image size provided is invalid.",
    4000218: "There are too many bullet points.",
    4000219: "The text for a bullet point is too long.",
    4000224: "The header is placed above the image, but no image is included.",
    4030014: "The maximum number of uploaded images is reached.",
    4030016: "The maximum number of uploaded messages is reached.",
    4030017: "The message isn't in the approved state.",
    4030018: "The image isn't in the approved state.",
    4030019: "The image is in use as part of a message.",
    4030026: "Passing a performance test is required before you can set a URL for the production environment.",
    4040014: "The image identifier can't be found.",
    4040015: "The message identifier can't be found.",
    4040018: "The performance test run can't be found.",
    4040020: "A default message isn't configured.",
    4040021: "The URL for the endpoint isn't configured.",
    4090000: "The image identifier already exists.",
    4090001: "The message identifier already exists.",
    4290000: "Rate limit exceeded.",
    5000000: "An unknown error occurred.",
    5000001: "An unknown error occurred. Please try again.",
}

# Apple's rate limits per endpoint in production, requests per second ("Identifying rate limits"); the system
# enforces them per hour and per app, and the sandbox has 10 % of them.
RATE_LIMITS_PER_SECOND = {
    "Configure Default Message": 10, "Configure Realtime URL": 1, "Delete Default Message": 1, "Delete Image": 1,
    "Delete Message": 1, "Delete Realtime URL": 1, "Get Default Message": 1, "Get Image List": 1,
    "Get Message List": 1, "Get Performance Test Results": 1, "Get Realtime URL": 1,
    "Initiate Performance Test": 1, "Upload Image": 1, "Upload Message": 1,
}

# (method, template) -> Apple's endpoint name. {id} is one path segment.
ROUTES = [
    ("PUT", "/inApps/v1/messaging/message/{id}", "Upload Message"),
    ("DELETE", "/inApps/v1/messaging/message/{id}", "Delete Message"),
    ("GET", "/inApps/v1/messaging/message/list", "Get Message List"),
    ("PUT", "/inApps/v1/messaging/image/{id}", "Upload Image"),
    ("DELETE", "/inApps/v1/messaging/image/{id}", "Delete Image"),
    ("GET", "/inApps/v1/messaging/image/list", "Get Image List"),
    ("PUT", "/inApps/v1/messaging/default/{id}/{id}", "Configure Default Message"),
    ("GET", "/inApps/v1/messaging/default/{id}/{id}", "Get Default Message"),
    ("DELETE", "/inApps/v1/messaging/default/{id}/{id}", "Delete Default Message"),
    ("PUT", "/inApps/v1/messaging/realtime/url", "Configure Realtime URL"),
    ("GET", "/inApps/v1/messaging/realtime/url", "Get Realtime URL"),
    ("DELETE", "/inApps/v1/messaging/realtime/url", "Delete Realtime URL"),
    ("POST", "/inApps/v1/messaging/performanceTest", "Initiate Performance Test"),
    ("GET", "/inApps/v1/messaging/performanceTest/result/{id}", "Get Performance Test Results"),
]
COMPILED_ROUTES = [(method, template, name, re.compile("^" + re.escape(template).replace(r"\{id\}", "([^/]+)") + "$"))
                   for method, template, name in ROUTES]


class ApiError(Exception):
    """A refusal in Apple's format: `{"errorCode": N, "errorMessage": "…"}` with the status N's first 3 digits."""

    def __init__(self, code, detail=None, headers=None, status=None):
        self.code = code
        self.status = status or code // 10000
        self.message = ERRORS[code] + (f" (stand-in: {detail})" if detail else "")
        self.headers = headers or {}
        super().__init__(f"{self.status} {code} {self.message}")

    def body(self):
        return {"errorCode": self.code, "errorMessage": self.message}


class Refusal(Exception):
    """An answer without Apple's error body (401, 404 of an unknown path, 405)."""

    def __init__(self, status, reason, headers=None):
        super().__init__(reason)
        self.status = status
        self.reason = reason
        self.headers = headers or {}


def is_uuid(value):
    return isinstance(value, str) and bool(UUID_PATTERN.match(value))


def strict_json(body, what):
    """A JSON document without repeated members or NaN/Infinity; ValueError naming the problem."""
    try:
        return strict_json_loads(body)
    except (UnicodeDecodeError, ValueError) as error:
        raise ValueError(f"{what} is not JSON: {error}")


def members(value, allowed, required, path, code=4000000):
    """Checks an object's members: only `allowed`, each of `required`, no null; ApiError(code) otherwise."""
    if not isinstance(value, dict):
        raise ApiError(code, f"{path or 'the body'} must be an object, not {type(value).__name__}")
    for key in value:
        if key not in allowed:
            raise ApiError(code, f"{path + '.' if path else ''}{key} is not a member Apple documents "
                                 f"(expected {', '.join(sorted(allowed))})")
        if value[key] is None:
            raise ApiError(code, f"{path + '.' if path else ''}{key} is null")
    for key in required:
        if key not in value:
            raise ApiError(code, f"{path + '.' if path else ''}{key} is required")


def text(value, path, maximum, too_long_code):
    """A required string of 1 to `maximum` Unicode characters (code points, as Apple's Python library counts)."""
    if not isinstance(value, str):
        raise ApiError(4000000, f"{path} must be a string")
    if not value:
        raise ApiError(4000000, f"{path} is empty")
    if len(value) > maximum:
        raise ApiError(too_long_code, f"{path} is {len(value)} characters, at most {maximum}")
    return value


# ---------------------------------------------------------------------------------------------
# Tokens
# ---------------------------------------------------------------------------------------------

class TokenVerifier(standin_support.BearerTokenVerifier):
    """App Store Server API bearer tokens (docs/formats.md §5): ES256 with the registered key, checked strictly."""

    def __init__(self, key, key_id, issuer_id, apps):
        super().__init__(key, key_id, "registered")
        self.issuer_id = issuer_id
        self.apps = apps

    def verify(self, authorization, now, accept_missing_iat):
        """The token's (header, claims) when the request may proceed; TokenError(reason, detail) otherwise."""
        header, claims = self._cached(authorization, now)
        if claims["exp"] <= now:
            raise TokenError("expired", f"the token expired at {claims['exp']} (now {int(now)})")
        if "iat" not in claims and not accept_missing_iat:
            raise TokenError("iat", "iat is missing (Apple's documentation lists iat; see acceptTokensWithoutIat)")
        return header, claims

    def _verify_new(self, token, now):
        header, claims = self._signed_claims(token)
        if claims.get("iss") != self.issuer_id:
            raise TokenError("iss", f"iss is {claims.get('iss')!r}, expected the issuer id")
        if claims.get("bid") not in self.apps:
            raise TokenError("bid", f"bid is {claims.get('bid')!r}, not a registered app ({', '.join(self.apps)})")
        exp = claims.get("exp")
        require_seconds("exp", exp)
        if "iat" in claims:
            iat = claims["iat"]
            require_seconds("iat", iat)
            check_lifetime(iat, exp, now, TOKEN_MAX_LIFETIME_SECONDS)
        elif exp > int(now) + TOKEN_MAX_LIFETIME_SECONDS + TOKEN_SKEW_SECONDS:
            # Integers only: `exp - now` with a float `now` overflows for an exp beyond a float's range.
            raise TokenError("lifetime", f"exp is more than {TOKEN_MAX_LIFETIME_SECONDS} s (and "
                                         f"{TOKEN_SKEW_SECONDS} s of clock skew) away")
        return header, claims


# ---------------------------------------------------------------------------------------------
# PNG
# ---------------------------------------------------------------------------------------------

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}
DEPTHS = {0: (1, 2, 4, 8, 16), 2: (8, 16), 3: (1, 2, 4, 8), 4: (8, 16), 6: (8, 16)}
ADAM7 = ((0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2))


def check_png(data):
    """(width, height, color type, transparent) of a well-formed PNG: signature, chunks and CRCs, IHDR first,
    PLTE for palette images, consecutive IDATs whose zlib stream inflates to exactly the scanlines the header
    says (each starting with a filter byte 0-4), IEND last. ValueError naming the problem otherwise."""
    if data[:8] != PNG_SIGNATURE:
        raise ValueError("no PNG signature")
    index, header, idat, palette, transparency, ended, data_ended = 8, None, [], False, False, False, False
    while index < len(data):
        if ended:
            raise ValueError("bytes after IEND")
        if len(data) - index < 12:
            raise ValueError(f"a chunk cut off at byte {index}")
        length = int.from_bytes(data[index:index + 4], "big")
        kind = data[index + 4:index + 8]
        if length > 0x7FFFFFFF or index + 12 + length > len(data):
            raise ValueError(f"a chunk of {length} bytes runs past the end at byte {index}")
        if not all(65 <= byte <= 90 or 97 <= byte <= 122 for byte in kind):
            raise ValueError(f"a chunk type that is not 4 letters at byte {index + 4}")
        body = data[index + 8:index + 8 + length]
        crc = int.from_bytes(data[index + 8 + length:index + 12 + length], "big")
        if zlib.crc32(kind + body) != crc:
            raise ValueError(f"the {kind.decode()} chunk's CRC-32 does not match")
        name = kind.decode()
        if header is None and name != "IHDR":
            raise ValueError(f"{name} before IHDR")
        if name == "IHDR":
            if header is not None or length != 13:
                raise ValueError("a second IHDR, or one that is not 13 bytes")
            width, height = int.from_bytes(body[0:4], "big"), int.from_bytes(body[4:8], "big")
            depth, color, compression, filtering, interlace = body[8], body[9], body[10], body[11], body[12]
            if not (0 < width <= 0x7FFFFFFF and 0 < height <= 0x7FFFFFFF):
                raise ValueError("a width or height of 0")
            if depth not in DEPTHS.get(color, ()):
                raise ValueError(f"colour type {color} with bit depth {depth}")
            if compression or filtering or interlace > 1:
                raise ValueError("an unknown compression, filter or interlace method")
            header = (width, height, depth, color, interlace)
        elif name == "PLTE":
            palette = True
        elif name == "tRNS":
            transparency = True
        elif name == "IDAT":
            if data_ended:
                raise ValueError("IDAT chunks that are not consecutive")
            idat.append(body)
        elif name == "IEND":
            if length:
                raise ValueError("IEND with data")
            ended = True
        if name != "IDAT" and idat:
            data_ended = True
        index += 12 + length
    if header is None or not idat or not ended:
        raise ValueError("no IHDR, IDAT or IEND (a cut-off file?)")
    width, height, depth, color, interlace = header
    if color == 3 and not palette:
        raise ValueError("a palette image without PLTE")
    bits = CHANNELS[color] * depth
    passes = ADAM7 if interlace else ((0, 0, 1, 1),)
    rows = []  # bytes per scanline (filter byte included), for every scanline of every pass
    for x0, y0, dx, dy in passes:
        columns = (width - x0 + dx - 1) // dx if width > x0 else 0
        lines = (height - y0 + dy - 1) // dy if height > y0 else 0
        if columns and lines:
            rows += [1 + (columns * bits + 7) // 8] * lines
    expected = sum(rows)
    inflater = zlib.decompressobj()
    try:
        raw = inflater.decompress(b"".join(idat), expected + 1)
    except zlib.error as error:
        raise ValueError(f"the image data does not inflate: {error}")
    if len(raw) != expected or not inflater.eof or inflater.unconsumed_tail:
        raise ValueError(f"the image data inflates to {len(raw)} bytes{'' if inflater.eof else ' or more'}, "
                         f"the header says {expected}")
    offset = 0
    for row in rows:
        if raw[offset] > 4:
            raise ValueError(f"a scanline with filter type {raw[offset]}")
        offset += row
    return width, height, color, transparency or color in (4, 6)


# ---------------------------------------------------------------------------------------------
# Rate limits
# ---------------------------------------------------------------------------------------------

class RateLimits:
    """Apple's per-endpoint, per-app hourly limits: a rolling hour of requests for each (app, endpoint)."""

    def __init__(self, environment):
        scale = 0.1 if environment == "Sandbox" else 1.0
        self.defaults = {name: int(rate * 3600 * scale) for name, rate in RATE_LIMITS_PER_SECOND.items()}
        self.overrides = {}
        self.windows = {}

    def limit(self, endpoint):
        return self.overrides.get(endpoint, self.defaults[endpoint])

    def admit(self, app, endpoint, now):
        """None when admitted (and counted); else the UNIX time in milliseconds when the next request may go."""
        window = self.windows.setdefault((app, endpoint), deque())
        while window and window[0] <= now - 3600:
            window.popleft()
        if len(window) >= self.limit(endpoint):
            return int((window[0] + 3600) * 1000) + 1
        window.append(now)
        return None


# ---------------------------------------------------------------------------------------------
# The performance test
# ---------------------------------------------------------------------------------------------

class TestChain:
    """A root, an intermediate (OID 1.2.840.113635.100.6.2.1) and a leaf (OID 1.2.840.113635.100.6.11.1), made
    at start-up with Tests/Fixtures/apple-signed/make_apple_signed.py; the leaf signs the real-time requests."""

    def __init__(self):
        from cryptography.hazmat.primitives.asymmetric import ec
        root_key = chain_maker.key(ec.SECP384R1)
        self.root = chain_maker.certificate("OfferKit Stand-in Root CA - G3", root_key, ca=True)
        intermediate_key = chain_maker.key()
        intermediate = chain_maker.certificate("OfferKit Stand-in WWDR - G6", intermediate_key, self.root, root_key,
                                               ca=True, path_length=0, oid=chain_maker.INTERMEDIATE_OID)
        self.leaf_key = chain_maker.key()
        leaf = chain_maker.certificate("OfferKit Stand-in StoreKit Signing", self.leaf_key, intermediate,
                                       intermediate_key, oid=chain_maker.LEAF_OID)
        self.chain = [leaf, intermediate, self.root]
        self.root_pem = chain_maker.pem(self.root)

    def sign(self, payload):
        return chain_maker.sign(payload, self.leaf_key, self.chain)


def realtime_response_problem(document):
    """Why a body is not a valid RealtimeResponseBody (None when it is). Checked here as Apple documents it:
    an object with at most one of message, alternateProduct, promotionalOffer, advancedCommerceInfo (none:
    Apple shows the default message), no other member, each with its documented members; then deserialized
    with Apple's own model (app-store-server-library)."""
    if not isinstance(document, dict):
        return "the body is not a JSON object"
    kinds = ("message", "alternateProduct", "promotionalOffer", "advancedCommerceInfo")
    unknown = [key for key in document if key not in kinds]
    if unknown:
        return f"unknown members {unknown}"
    present = [key for key in kinds if key in document]
    if len(present) > 1:
        return f"more than one of {present} (Apple: if you supply one, don't include the others)"
    try:
        for key in present:
            value = document[key]
            if key == "message":
                members(value, {"messageIdentifier"}, ("messageIdentifier",), key)
            elif key == "alternateProduct":
                members(value, {"messageIdentifier", "productId", "billingPlanType"},
                        ("messageIdentifier", "productId"), key)
                if not isinstance(value["productId"], str) or not value["productId"]:
                    return "alternateProduct.productId is not a non-empty string"
                if "billingPlanType" in value and value["billingPlanType"] not in BILLING_PLAN_TYPES:
                    return f"alternateProduct.billingPlanType {value['billingPlanType']!r} is not {BILLING_PLAN_TYPES}"
            elif key == "promotionalOffer":
                members(value, {"messageIdentifier", "promotionalOfferSignatureV1", "promotionalOfferSignatureV2"},
                        ("messageIdentifier",), key)
                signatures = [name for name in ("promotionalOfferSignatureV1", "promotionalOfferSignatureV2")
                              if name in value]
                if len(signatures) != 1:
                    return "promotionalOffer needs exactly one of promotionalOfferSignatureV1 and V2"
                if signatures[0] == "promotionalOfferSignatureV2":
                    problem = compact_jws_problem(value["promotionalOfferSignatureV2"])
                    if problem:
                        return f"promotionalOffer.promotionalOfferSignatureV2: {problem}"
                else:
                    v1 = value["promotionalOfferSignatureV1"]
                    members(v1, {"encodedSignature", "productId", "nonce", "timestamp", "keyId", "offerIdentifier",
                                 "appAccountToken"},
                            ("encodedSignature", "productId", "nonce", "timestamp", "keyId", "offerIdentifier"),
                            "promotionalOffer.promotionalOfferSignatureV1")
                    for name in ("encodedSignature", "productId", "keyId", "offerIdentifier"):
                        if not isinstance(v1[name], str) or not v1[name]:
                            return f"promotionalOfferSignatureV1.{name} is not a non-empty string"
                    if not isinstance(v1["timestamp"], int) or isinstance(v1["timestamp"], bool):
                        return "promotionalOfferSignatureV1.timestamp is not an integer"
                    for name in ("nonce", "appAccountToken"):
                        if name in v1 and (not is_uuid(v1[name]) or v1[name] != v1[name].lower()):
                            return f"promotionalOfferSignatureV1.{name} is not a lower-case UUID (Apple: use lowercase)"
                    try:
                        base64.b64decode(v1["encodedSignature"], validate=True)
                    except ValueError:
                        return "promotionalOfferSignatureV1.encodedSignature is not base64"
            else:
                members(value, {"messageIdentifier", "advancedCommerceData"},
                        ("messageIdentifier", "advancedCommerceData"), key)
                if not isinstance(value["advancedCommerceData"], str):
                    return "advancedCommerceInfo.advancedCommerceData is not a string"
                try:
                    base64.b64decode(value["advancedCommerceData"], validate=True)
                except ValueError:
                    return "advancedCommerceInfo.advancedCommerceData is not base64"
            if not is_uuid(value["messageIdentifier"]):
                return f"{key}.messageIdentifier is not a UUID"
    except ApiError as error:
        return error.message
    try:
        from appstoreserverlibrary.models.LibraryUtility import _get_cattrs_converter
        from appstoreserverlibrary.models.RealtimeResponseBody import RealtimeResponseBody
        _get_cattrs_converter(RealtimeResponseBody).structure(document, RealtimeResponseBody)
    except ImportError:
        pass  # the stand-in's own checks above still hold; its tests run with Apple's library installed
    except Exception as error:  # noqa: BLE001  (any refusal by Apple's model)
        return f"Apple's RealtimeResponseBody model refuses it: {error}"
    return None


def answer_kind(document):
    """What a valid RealtimeResponseBody chose: its member (`message`, …), `promotionalOffer.` and the signature's
    member for an offer, `{}` for the default message."""
    kind = next(iter(document), "{}")
    if kind == "promotionalOffer":
        kind += "." + next(key for key in document[kind] if key.startswith("promotionalOfferSignature"))
    return kind


def compact_jws_problem(value):
    """Why a promotional offer's JWS is not as Apple documents it ("Generating JWS to sign App Store requests";
    `promotionalOfferSignatureV2`: transactionId is required in a real-time answer), or None. The signature is
    not verified (the stand-in does not know which of the team's keys the kid names), but it must be ES256's raw
    64-byte r||s (RFC 7518; DER is a bug)."""
    if not isinstance(value, str):
        return "not a string"
    parts = value.split(".")
    if len(parts) != 3 or not all(re.fullmatch(r"[A-Za-z0-9_-]+", part) for part in parts):
        return "not a compact JWS (three base64url parts)"
    decoded = []
    for name, part in (("header", parts[0]), ("payload", parts[1])):
        try:
            decoded.append(strict_json(base64.urlsafe_b64decode(part + "=" * (-len(part) % 4)), f"its {name}"))
        except ValueError as error:
            return f"its {name} is not base64url JSON ({error})"
    header, claims = decoded
    if not isinstance(header, dict) or header.get("alg") != "ES256" or not isinstance(header.get("kid"), str) \
            or not header["kid"] or header.get("typ") != "JWT":
        return "its header is not {alg: ES256, kid, typ: JWT}"
    if len(parts[2]) != 86:  # base64url of 64 bytes, unpadded
        return "its signature is not ES256's 64-byte r||s (a DER signature?)"
    if not isinstance(claims, dict):
        return "its payload is not a JSON object"
    if claims.get("aud") != "promotional-offer":
        return f"aud is {claims.get('aud')!r}, expected 'promotional-offer'"
    iat = claims.get("iat")
    if not isinstance(iat, int) or isinstance(iat, bool):
        return f"iat is {iat!r}, expected an integer (seconds since 1970)"
    if "exp" in claims:
        return "it has an exp, which Apple's promotional offer JWS does not"
    if not is_uuid(claims.get("nonce")):
        return f"nonce is {claims.get('nonce')!r}, expected a UUID"
    for name in ("iss", "bid", "productId", "offerIdentifier", "transactionId"):
        if not isinstance(claims.get(name), str) or not claims[name]:
            return f"{name} is {claims.get(name)!r}, expected a non-empty string" + \
                (" (required in a real-time answer: the request's originalTransactionId)"
                 if name == "transactionId" else "")
    return None


class PerformanceTest:
    """One run: `totalRequests` signed real-time requests spread over `totalDuration`, at most
    `maxConcurrentRequests` in flight; an answer later than `responseTimeThreshold` is TIMED_OUT."""

    def __init__(self, request_id, config, target, deliver_to, payload_base, chain, verbose):
        self.request_id = request_id
        self.config = dict(config)
        self.target = target
        self.deliver_to = deliver_to
        self.payload_base = payload_base
        self.chain = chain
        self.verbose = verbose
        self.lock = threading.Lock()
        self.outcomes = []      # (milliseconds, SendAttemptResult)
        self.answers = []       # the first answers' notes (a success's body too), for the state
        self.answer_kinds = {}  # what each SUCCESS chose (answer_kind): "message", "{}", …
        self.done = threading.Event()
        self.started = time.time()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def start(self):
        self.thread.start()

    def _run(self):
        total = self.config["totalRequests"]
        spacing = self.config["totalDuration"] / 1000.0 / max(total, 1)
        begin = time.monotonic()
        with concurrent.futures.ThreadPoolExecutor(max_workers=self.config["maxConcurrentRequests"]) as pool:
            futures = [pool.submit(self._one, begin + index * spacing) for index in range(total)]
            concurrent.futures.wait(futures)
        self.done.set()

    def _one(self, start_at):
        delay = start_at - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        payload = dict(self.payload_base, requestIdentifier=str(uuid.uuid4()), signedDate=int(time.time() * 1000))
        body = json.dumps({"signedPayload": self.chain.sign(payload)}, separators=(",", ":")).encode()
        threshold = self.config["responseTimeThreshold"] / 1000.0
        began = time.monotonic()
        outcome, note, document = self._send(body, threshold)
        elapsed = time.monotonic() - began
        if outcome == "SUCCESS" and elapsed > threshold:
            outcome, note = "TIMED_OUT", f"answered after {int(elapsed * 1000)} ms"
        milliseconds = int(round(min(elapsed, threshold if outcome == "TIMED_OUT" else elapsed) * 1000))
        with self.lock:
            self.outcomes.append((milliseconds, outcome))
            if outcome == "SUCCESS":
                kind = answer_kind(document)
                self.answer_kinds[kind] = self.answer_kinds.get(kind, 0) + 1
            if len(self.answers) < 20 and (outcome != "SUCCESS" or len(self.answers) < 3):
                answer = {"outcome": outcome, "milliseconds": milliseconds, "note": note,
                          "requestIdentifier": payload["requestIdentifier"]}
                if outcome == "SUCCESS":
                    answer["body"] = document  # the endpoint's RealtimeResponseBody, as it answered
                self.answers.append(answer)
        if self.verbose and outcome != "SUCCESS":
            print(f"performance test {self.request_id}: {outcome} {note}", file=sys.stderr)

    def _send(self, body, threshold):
        target = urlsplit(self.target)
        url = urlsplit(self.deliver_to) if self.deliver_to else target
        path = (target.path or "/") + (f"?{target.query}" if target.query else "")
        try:
            if url.scheme == "https":
                connection = http.client.HTTPSConnection(url.hostname, url.port or 443, timeout=threshold,
                                                         context=ssl.create_default_context())
            else:
                connection = http.client.HTTPConnection(url.hostname, url.port or 80, timeout=threshold)
            try:
                connection.request("POST", path, body=body, headers={"Content-Type": "application/json"})
                response = connection.getresponse()
                data = response.read(MAX_ANSWER_BYTES + 1)  # an endpoint that answers without end fails
            finally:
                connection.close()
        except (socket.timeout, TimeoutError):
            return "TIMED_OUT", f"no answer within {int(threshold * 1000)} ms", None
        except ssl.SSLError as error:
            return "TLS_ISSUE", str(error), None
        except ConnectionRefusedError as error:
            return "SOCKET_ISSUE", str(error), None
        except http.client.RemoteDisconnected as error:
            return "NO_RESPONSE", str(error), None
        except (http.client.IncompleteRead, ConnectionResetError, BrokenPipeError) as error:
            return "PREMATURE_CLOSE", str(error) or type(error).__name__, None
        except http.client.HTTPException as error:
            return "INVALID_RESPONSE", f"{type(error).__name__}: {error}", None
        except OSError as error:
            return "SOCKET_ISSUE", str(error), None
        except Exception as error:  # noqa: BLE001
            return "OTHER", f"{type(error).__name__}: {error}", None
        if response.status != 200:
            return "UNSUCCESSFUL_HTTP_RESPONSE_CODE", f"HTTP {response.status}", None
        if len(data) > MAX_ANSWER_BYTES:
            return "INVALID_RESPONSE", f"the answer is longer than {MAX_ANSWER_BYTES} bytes", None
        content_type = response.getheader("Content-Type") or ""
        charset = re.search(r"charset=\"?([^\";]+)", content_type, re.IGNORECASE)
        if charset and charset.group(1).strip().lower() not in ("utf-8", "utf8"):
            return "UNSUPPORTED_CHARSET", f"charset {charset.group(1)}", None
        try:
            document = strict_json(data, "the answer")
        except ValueError as error:
            return "INVALID_RESPONSE", str(error), None
        problem = realtime_response_problem(document)
        if problem:
            return "INVALID_RESPONSE", problem, None
        return "SUCCESS", next((key for key in document), "{} (the default message)"), document

    def result(self):
        """Apple's PerformanceTestResultResponse: PENDING while running, then PASS or FAIL."""
        with self.lock:
            outcomes = list(self.outcomes)
        total = self.config["totalRequests"]
        successes = sum(1 for _, outcome in outcomes if outcome == "SUCCESS")
        failures = {}
        for _, outcome in outcomes:
            if outcome != "SUCCESS":
                failures[outcome] = failures.get(outcome, 0) + 1
        times = sorted(milliseconds for milliseconds, _ in outcomes)

        def percentile(share):
            if not times:
                return 0
            return times[min(len(times) - 1, max(0, math.ceil(share * len(times)) - 1))]

        finished = self.done.is_set()
        rate = (successes * 100) // total if total else 100
        if not finished:
            verdict = "PENDING"
        else:
            verdict = "PASS" if rate >= self.config["successRateThreshold"] else "FAIL"
        return {"config": self.config, "target": self.target, "result": verdict,
                "successRate": (successes * 100) // len(outcomes) if outcomes and not finished else rate,
                "numPending": total - len(outcomes),
                "responseTimes": {"average": int(sum(times) / len(times)) if times else 0, "p50": percentile(0.5),
                                  "p90": percentile(0.9), "p95": percentile(0.95), "p99": percentile(0.99)},
                "failures": failures}

    def public(self):
        result = self.result()
        with self.lock:
            answers = list(self.answers)
            kinds = dict(self.answer_kinds)
        return {"requestId": self.request_id, "deliverTo": self.deliver_to, "answers": answers, "answerKinds": kinds,
                **result}


# ---------------------------------------------------------------------------------------------
# The stand-in
# ---------------------------------------------------------------------------------------------

class AppState:
    """One app's Retention Messaging data (per bundle ID, as the token's bid names it)."""

    def __init__(self, bundle_id, app_apple_id):
        self.bundle_id = bundle_id
        self.app_apple_id = app_apple_id
        self.messages = {}      # lower-case id -> {"state", "body", "order"}
        self.images = {}        # lower-case id -> {"state", "size", "width", "height", "bytes", "order"}
        self.defaults = {}      # (product, locale) -> message id
        self.realtime_url = None
        self.tests = {}         # requestId -> PerformanceTest
        self.passed_test = False
        self.order = 0

    def images_used_by(self, message_body):
        used = []
        if "image" in message_body:
            used.append(message_body["image"]["imageIdentifier"].lower())
        used += [point["imageIdentifier"].lower() for point in message_body.get("bulletPoints", [])]
        return used

    def public(self):
        return {
            "bundleId": self.bundle_id, "appAppleId": self.app_apple_id, "realtimeURL": self.realtime_url,
            "performanceTestPassed": self.passed_test,
            "messages": [{"messageIdentifier": key, "messageState": value["state"], "body": value["body"]}
                         for key, value in sorted(self.messages.items(), key=lambda item: item[1]["order"])],
            "images": [{"imageIdentifier": key, "imageState": value["state"], "imageSize": value["size"],
                        "width": value["width"], "height": value["height"], "bytes": value["bytes"]}
                       for key, value in sorted(self.images.items(), key=lambda item: item[1]["order"])],
            "defaults": [{"productId": product, "locale": locale, "messageIdentifier": message}
                         for (product, locale), message in sorted(self.defaults.items())],
            "performanceTests": [test.public() for test in self.tests.values()],
        }


DEFAULT_CONFIG = {
    "performanceTest": {"maxConcurrentRequests": 4, "totalRequests": 40, "totalDuration": 2000,
                        "responseTimeThreshold": 700, "successRateThreshold": 90},
    "realtimeRequest": {"productId": None, "userLocale": "en-US"},
    "productIds": [],
    "locales": LOCALES,
    "deliverTo": None,
    "autoApprove": False,
    "acceptTokensWithoutIat": False,
    "maxMessages": 2000,
    "maxImages": 2000,
    "rateLimits": {},
    "slowSeconds": 5.0,
    "performanceTestPassed": False,
}


class StandIn(standin_support.StandInApp):
    """The application: routing, checks, rules and state. Everything it changes is guarded by `lock`."""

    CONTROL_POSTS = ("/_standin/config", "/_standin/faults", "/_standin/review")
    CONTROL_GETS = (*standin_support.StandInApp.CONTROL_GETS, "/_standin/test-root.pem")

    def __init__(self, verifier, apps, products, environment, verbose=False):
        self.verifier = verifier
        self.app_ids = apps                 # bundle ID -> App Apple ID
        self.products = list(products)
        self.environment = environment
        self.verbose = verbose
        self.chain = TestChain()
        self.lock = threading.Lock()
        self.reset()

    def reset(self):
        with self.lock:
            self.config = copy.deepcopy(DEFAULT_CONFIG)
            self.config["productIds"] = list(self.products)
            self.apps = {bundle: AppState(bundle, apple_id) for bundle, apple_id in self.app_ids.items()}
            self.limits = RateLimits(self.environment)
            self._reset_shared({"refusals": {}, "rateLimited": 0})
            self.tokens = []            # header and claims of each distinct accepted token (first 100)
            self.log = []               # every API request: seq, method, path, status, errorCode, outcome

    def state(self):
        with self.lock:
            result = {"environment": self.environment, "config": copy.deepcopy(self.config),
                      "apps": {bundle: app.public() for bundle, app in self.apps.items()},
                      "tokens": copy.deepcopy(self.tokens), "log": list(self.log),
                      "faults": self.faults.public()}
            result.update(copy.deepcopy(self.counters))
            return result

    def configure(self, update):
        standin_support.check_config_members(update, DEFAULT_CONFIG)
        checked = {}
        for name, value in update.items():
            if name == "performanceTest":
                if not isinstance(value, dict) or set(value) - set(DEFAULT_CONFIG["performanceTest"]):
                    raise ValueError(f"performanceTest takes {sorted(DEFAULT_CONFIG['performanceTest'])}")
                for key, number in value.items():
                    if not isinstance(number, int) or isinstance(number, bool) or number < 0:
                        raise ValueError(f"performanceTest.{key} must be a non-negative integer")
                merged = dict(self.config["performanceTest"], **value)
                if merged["maxConcurrentRequests"] < 1 or merged["totalRequests"] < 1 \
                        or merged["totalRequests"] > 100_000 or merged["maxConcurrentRequests"] > 256 \
                        or merged["successRateThreshold"] > 100:
                    raise ValueError("performanceTest: 1-256 concurrent, 1-100000 requests, a threshold of 0-100 %")
                checked[name] = merged
            elif name == "realtimeRequest":
                if not isinstance(value, dict) or set(value) - {"productId", "userLocale"}:
                    raise ValueError("realtimeRequest takes productId and userLocale")
                if not all(isinstance(item, str) or item is None for item in value.values()):
                    raise ValueError("realtimeRequest's members are strings")
                checked[name] = dict(self.config["realtimeRequest"], **value)
            elif name in ("productIds", "locales"):
                if not isinstance(value, list) or not all(isinstance(item, str) and item for item in value):
                    raise ValueError(f"{name} must be a list of strings")
                checked[name] = list(value)
            elif name == "deliverTo":
                if value is not None and not (isinstance(value, str) and re.fullmatch(r"https?://[^/?#]+", value)):
                    raise ValueError("deliverTo must be null or a scheme and host such as http://127.0.0.1:8080")
                checked[name] = value
            elif name in ("autoApprove", "acceptTokensWithoutIat", "performanceTestPassed"):
                if not isinstance(value, bool):
                    raise ValueError(f"{name} must be true or false")
                checked[name] = value
            elif name in ("maxMessages", "maxImages"):
                if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                    raise ValueError(f"{name} must be a non-negative integer")
                checked[name] = value
            elif name == "rateLimits":
                if not isinstance(value, dict) or set(value) - set(RATE_LIMITS_PER_SECOND) or not all(
                        isinstance(item, int) and not isinstance(item, bool) and item >= 0 for item in value.values()):
                    raise ValueError(f"rateLimits maps endpoint names ({sorted(RATE_LIMITS_PER_SECOND)}) to requests "
                                     "per hour")
                checked[name] = dict(value)
            elif name == "slowSeconds":
                checked[name] = standin_support.slow_seconds(value)
        with self.lock:
            self.config.update(checked)
            if "rateLimits" in checked:
                self.limits.overrides = dict(checked["rateLimits"])
            if "performanceTestPassed" in checked:
                for app in self.apps.values():
                    app.passed_test = checked["performanceTestPassed"]
            return copy.deepcopy(self.config)

    def review(self, update):
        """POST /_standin/review: Apple's review of a message or image (PENDING, APPROVED, REJECTED)."""
        if not isinstance(update, dict) or set(update) - {"bundleId", "kind", "identifier", "state"}:
            raise ValueError("review takes {\"bundleId\"?, \"kind\": \"message\"|\"image\", \"identifier\", \"state\"}")
        bundle = update.get("bundleId") or next(iter(self.apps))
        if bundle not in self.apps:
            raise ValueError(f"bundleId {bundle!r} is not a registered app")
        if update.get("kind") not in ("message", "image") or update.get("state") not in STATES:
            raise ValueError(f"kind must be message or image, state one of {STATES}")
        identifier = str(update.get("identifier", "")).lower()
        with self.lock:
            table = self.apps[bundle].messages if update["kind"] == "message" else self.apps[bundle].images
            if identifier not in table:
                raise ValueError(f"no {update['kind']} {identifier!r} in {bundle}")
            table[identifier]["state"] = update["state"]
        return {"kind": update["kind"], "identifier": identifier, "state": update["state"]}

    # -- HTTP entry point ---------------------------------------------------------------------

    def _handle_api(self, method, path, query, headers, body):
        """Answers one request outside `/_standin/`; every one may be faulted."""
        matching = [(route_method, template) for route_method, template, _, pattern in COMPILED_ROUTES
                    if pattern.match(path)]
        template = next((template for route_method, template in matching if route_method == method),
                        matching[0][1] if matching else "(unknown path)")
        fault = self._pick_fault(method, path, template)
        return self._answer_with_fault(fault, method, path, lambda: self._process(method, path, query, headers, body))

    def _fault_reply(self, kind, retry_after):
        """A fault's answer in Apple's format: 4290000 (with `Retry-After` = now + retryAfter s in UNIX
        milliseconds for rate-limit), 5000000, 5000001 with status 503."""
        if kind.startswith("rate-limit"):
            extra = {"Retry-After": str(int(time.time() * 1000) + retry_after * 1000)} if kind == "rate-limit" else {}
            return self._error_reply(ApiError(4290000, "injected", headers=extra))
        if kind == "server-error":
            return self._error_reply(ApiError(5000000, "injected"))
        return self._error_reply(ApiError(5000001, "injected", status=503))

    def _log_unprocessed(self, method, path, note):
        self._log(method, path, None, None, note)

    def _log(self, method, path, status, code, outcome):
        with self.lock:
            if len(self.log) < 10_000:
                self.log.append({"seq": len(self.log) + 1, "method": method, "path": path, "status": status,
                                 "errorCode": code, "outcome": outcome})

    def _relabel(self, method, path, note):
        """Notes a fault's effect on the logged request."""
        with self.lock:
            standin_support.relabel_last(self.log, method, path, note)

    def _process(self, method, path, query, headers, body):
        now = time.time()
        try:
            try:
                header, claims = self.verifier.verify(headers.get("Authorization"), now,
                                                      self.config["acceptTokensWithoutIat"])
            except TokenError as error:
                self._token_refused(method, path, error)
                raise Refusal(401, f"token refused: {error.detail}")
            with self.lock:
                if self._token_accepted(headers.get("Authorization")) and len(self.tokens) < 100:
                    self.tokens.append({"header": header, "claims": claims})
            app = self.apps[claims["bid"]]
            endpoint, parameters = self._route(method, path)
            with self.lock:
                retry_at = self.limits.admit(app.bundle_id, endpoint, now)
                if retry_at is not None:
                    self._count("rateLimited")
            if retry_at is not None:
                raise ApiError(4290000, f"{endpoint} allows {self.limits.limit(endpoint)} requests an hour for an "
                                        "app here", headers={"Retry-After": str(retry_at)})
            answer = self._operate(endpoint, parameters, query, headers, body, app)
            self._log(method, path, 200, None, endpoint)
            if answer is None:
                return Reply(200)
            return Reply(200, json.dumps(answer, separators=(",", ":")).encode(), "application/json")
        except ApiError as error:
            with self.lock:
                self._count("refusals", str(error.code))
            self._log(method, path, error.status, error.code, error.message)
            return self._error_reply(error)
        except Refusal as refusal:
            self._log(method, path, refusal.status, None, refusal.reason)
            return Reply(refusal.status, headers=refusal.headers)

    def _error_reply(self, error):
        return Reply(error.status, json.dumps(error.body(), separators=(",", ":")).encode(), "application/json",
                     error.headers)

    def _route(self, method, path):
        allowed = []
        for route_method, _, name, pattern in COMPILED_ROUTES:
            found = pattern.match(path)
            if not found:
                continue
            if route_method == method:
                return name, list(found.groups())
            allowed.append(route_method)
        if allowed:
            raise Refusal(405, f"{method} is not allowed here", {"Allow": ", ".join(sorted(set(allowed)))})
        raise Refusal(404, "no such path")

    def _operate(self, endpoint, parameters, query, headers, body, app):
        params = parse_qsl(query, keep_blank_values=True)
        if endpoint != "Upload Image" and params:
            raise ApiError(4000000, f"{endpoint} takes no query parameters (found {params[0][0]!r})")
        handler = {
            "Upload Message": self._upload_message, "Delete Message": self._delete_message,
            "Get Message List": self._message_list, "Upload Image": self._upload_image,
            "Delete Image": self._delete_image, "Get Image List": self._image_list,
            "Configure Default Message": self._configure_default, "Get Default Message": self._get_default,
            "Delete Default Message": self._delete_default, "Configure Realtime URL": self._configure_url,
            "Get Realtime URL": self._get_url, "Delete Realtime URL": self._delete_url,
            "Initiate Performance Test": self._initiate_test, "Get Performance Test Results": self._test_result,
        }[endpoint]
        return handler(app=app, parameters=parameters, params=params, headers=headers, body=body)

    @staticmethod
    def _json_body(headers, body):
        if media_type(headers) != "application/json":
            raise ApiError(4000000, f"the body must be sent as application/json, not {headers.get('Content-Type')!r}")
        try:
            return strict_json(body, "the body")
        except ValueError as error:
            raise ApiError(4000000, str(error))

    @staticmethod
    def _identifier(value, what, code=4000000):
        if not is_uuid(value):
            raise ApiError(code, f"{what} {value!r} is not a UUID")
        return value.lower()

    # -- messages -------------------------------------------------------------------------------

    def _upload_message(self, app, parameters, body, headers, **_):
        identifier = self._identifier(parameters[0], "the message identifier")
        document = self._json_body(headers, body)
        members(document, {"header", "body", "image", "bulletPoints", "headerPosition"}, ("header", "body"), "")
        text(document["header"], "header", HEADER_MAX, 4000162)
        text(document["body"], "body", BODY_MAX, 4000163)
        if "image" in document:
            members(document["image"], {"imageIdentifier", "altText"}, ("imageIdentifier", "altText"), "image")
            self._identifier(document["image"]["imageIdentifier"], "image.imageIdentifier")
            text(document["image"]["altText"], "image.altText", ALT_TEXT_MAX, 4000175)
        points = document.get("bulletPoints")
        if points is not None:
            if not isinstance(points, list):
                raise ApiError(4000000, "bulletPoints must be an array")
            if len(points) > BULLET_POINTS_MAX:
                raise ApiError(4000218, f"{len(points)} bullet points, at most {BULLET_POINTS_MAX}")
            for index, point in enumerate(points):
                where = f"bulletPoints[{index}]"
                members(point, {"text", "imageIdentifier", "altText"}, ("text", "imageIdentifier", "altText"), where)
                text(point["text"], f"{where}.text", BULLET_TEXT_MAX, 4000219)
                self._identifier(point["imageIdentifier"], f"{where}.imageIdentifier")
                text(point["altText"], f"{where}.altText", ALT_TEXT_MAX, 4000175)
        position = document.get("headerPosition")
        if position is not None and position not in HEADER_POSITIONS:
            raise ApiError(4000000, f"headerPosition {position!r} is not one of {HEADER_POSITIONS}")
        if position == "ABOVE_IMAGE" and "image" not in document:
            raise ApiError(4000224)
        with self.lock:
            for index, used in enumerate(app.images_used_by(document)):
                image = app.images.get(used)
                if image is None:
                    raise ApiError(4040014, f"the message names image {used}, which is not uploaded")
                wanted = "FULL_SIZE" if index == 0 and "image" in document else "BULLET_POINT"
                if image["size"] != wanted:
                    raise ApiError(4000216, f"image {used} is {image['size']}; this place needs a {wanted} image")
            if identifier in app.messages:
                raise ApiError(4090001)
            if len(app.messages) >= self.config["maxMessages"]:
                raise ApiError(4030016, f"{len(app.messages)} messages, at most {self.config['maxMessages']}")
            app.order += 1
            app.messages[identifier] = {"state": "APPROVED" if self.config["autoApprove"] else "PENDING",
                                        "body": document, "order": app.order}
        return None

    def _delete_message(self, app, parameters, **_):
        identifier = self._identifier(parameters[0], "the message identifier")
        with self.lock:
            if identifier not in app.messages:
                raise ApiError(4040015)
            del app.messages[identifier]
        return None

    def _message_list(self, app, **_):
        with self.lock:
            items = sorted(app.messages.items(), key=lambda item: item[1]["order"])
            return {"messageIdentifiers": [{"messageIdentifier": key, "messageState": value["state"]}
                                           for key, value in items]}

    # -- images ---------------------------------------------------------------------------------

    def _upload_image(self, app, parameters, params, headers, body, **_):
        identifier = self._identifier(parameters[0], "the image identifier")
        size = "FULL_SIZE"
        for name, value in params:
            if name != "imageSize":
                raise ApiError(4000000, f"Upload Image takes only the query parameter imageSize, not {name!r}")
            if value not in IMAGE_SIZES or len([n for n, _ in params if n == "imageSize"]) > 1:
                raise ApiError(4000216, f"imageSize {value!r} is not FULL_SIZE or BULLET_POINT (once)")
            size = value
        if media_type(headers) != "image/png":
            raise ApiError(4000161, f"the body must be sent as image/png, not {headers.get('Content-Type')!r}")
        try:
            width, height, color, transparent = check_png(body)
        except ValueError as error:
            raise ApiError(4000161, f"not a well-formed PNG: {error}")
        (min_width, max_width), (min_height, max_height) = IMAGE_SIZES[size]
        if not (min_width <= width <= max_width and min_height <= height <= max_height):
            raise ApiError(4000161, f"{width} x {height} pixels; a {size} image is {min_width}"
                                    f"{'' if min_width == max_width else '-' + str(max_width)} x {min_height}"
                                    f"{'' if min_height == max_height else '-' + str(max_height)}")
        if transparent:
            raise ApiError(4000161, f"the image has transparency (colour type {color} or a tRNS chunk)")
        with self.lock:
            if identifier in app.images:
                raise ApiError(4090000)
            if len(app.images) >= self.config["maxImages"]:
                raise ApiError(4030014, f"{len(app.images)} images, at most {self.config['maxImages']}")
            app.order += 1
            app.images[identifier] = {"state": "APPROVED" if self.config["autoApprove"] else "PENDING",
                                      "size": size, "width": width, "height": height, "bytes": len(body),
                                      "order": app.order}
        return None

    def _delete_image(self, app, parameters, **_):
        identifier = self._identifier(parameters[0], "the image identifier")
        with self.lock:
            if identifier not in app.images:
                raise ApiError(4040014)
            users = [key for key, value in app.messages.items() if identifier in app.images_used_by(value["body"])]
            if users:
                raise ApiError(4030019, f"message {users[0]} uses it")
            del app.images[identifier]
        return None

    def _image_list(self, app, **_):
        with self.lock:
            items = sorted(app.images.items(), key=lambda item: item[1]["order"])
            return {"imageIdentifiers": [{"imageIdentifier": key, "imageState": value["state"],
                                          "imageSize": value["size"]} for key, value in items]}

    # -- default messages -----------------------------------------------------------------------

    def _default_key(self, parameters):
        product, locale = parameters
        if product not in self.config["productIds"]:
            raise ApiError(4000023, f"{product!r} is not one of the app's auto-renewable subscriptions")
        if locale not in self.config["locales"]:
            raise ApiError(4000164, f"{locale!r} is not a locale short code (case-sensitive)")
        return product, locale

    def _configure_default(self, app, parameters, headers, body, **_):
        key = self._default_key(parameters)
        document = self._json_body(headers, body)
        members(document, {"messageIdentifier"}, ("messageIdentifier",), "")
        identifier = self._identifier(document["messageIdentifier"], "messageIdentifier")
        with self.lock:
            message = app.messages.get(identifier)
            if message is None:
                raise ApiError(4040015)
            if message["state"] != "APPROVED":
                raise ApiError(4030017, f"message {identifier} is {message['state']}")
            for image in app.images_used_by(message["body"]):
                state = app.images.get(image, {}).get("state", "missing")
                if state != "APPROVED":
                    raise ApiError(4030018, f"image {image} is {state}")
            app.defaults[key] = identifier
        return None

    def _get_default(self, app, parameters, **_):
        key = self._default_key(parameters)
        with self.lock:
            if key not in app.defaults:
                raise ApiError(4040020)
            return {"messageIdentifier": app.defaults[key]}

    def _delete_default(self, app, parameters, **_):
        key = self._default_key(parameters)
        with self.lock:
            if key not in app.defaults:
                raise ApiError(4040020)
            del app.defaults[key]
        return None

    # -- real-time URL --------------------------------------------------------------------------

    def _configure_url(self, app, headers, body, **_):
        document = self._json_body(headers, body)
        members(document, {"realtimeURL"}, ("realtimeURL",), "")
        url = document["realtimeURL"]
        if not isinstance(url, str) or not url.startswith("https://") or len(url) > REALTIME_URL_MAX:
            raise ApiError(4000215, "the realtimeURL must begin with https:// and have at most 256 characters")
        parts = urlsplit(url)
        if not parts.hostname or parts.username or parts.password or parts.fragment or any(c.isspace() for c in url):
            raise ApiError(4000215, "the realtimeURL needs a host, and no user, password, fragment or space")
        with self.lock:
            if self.environment == "Production" and not app.passed_test:
                raise ApiError(4030026)
            app.realtime_url = url
        return None

    def _get_url(self, app, **_):
        with self.lock:
            if app.realtime_url is None:
                raise ApiError(4040021)
            return {"realtimeURL": app.realtime_url}

    def _delete_url(self, app, **_):
        with self.lock:
            if app.realtime_url is None:
                raise ApiError(4040021)
            app.realtime_url = None
        return None

    # -- performance test -----------------------------------------------------------------------

    def _initiate_test(self, app, headers, body, **_):
        document = self._json_body(headers, body)
        members(document, {"originalTransactionId"}, ("originalTransactionId",), "", code=4000211)
        transaction = document["originalTransactionId"]
        if not isinstance(transaction, str) or not DIGITS.match(transaction):
            raise ApiError(4000006, f"originalTransactionId {transaction!r} is not decimal digits")
        if self.environment != "Sandbox":
            raise ApiError(4000211, "the performance test runs in the sandbox only")
        with self.lock:
            if app.realtime_url is None:
                raise ApiError(4040021)
            if any(not test.done.is_set() for test in app.tests.values()):
                raise ApiError(4000213)
            config = dict(self.config["performanceTest"])
            request = self.config["realtimeRequest"]
            product = request["productId"] or (self.config["productIds"] or ["com.example.offerkit.monthly"])[0]
            payload = {"originalTransactionId": transaction, "appAppleId": app.app_apple_id, "productId": product,
                       "userLocale": request["userLocale"], "environment": "Sandbox"}
            test = PerformanceTest(str(uuid.uuid4()), config, app.realtime_url, self.config["deliverTo"], payload,
                                   self.chain, self.verbose)
            app.tests[test.request_id] = test
        threading.Thread(target=self._watch, args=(app, test), daemon=True).start()
        test.start()
        return {"config": config, "requestId": test.request_id}

    def _watch(self, app, test):
        test.done.wait()
        if test.result()["result"] == "PASS":
            with self.lock:
                app.passed_test = True

    def _test_result(self, app, parameters, **_):
        request_id = self._identifier(parameters[0], "the requestId", code=4000212)
        with self.lock:
            test = next((value for key, value in app.tests.items() if key.lower() == request_id), None)
        if test is None:
            raise ApiError(4040018)
        return test.result()

    # -- control API ----------------------------------------------------------------------------

    def _control_post(self, path, update):
        if path == "/_standin/review":
            return self.review(update)
        return super()._control_post(path, update)

    def _control_get(self, path):
        if path == "/_standin/test-root.pem":
            return Reply(200, self.chain.root_pem.encode(), "application/x-pem-file")
        return None


# ---------------------------------------------------------------------------------------------
# HTTP
# ---------------------------------------------------------------------------------------------

class Handler(standin_support.Handler):
    """HTTP/1.1 with keep-alive (standin_support.Handler)."""

    server_version = "AppStoreServerStandIn/1"
    max_body_bytes = MAX_BODY_BYTES

    def unreadable_body_reply(self, app):
        return app._error_reply(ApiError(4000000, "the body's length is missing, invalid or above 50 MiB"))


# ---------------------------------------------------------------------------------------------
# Command line
# ---------------------------------------------------------------------------------------------

def fail(message):
    standin_support.fail("app_store_server.py", message)


def parse_arguments(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--public-key", required=True, help="the In-App Purchase key's public key (PEM)")
    parser.add_argument("--key-id", required=True, help="the kid tokens must carry")
    parser.add_argument("--issuer-id", required=True, help="the iss tokens must carry")
    parser.add_argument("--app", action="append", required=True, metavar="BUNDLE_ID=APP_APPLE_ID",
                        help="a registered app: the bid tokens may carry and its App Apple ID (repeatable)")
    parser.add_argument("--products", default="com.example.offerkit.monthly,com.example.offerkit.yearly",
                        help="the apps' auto-renewable subscription product IDs, comma-separated")
    parser.add_argument("--environment", default="Sandbox", choices=("Sandbox", "Production"))
    parser.add_argument("--port", type=int, default=0, help="port on 127.0.0.1 (default 0: any free port)")
    parser.add_argument("--test-root-out", help="write the test root certificate (PEM) the real-time requests "
                                                 "chain to here")
    parser.add_argument("--verbose", action="store_true", help="log every request to stderr")
    arguments = parser.parse_args(argv)
    apps = {}
    for entry in arguments.app:
        bundle, _, apple_id = entry.partition("=")
        if not bundle or not re.fullmatch(r"[1-9][0-9]{0,15}", apple_id) or bundle in apps:
            fail(f"--app {entry!r}: expected BUNDLE_ID=APP_APPLE_ID (a positive integer), each bundle ID once")
        apps[bundle] = int(apple_id)
    arguments.apps = apps
    arguments.product_ids = [item for item in arguments.products.split(",") if item]
    return arguments


def main(argv):
    arguments = parse_arguments(argv)
    key = standin_support.load_public_key(arguments.public_key, fail)
    verifier = TokenVerifier(key, arguments.key_id, arguments.issuer_id, list(arguments.apps))
    app = StandIn(verifier, arguments.apps, arguments.product_ids, arguments.environment, arguments.verbose)
    if arguments.test_root_out:
        try:
            with open(arguments.test_root_out, "w", encoding="ascii") as handle:
                handle.write(app.chain.root_pem)
        except OSError as error:
            fail(f"cannot write {arguments.test_root_out}: {error}")
    return standin_support.serve(app, arguments.port, Handler, fail)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
