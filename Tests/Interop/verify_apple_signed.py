#!/usr/bin/env python3
"""Runs every case of Tests/Fixtures/apple-signed/cases.json through Apple's own verifier,
`SignedDataVerifier` of app-store-server-library (PyPI), online checks off, the case's test root
as its only root. Prints one JSON object per case: {"name", "accepted", "status"}.

A case may name another of the document's roots (`"root": NAME`, a key of `roots`) to trust instead
of `roots.test`. Any other document of the same shape works too (the strict-reading tests write one).

A notification's nested signedTransactionInfo and signedRenewalInfo are verified too, with
verify_and_decode_signed_transaction and verify_and_decode_renewal_info: Apple's library leaves
that to its caller, OfferKit does it.
"""
import json, sys

from cryptography import x509
from cryptography.hazmat.primitives import serialization
from appstoreserverlibrary.models.Environment import Environment
from appstoreserverlibrary.signed_data_verifier import SignedDataVerifier, VerificationException


def main():
    document = json.load(open(sys.argv[1]))
    roots = {name: x509.load_pem_x509_certificate(pem.encode()).public_bytes(serialization.Encoding.DER)
             for name, pem in document["roots"].items()}
    only = set(sys.argv[2:])
    for case in document["cases"]:
        if only and case["name"] not in only:
            continue
        status = "OK"
        try:
            verifier = SignedDataVerifier([roots[case.get("root", "test")]], False, Environment(case["environment"]),
                                          case.get("bundleId") or "", case.get("appAppleId"))
            kind = case["kind"]
            if kind == "transaction":
                verifier.verify_and_decode_signed_transaction(case["jws"])
            elif kind == "renewal-info":
                verifier.verify_and_decode_renewal_info(case["jws"])
            elif kind == "realtime-request":
                verifier.verify_and_decode_realtime_request(case["jws"])
            elif kind == "notification":
                notification = verifier.verify_and_decode_notification(case["jws"])
                data = notification.data
                if data and data.signedTransactionInfo:
                    verifier.verify_and_decode_signed_transaction(data.signedTransactionInfo)
                if data and data.signedRenewalInfo:
                    verifier.verify_and_decode_renewal_info(data.signedRenewalInfo)
            else:
                raise SystemExit(f"unknown kind {kind}")
        except VerificationException as error:
            status = error.status.name
        except Exception as error:  # cattrs and PyJWT errors: Apple's library refuses the input
            status = type(error).__name__
        print(json.dumps({"name": case["name"], "accepted": status == "OK", "status": status}))


if __name__ == "__main__":
    main()
