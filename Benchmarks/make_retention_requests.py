#!/usr/bin/env python3
"""Signs Get Retention Message requests for the load test of `offerkit serve` (Benchmarks/run).

usage: make_retention_requests.py FOLDER COUNT [APP_APPLE_ID]

Makes a test chain as Tests/Fixtures/apple-signed/make_apple_signed.py does (a P-384 root like Apple
Root CA - G3, an intermediate with 1.2.840.113635.100.6.2.1, a leaf with 1.2.840.113635.100.6.11.1)
and writes to FOLDER:
- root.pem: the root, for the configuration's retention.rootCertificates;
- COUNT sandbox requests for the monthly subscription in en-US (a V2 promotional offer with the rules
  of keys-example/service.json), each with its own requestIdentifier and originalTransactionId, so that
  no answer comes from the replay cache, signed now: use them within maxRequestAgeSeconds (300 s by
  default). Their JWS header (the x5c chain, about 2.7 KB) is the same for all, so it is written once
  to header.txt, and each request's payload and signature to a line of requests.txt;
  Benchmarks/retention_load.lua joins them into {"signedPayload": "HEADER.PAYLOAD.SIGNATURE"}.
Needs Python's cryptography (the interop venv, .build/interop-venv).
"""
import os, sys, time, uuid

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Fixtures", "apple-signed"))
import make_apple_signed as chain  # noqa: E402


def main():
    if len(sys.argv) not in (3, 4):
        raise SystemExit(__doc__)
    folder, count = sys.argv[1], int(sys.argv[2])
    app_apple_id = int(sys.argv[3]) if len(sys.argv) == 4 else 1234567890
    os.makedirs(folder, exist_ok=True)
    root_key = chain.key(chain.ec.SECP384R1)
    root = chain.certificate("OfferKit Load Root CA", root_key, ca=True)
    intermediate_key = chain.key()
    intermediate = chain.certificate("OfferKit Load WWDR", intermediate_key, root, root_key, ca=True, path_length=0,
                                     oid=chain.INTERMEDIATE_OID)
    leaf_key = chain.key()
    leaf = chain.certificate("OfferKit Load StoreKit Signing", leaf_key, intermediate, intermediate_key,
                             oid=chain.LEAF_OID)
    with open(os.path.join(folder, "root.pem"), "w") as handle:
        handle.write(chain.pem(root))
    now = int(time.time() * 1000)
    header = None
    with open(os.path.join(folder, "requests.txt"), "w") as handle:
        for index in range(count):
            payload = {"originalTransactionId": str(2000000900000000 + index), "appAppleId": app_apple_id,
                       "productId": "com.example.offerkit.monthly", "userLocale": "en-US",
                       "requestIdentifier": str(uuid.uuid4()), "environment": "Sandbox", "signedDate": now}
            first, rest = chain.sign(payload, leaf_key, [leaf, intermediate, root]).split(".", 1)
            if header not in (None, first):
                raise SystemExit("make_retention_requests.py: the JWS header changed between requests")
            header = first
            handle.write(rest + "\n")
    with open(os.path.join(folder, "header.txt"), "w") as handle:
        handle.write(header + "\n")


if __name__ == "__main__":
    main()
