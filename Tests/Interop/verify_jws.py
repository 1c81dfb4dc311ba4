"""Independent verifier for the compact JWS that OfferKit signs (the CLI's and the service's).

Reads a JSON array [{"token", "aud", "pem"}] on stdin ("pem" is the path of a public key PEM).
Verifies each token twice: with PyJWT (ES256 only, audience checked, `iat` and `aud` required)
and with `cryptography` over the raw 64-byte r||s signature (RFC 7518). Prints
[{"header", "claims"}] as JSON on stdout; exits non-zero on any failure, naming the token.
"""

import base64
import json
import sys

import jwt
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature


def b64url(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def verify(token, aud, pem):
    claims = jwt.decode(token, pem, algorithms=["ES256"], audience=aud,
                        options={"verify_iat": False, "require": ["iat", "aud"]})
    header = jwt.get_unverified_header(token)
    h, p, s = token.split(".")
    raw = b64url(s)
    if len(raw) != 64:
        raise ValueError("signature is %d bytes, not raw r||s" % len(raw))
    key = serialization.load_pem_public_key(pem)
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    key.verify(der, (h + "." + p).encode("ascii"), ec.ECDSA(hashes.SHA256()))
    return {"header": header, "claims": claims}


def main():
    out = []
    for index, item in enumerate(json.load(sys.stdin)):
        try:
            with open(item["pem"], "rb") as file:
                pem = file.read()
            out.append(verify(item["token"], item["aud"], pem))
        except Exception as error:  # every failure is reported and fails the run
            print("token %d (aud %s): %s: %s" % (index, item.get("aud"), type(error).__name__, error),
                  file=sys.stderr)
            return 1
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
