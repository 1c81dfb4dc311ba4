#!/usr/bin/env python3
"""PyJWT's answer for a JWS verified against expected credentials, where PyJWT can compare them.

Reads a JSON array [{"name", "token", "aud", "pem", "kid", "iss"}] on stdin ("pem" is the path of
the public key; "kid" and "iss" may be null or absent). For each: the key is put in a JWK set under "kid"
(the JWS's own kid when null), the signing key is looked up by the JWS header's kid
(PyJWKSet, as a server holding keys by ID does), and jwt.decode checks the ES256 signature, the
audience and, when "iss" is given, the issuer (issuer=). PyJWT has no check of `bid`.
Prints one JSON object per item: {"name", "accepted", "error"}.
"""
import json
import sys

import jwt
from cryptography.hazmat.primitives import serialization
from jwt.algorithms import ECAlgorithm


def answer(item):
    with open(item["pem"], "rb") as file:
        key = serialization.load_pem_public_key(file.read())
    jwk = json.loads(ECAlgorithm.to_jwk(key))
    jwk.update({"kid": item.get("kid") or jwt.get_unverified_header(item["token"])["kid"], "alg": "ES256", "use": "sig"})
    keys = jwt.PyJWKSet.from_dict({"keys": [jwk]})
    kid = jwt.get_unverified_header(item["token"])["kid"]
    signing_key = keys[kid]  # KeyError when the JWS names another key
    options = {"verify_iat": False, "require": ["iat", "aud"]}
    if item.get("iss") is not None:
        jwt.decode(item["token"], signing_key.key, algorithms=["ES256"], audience=item["aud"], issuer=item["iss"],
                   options=options)
    else:
        jwt.decode(item["token"], signing_key.key, algorithms=["ES256"], audience=item["aud"], options=options)


def main():
    for item in json.load(sys.stdin):
        error = None
        try:
            answer(item)
        except Exception as failure:  # every refusal is reported, with PyJWT's reason
            error = "%s: %s" % (type(failure).__name__, failure)
        print(json.dumps({"name": item["name"], "accepted": error is None, "error": error}))


if __name__ == "__main__":
    main()
