#!/usr/bin/env python3
"""Makes the test chains and signed payloads of OfferAppleVerification's tests (cases.json).

A test root, an intermediate with Apple's Worldwide Developer Relations extension
(1.2.840.113635.100.6.2.1) and a leaf with the App Store signing extension
(1.2.840.113635.100.6.11.1), then compact JWS of each kind Apple signs (transaction, renewal info,
notification V2, real-time request) and broken variants. Each case names the verifier's settings
and what OfferKit must answer (`expect`: "accept" or the AppleVerificationError case); Apple's own
library must answer the same, except where `appleDiffers` says why not.

Run with the interop venv (cryptography): .build/interop-venv/bin/python Tests/Fixtures/apple-signed/make_apple_signed.py
The keys are new on every run; the cases stay the same.
"""
import base64, datetime, json, os, sys, uuid

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature
from cryptography.x509.oid import NameOID

LEAF_OID = x509.ObjectIdentifier("1.2.840.113635.100.6.11.1")
INTERMEDIATE_OID = x509.ObjectIdentifier("1.2.840.113635.100.6.2.1")
OTHER_OID = x509.ObjectIdentifier("1.2.840.113635.100.6.2.99")
DER_NULL = b"\x05\x00"

BUNDLE_ID = "com.example.offerkit"
APP_APPLE_ID = 1234567890


def when(text):
    return datetime.datetime.fromisoformat(text).replace(tzinfo=datetime.timezone.utc)


def ms(text):
    return int(when(text).timestamp() * 1000)


FROM, UNTIL = when("2020-01-01T00:00:00"), when("2120-01-01T00:00:00")
SIGNED = ms("2025-06-01T12:00:00")


def name(common):
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common),
                      x509.NameAttribute(NameOID.ORGANIZATION_NAME, "OfferKit Tests")])


def certificate(subject, key, issuer=None, issuer_key=None, ca=False, path_length=None, oid=None,
                not_before=FROM, not_after=UNTIL):
    issuer, issuer_key = (issuer, issuer_key) if issuer else (None, key)
    issuer_name = issuer.subject if issuer else name(subject)
    builder = (x509.CertificateBuilder().subject_name(name(subject)).issuer_name(issuer_name)
               .public_key(key.public_key()).serial_number(x509.random_serial_number())
               .not_valid_before(not_before).not_valid_after(not_after)
               .add_extension(x509.BasicConstraints(ca=ca, path_length=path_length), critical=True)
               .add_extension(x509.KeyUsage(digital_signature=not ca, content_commitment=False,
                                            key_encipherment=False, data_encipherment=False, key_agreement=False,
                                            key_cert_sign=ca, crl_sign=ca, encipher_only=False,
                                            decipher_only=False), critical=True)
               .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False))
    if issuer:
        builder = builder.add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_public_key(issuer_key.public_key()), critical=False)
    if oid:
        builder = builder.add_extension(x509.UnrecognizedExtension(oid, DER_NULL), critical=False)
    algorithm = hashes.SHA384() if isinstance(issuer_key.curve, ec.SECP384R1) else hashes.SHA256()
    return builder.sign(issuer_key, algorithm)


def key(curve=ec.SECP256R1):
    return ec.generate_private_key(curve())


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def der(cert):
    return cert.public_bytes(serialization.Encoding.DER)


def pem(cert):
    return cert.public_bytes(serialization.Encoding.PEM).decode()


def sign(payload, signing_key, chain, alg="ES256", x5c=None):
    header = {"alg": alg, "x5c": x5c if x5c is not None else [base64.b64encode(der(c)).decode() for c in chain]}
    signing_input = b64url(json.dumps(header, separators=(",", ":")).encode()) + "." + \
        b64url(json.dumps(payload, separators=(",", ":")).encode())
    r, s = decode_dss_signature(signing_key.sign(signing_input.encode(), ec.ECDSA(hashes.SHA256())))
    return signing_input + "." + b64url(r.to_bytes(32, "big") + s.to_bytes(32, "big"))


def transaction(environment="Sandbox", bundle_id=BUNDLE_ID, signed_date=SIGNED, **extra):
    payload = {
        "transactionId": "2000000912345678", "originalTransactionId": "2000000900000001",
        "webOrderLineItemId": "2000000055555555", "bundleId": bundle_id,
        "productId": "com.example.offerkit.monthly", "subscriptionGroupIdentifier": "21345678",
        "purchaseDate": SIGNED - 60_000, "originalPurchaseDate": ms("2025-01-01T00:00:00"),
        "expiresDate": SIGNED + 30 * 86_400_000, "quantity": 1, "type": "Auto-Renewable Subscription",
        "inAppOwnershipType": "PURCHASED", "signedDate": signed_date, "environment": environment,
        "transactionReason": "RENEWAL", "storefront": "USA", "storefrontId": "143441", "price": 4990,
        "currency": "USD", "appTransactionId": "704289572311812345", "offerType": 2,
        "offerIdentifier": "WINBACK50", "offerDiscountType": "PAY_AS_YOU_GO", "offerPeriod": "P1M",
    }
    if signed_date is None:
        del payload["signedDate"]
    payload.update(extra)
    return payload


