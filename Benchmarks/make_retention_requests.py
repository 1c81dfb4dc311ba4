#!/usr/bin/env python3
"""Writes signed Get Retention Message requests for a load test of `offerkit serve` (Retention Messaging).

usage: make_retention_requests.py FOLDER COUNT [APP_APPLE_ID]

Makes a test chain as Tests/Fixtures/apple-signed/make_apple_signed.py does (root, intermediate with
1.2.840.113635.100.6.2.1, leaf with 1.2.840.113635.100.6.11.1) and writes to FOLDER:
- root.pem: the root, for the configuration's retention.rootCertificates;
- bodies.txt: COUNT request bodies, one per line, {"signedPayload": "<JWS>"}, each a sandbox request for a
  monthly subscription in en-US (a V2 promotional offer with the rules of keys-example/service.json) with its own
  requestIdentifier, signed now: use them within maxRequestAgeSeconds (300 s by default);
- load.lua: a wrk script that posts them in turn to the path given as wrk's URL, one body per request (so that
  no request is a replay until the list wraps), and prints a WRK-RESULT line as Benchmarks/run reads it.
Needs Python's cryptography (the interop venv, .build/interop-venv).
"""
import base64, json, os, sys, time, uuid

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
    with open(os.path.join(folder, "bodies.txt"), "w") as handle:
        for _ in range(count):
            payload = {"originalTransactionId": "2000000900000001", "appAppleId": app_apple_id,
                       "productId": "com.example.offerkit.monthly", "userLocale": "en-US",
                       "requestIdentifier": str(uuid.uuid4()), "environment": "Sandbox", "signedDate": now}
            jws = chain.sign(payload, leaf_key, [leaf, intermediate, root])
            handle.write(json.dumps({"signedPayload": jws}) + "\n")
    with open(os.path.join(folder, "load.lua"), "w") as handle:
        handle.write('''local bodies = {}
for line in io.lines("%s") do bodies[#bodies + 1] = line end
local next = 0
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
function request()
    next = next %% #bodies + 1
    return wrk.format(nil, nil, nil, bodies[next])
end
function done(summary, latency, requests)
    io.write(string.format('WRK-RESULT {"requests": %%d, "seconds": %%.6f, "p50_us": %%d, "p99_us": %%d, "not_2xx": %%d, "socket_errors": %%d}\\n',
        summary.requests, summary.duration / 1e6, latency:percentile(50), latency:percentile(99), summary.errors.status,
        summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout))
end
''' % os.path.abspath(os.path.join(folder, "bodies.txt")))


if __name__ == "__main__":
    main()