def renewal_info(environment="Sandbox"):
    return {
        "originalTransactionId": "2000000900000001", "autoRenewProductId": "com.example.offerkit.monthly",
        "productId": "com.example.offerkit.monthly", "autoRenewStatus": 1, "isInBillingRetryPeriod": False,
        "signedDate": SIGNED, "environment": environment, "recentSubscriptionStartDate": ms("2025-01-01T00:00:00"),
        "renewalDate": SIGNED + 30 * 86_400_000, "renewalPrice": 4990, "currency": "USD",
        "appTransactionId": "704289572311812345", "eligibleWinBackOfferIds": ["WINBACK50"],
    }


def notification(signed_transaction, signed_renewal, environment="Sandbox", bundle_id=BUNDLE_ID,
                 app_apple_id=APP_APPLE_ID):
    return {
        "notificationType": "DID_RENEW", "notificationUUID": "8b5d2a5e-3c1f-4f0e-9a55-6a1d2f3b4c5d",
        "version": "2.0", "signedDate": SIGNED,
        "data": {"appAppleId": app_apple_id, "bundleId": bundle_id, "bundleVersion": "1.0",
                 "environment": environment, "signedTransactionInfo": signed_transaction,
                 "signedRenewalInfo": signed_renewal, "status": 1},
    }


def realtime_request(environment="Sandbox", app_apple_id=APP_APPLE_ID, **extra):
    payload = {
        "originalTransactionId": "2000000900000001", "appAppleId": app_apple_id,
        "productId": "com.example.offerkit.monthly", "userLocale": "en-US",
        "requestIdentifier": "3db5b7f1-6b2c-4f5e-9c1a-2a7f0c9e8d41", "environment": environment,
        "signedDate": SIGNED,
    }
    payload.update(extra)
    return payload


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "cases.json")
    root_key, other_root_key = key(ec.SECP384R1), key(ec.SECP384R1)
    root = certificate("OfferKit Test Root CA - G3", root_key, ca=True)
    other_root = certificate("OfferKit Other Root CA", other_root_key, ca=True)
    intermediate_key = key()
    intermediate = certificate("OfferKit Test WWDR - G6", intermediate_key, root, root_key, ca=True, path_length=0,
                               oid=INTERMEDIATE_OID)
    leaf_key = key()
    leaf = certificate("OfferKit Test StoreKit Signing", leaf_key, intermediate, intermediate_key, oid=LEAF_OID)
    good = [leaf, intermediate, root]

    def leaf_with(**options):
        return certificate("OfferKit Test StoreKit Signing", leaf_key, intermediate, intermediate_key,
                           **{"oid": LEAF_OID, **options})

    def intermediate_with(**options):
        return certificate("OfferKit Test WWDR - G6", intermediate_key, root, root_key,
                           **{"ca": True, "path_length": 0, "oid": INTERMEDIATE_OID, **options})

    other_intermediate_key = key()
    other_intermediate = certificate("OfferKit Test WWDR - G6", other_intermediate_key, other_root, other_root_key,
                                     ca=True, path_length=0, oid=INTERMEDIATE_OID)
    other_leaf = certificate("OfferKit Test StoreKit Signing", leaf_key, other_intermediate, other_intermediate_key,
                             oid=LEAF_OID)

    cases = []

    def case(name, kind, jws, expect, environment="Sandbox", bundle_id=BUNDLE_ID, app_apple_id=None,
             apple_differs=None, note=None):
        entry = {"name": name, "kind": kind, "jws": jws, "environment": environment, "bundleId": bundle_id,
                 "appAppleId": app_apple_id if app_apple_id is not None else
                 (APP_APPLE_ID if environment == "Production" else None), "expect": expect}
        if apple_differs:
            entry["appleDiffers"] = apple_differs
        if note:
            entry["note"] = note
        cases.append(entry)

    tx = sign(transaction(), leaf_key, good)
    ri = sign(renewal_info(), leaf_key, good)
    # Accepted.
    case("transaction", "transaction", tx, "accept")
    case("renewal-info", "renewal-info", ri, "accept")
    case("notification", "notification", sign(notification(tx, ri), leaf_key, good), "accept")
    case("realtime-request", "realtime-request", sign(realtime_request(), leaf_key, good), "accept")
    tx_production = sign(transaction("Production"), leaf_key, good)
    ri_production = sign(renewal_info("Production"), leaf_key, good)
    case("transaction-production", "transaction", tx_production, "accept", environment="Production")
    case("renewal-info-production", "renewal-info", ri_production, "accept", environment="Production")
    case("notification-production", "notification",
         sign(notification(tx_production, ri_production, "Production"), leaf_key, good), "accept",
         environment="Production")
    case("realtime-request-production", "realtime-request", sign(realtime_request("Production"), leaf_key, good),
         "accept", environment="Production")
    case("notification-without-renewal-info", "notification",
         sign({**notification(tx, ri), "data": {**notification(tx, ri)["data"], "signedRenewalInfo": None}},
              leaf_key, good), "accept")
    case("leaf-expired-now-valid-at-signed-date", "transaction",
         sign(transaction(signed_date=ms("2023-06-01T00:00:00")), leaf_key,
              [leaf_with(not_after=when("2024-01-01T00:00:00")), intermediate, root]), "accept",
         note="validity is checked at signedDate, not now")
    case("transaction-without-signed-date", "transaction", sign(transaction(signed_date=None), leaf_key, good),
         "accept", note="no signedDate: the chain is checked at the current time")
    case("third-x5c-entry-unused", "transaction",
         sign(transaction(), leaf_key, None, x5c=[base64.b64encode(der(leaf)).decode(),
                                                  base64.b64encode(der(intermediate)).decode(), "not read"]),
         "accept", note="as in Apple's libraries, the root comes from the trusted roots, not x5c[2]")

    # Refused: the chain.
    case("wrong-intermediate-oid", "transaction",
         sign(transaction(), leaf_key, [leaf, intermediate_with(oid=OTHER_OID), root]), "missingAppleExtension")
    case("intermediate-without-oid", "transaction",
         sign(transaction(), leaf_key, [leaf, intermediate_with(oid=None), root]), "missingAppleExtension")
    case("wrong-leaf-oid", "transaction", sign(transaction(), leaf_key, [leaf_with(oid=OTHER_OID), intermediate, root]),
         "missingAppleExtension")
    case("leaf-without-oid", "realtime-request",
         sign(realtime_request(), leaf_key, [leaf_with(oid=None), intermediate, root]), "missingAppleExtension")
    case("leaf-expired-at-signed-date", "transaction",
         sign(transaction(signed_date=ms("2095-01-01T00:00:00")), leaf_key,
              [leaf_with(not_after=when("2090-01-01T00:00:00")), intermediate, root]), "certificateNotValid",
         note="valid now, expired at signedDate")
    case("leaf-not-yet-valid-at-signed-date", "transaction",
         sign(transaction(signed_date=ms("2022-06-01T00:00:00")), leaf_key,
              [leaf_with(not_before=when("2023-01-01T00:00:00")), intermediate, root]), "certificateNotValid",
         note="valid now, not yet valid at signedDate")
    case("intermediate-expired-at-signed-date", "renewal-info",
         sign({**renewal_info(), "signedDate": ms("2095-01-01T00:00:00")}, leaf_key,
              [leaf, intermediate_with(not_after=when("2090-01-01T00:00:00")), root]), "certificateNotValid")
    case("wrong-root", "transaction", sign(transaction(), leaf_key, [other_leaf, other_intermediate, other_root]),
         "untrustedChain")
    case("wrong-root-claiming-test-root", "transaction",
         sign(transaction(), leaf_key, [other_leaf, other_intermediate, root]), "untrustedChain")
    case("intermediate-not-a-ca", "transaction",
         sign(transaction(), leaf_key, [leaf, intermediate_with(ca=False, path_length=None), root]), "untrustedChain")
    case("leaf-from-another-intermediate", "transaction",
         sign(transaction(), leaf_key, [leaf, other_intermediate, root]), "untrustedChain")
    case("swapped-order", "transaction", sign(transaction(), leaf_key, [intermediate, leaf, root]),
         "missingAppleExtension")
    case("chain-of-2", "transaction", sign(transaction(), leaf_key, [leaf, intermediate]), "certificateChainLength")
    case("chain-of-4", "transaction", sign(transaction(), leaf_key, [leaf, intermediate, root, root]),
         "certificateChainLength")
    case("chain-of-1", "realtime-request", sign(realtime_request(), leaf_key, [leaf]), "certificateChainLength")
    case("x5c-not-base64", "transaction",
         sign(transaction(), leaf_key, None, x5c=["%%%", base64.b64encode(der(intermediate)).decode(),
                                                  base64.b64encode(der(root)).decode()]), "unreadableCertificate")
    # Refused: the signature.
    bad = tx[:-4] + ("AAAA" if not tx.endswith("AAAA") else "BBBB")
    case("bad-signature", "transaction", bad, "signatureInvalid")
    header, payload, signature = tx.split(".")
    case("payload-changed-after-signing", "transaction",
         header + "." + b64url(json.dumps(transaction(price=1)).encode()) + "." + signature, "signatureInvalid")
    case("signed-by-another-key", "transaction", sign(transaction(), key(), good), "signatureInvalid")
    case("alg-ES384", "transaction", sign(transaction(), leaf_key, good, alg="ES384"), "algorithmNotES256")
    case("alg-none", "realtime-request", sign(realtime_request(), leaf_key, good, alg="none"), "algorithmNotES256")
    # Refused: the app or environment.
    case("wrong-bundle-id", "transaction", sign(transaction(bundle_id="com.example.other"), leaf_key, good),
         "bundleIdMismatch")
    case("wrong-environment", "transaction", tx_production, "environmentMismatch")
    case("renewal-info-wrong-environment", "renewal-info", ri, "environmentMismatch", environment="Production")
    case("realtime-request-wrong-environment", "realtime-request", sign(realtime_request(), leaf_key, good),
         "environmentMismatch", environment="Production")
    case("notification-wrong-bundle-id", "notification",
         sign(notification(tx, ri, bundle_id="com.example.other"), leaf_key, good), "bundleIdMismatch")
    case("notification-wrong-app-apple-id", "notification",
         sign(notification(tx_production, ri_production, "Production", app_apple_id=42), leaf_key, good),
         "appAppleIdMismatch", environment="Production")
    case("realtime-request-wrong-app-apple-id", "realtime-request",
         sign(realtime_request("Production", app_apple_id=42), leaf_key, good), "appAppleIdMismatch",
         environment="Production")
    case("realtime-request-other-app-in-sandbox", "realtime-request",
         sign(realtime_request(app_apple_id=42), leaf_key, good), "accept", app_apple_id=APP_APPLE_ID,
         note="as in Apple's libraries, appAppleId is checked in production only")
    case("notification-nested-transaction-bad-signature", "notification",
         sign(notification(bad, ri), leaf_key, good), "nested",
         note="Apple's libraries verify the nested JWS only when asked: the cross-check asks, as OfferKit does")
    case("notification-nested-transaction-other-bundle", "notification",
         sign(notification(sign(transaction(bundle_id="com.example.other"), leaf_key, good), ri), leaf_key, good),
         "nested")
    case("notification-nested-renewal-info-wrong-root", "notification",
         sign(notification(tx, sign(renewal_info(), leaf_key, [other_leaf, other_intermediate, other_root])),
              leaf_key, good), "nested")
    # Refused: the payload.
    case("realtime-request-without-user-locale", "realtime-request",
         sign({k: v for k, v in realtime_request().items() if k != "userLocale"}, leaf_key, good),
         "payloadUnreadable")
    case("realtime-request-identifier-not-uuid", "realtime-request",
         sign(realtime_request(requestIdentifier="not-a-uuid"), leaf_key, good), "payloadUnreadable")
    # Deliberate differences.
    xcode_key = key()
    xcode_cert = certificate("StoreKit Testing in Xcode", xcode_key, ca=False)
    case("xcode-signed-by-xcode", "transaction", sign(transaction("Xcode"), xcode_key, [xcode_cert]),
         "certificateChainLength", environment="Xcode",
         apple_differs="Apple's libraries skip the signature and chain for Xcode and LocalTesting data; "
                       "OfferKit verifies them in every environment")

    document = {
        "generatedBy": "Tests/Fixtures/apple-signed/make_apple_signed.py",
        "roots": {"test": pem(root), "other": pem(other_root)},
        "cases": cases,
    }
    with open(out, "w") as f:
        json.dump(document, f, indent=1)
        f.write("\n")
    print(f"{len(cases)} cases written to {out}")
    # The verify-apple walk-through (docs/signing.md) is given the test root and a notification.
    walkthrough = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "readme-walkthrough")
    with open(os.path.join(walkthrough, "apple-test-root.pem"), "w") as f:
        f.write(pem(root))
    with open(os.path.join(walkthrough, "apple-notification.jws"), "w") as f:
        f.write(next(c["jws"] for c in cases if c["name"] == "notification") + "\n")


if __name__ == "__main__":
    main()
