#!/usr/bin/env python3
"""Writes the seed corpora Fuzz/corpus/TARGET/ from the repository's fixtures: the interop
vectors (Tests/Vectors), the example campaign, the demo key (keys-example/, public) in each form
the key decoder reads, the public and non-P-256 key fixtures, and inputs taken from the tests.
Run from anywhere: python3 Fuzz/seeds.py (needs openssl for the demo key's other forms).
Existing files with the same names are replaced. The folders it writes (and their TARGET.dict) are its
own: a file there that it no longer writes (a seed whose fixture went away or was renamed) makes it exit 1
naming the file, so delete it (or write it here). Other folders of Fuzz/corpus and their dictionaries are
made by hand and left alone. A fixture it reads that is missing is an error, not a skipped seed."""
import base64, json, pathlib, subprocess, sys

root = pathlib.Path(__file__).resolve().parent.parent
corpus = root / "Fuzz" / "corpus"
written = set()  # every file this run writes


def seed(target, name, data):
    folder = corpus / target
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_bytes(data.encode() if isinstance(data, str) else data)
    written.add(folder / name)


def write_dictionary(target, text):
    path = root / "Fuzz" / "dictionaries" / f"{target}.dict"
    path.write_text(text)
    written.add(path)


def slug(text):
    return text.replace("/", "-")


vectors = json.loads((root / "Tests/Vectors/offerkit-vectors.json").read_text())["vectors"]
campaign = (root / "examples/campaign.json").read_text()
header = '{"alg":"ES256","kid":"DEMOKEY123","typ":"JWT"}'

# json: JSON documents of every size the parsers meet, and the corners of the grammar.
seed("json", "example-campaign.json", campaign)
seed("json", "config.json", (root / "keys-example/config.json").read_text())
seed("json", "service.json", (root / "keys-example/service.json").read_text())
for vector in vectors:
    if "payloadJson" in vector["expected"]:
        seed("json", f"payload-{slug(vector['name'])}.json", vector["expected"]["payloadJson"])
seed("json", "header.json", header)
seed("json", "escapes.json", '["\\"\\\\\\/\\b\\f\\n\\r\\t","\\u00e9\\u20AC\\ud83d\\ude00","caf\u00e9 \U0001F600"]')
seed("json", "numbers.json", '[0,-0,1,-1,1.5,-1.25e10,1E+2,2e-3,9223372036854775807,-9223372036854775808,9223372036854775808]')
seed("json", "literals.json", ' {"a" : true , "b":false,"c":null,"d":{},"e":[] , "f":[[{}]]} \r\n')
seed("json", "scalar.json", '"text"')

# campaign: the example, and one offer of each product type alone.
seed("campaign", "example-campaign.json", campaign)
document = json.loads(campaign)
for index, offer in enumerate(document["offers"]):
    single = dict(document, offers=[offer])
    seed("campaign", f"offer-{index + 1}-{offer['product']['type'].lower()}.json", json.dumps(single, indent=1))
seed("campaign", "empty-offers.json", json.dumps(dict(document, offers=[])))
seed("campaign", "bom.json", "\ufeff" + json.dumps(dict(document, offers=document["offers"][:1])))

# key: the demo key in every form the decoder reads; the public halves; other keys it must name.
p8 = (root / "keys-example/SubscriptionKey_DEMOKEY123.p8").read_bytes()
seed("key", "demo.pkcs8.pem", p8)


def openssl(*arguments, data=p8):
    return subprocess.run(["openssl", *arguments], input=data, capture_output=True, check=True).stdout


pkcs8_der = openssl("pkcs8", "-topk8", "-nocrypt", "-outform", "DER")
seed("key", "demo.pkcs8.der", pkcs8_der)
seed("key", "demo.base64.txt", base64.b64encode(pkcs8_der).decode() + "\n")
seed("key", "demo.sec1.pem", openssl("ec", "-outform", "PEM"))
seed("key", "demo.sec1.der", openssl("ec", "-outform", "DER"))
seed("key", "demo.pub.pem", (root / "keys-example/SubscriptionKey_DEMOKEY123.pub.pem").read_bytes())
seed("key", "demo.pub.der", openssl("ec", "-pubout", "-outform", "DER"))
seed("key", "demo.env.txt", p8.decode().replace("\n", "\\n"))
fixtures = root / "Tests/OfferSigningTests/Fixtures/keys"
for name in ["cert.der", "cert.pem", "ed25519.pkcs8.pem", "p384.sec1.pem", "secp256k1.pkcs8.pem", "p256.encrypted.der"]:
    seed("key", name, (fixtures / name).read_bytes())

# jws, jws-claims, legacy-signature, advanced-commerce: the interop vectors.
for vector in vectors:
    name, expected = slug(vector["name"]), vector["expected"]
    if "jws" in expected:
        seed("jws", f"{name}.jws", expected["jws"])
        seed("jws-claims", f"{name}.json", expected["payloadJson"])
    if "requestJson" in expected:
        seed("advanced-commerce", f"{name}.json", expected["requestJson"])
    if vector["kind"] == "legacy-promotional-offer":
        inputs = vector["inputs"]
        legacy = {
            "keyId": vector["keyId"], "nonce": vector["nonce"], "timestamp": vector["timestamp"],
            "encodedSignature": expected["signature"], "productId": inputs["productId"],
            "offerIdentifier": inputs["offerIdentifier"], "appAccountToken": inputs["appAccountToken"],
        }
        seed("legacy-signature", f"{name}.json", json.dumps(legacy))
seed("jws-claims", "header-and-payload.bin", header + "\0" + vectors[0]["expected"]["payloadJson"])

# apple-csv: the shapes AppleCodeCSVTests reads.
csv = {
    "codes-lf.csv": "A1B2C3D4E5\nZZZZ99\n",
    "codes-crlf-header.csv": "Code\r\nAAA111\r\nBBB222\r\n",
    "bom-header.csv": "\ufeffOffer Code\r\nAAA111\r\n",
    "quoted-and-blank.csv": '\n\r\n  AAA111  \n\tBBB222\t\r\n"CCC333"\n  " DDD444 "  \n\u00a0EEE555\u3000\n',
    "problems.csv": 'Code\nAAA111\nbad\nAAA111\nX,Y\nabc123\n"open\nA"B"C\ncaf\u00e9\n' + "Z" * 70 + "\n",
    "headers.csv": "AAA111\nCODE\nExpiry Date\nCode\n",
}
for name, text in csv.items():
    seed("apple-csv", name, text)

# batch: one line of each type (and the deprecated type and field spellings), and lines that fail.
request = next(v for v in vectors if v["name"] == "advanced-commerce/one-time-charge-minimal")
lines = {
    "promotional-offer.json": '{"type":"promotional-offer","id":1,"productId":"product.1","offerIdentifier":"OFFER1","transactionId":"2000000001"}',
    "promotional-offer-v1.json": '{"type":"promotional-offer-v1","id":"two","productId":"product.2","offerIdentifier":"OFFER2","appAccountToken":"A1B2C3D4-E5F6-4A7B-8C9D-0E1F2A3B4C5D","nonce":"3F2C6A8E-6A1B-4C5D-9E7F-0A1B2C3D4E5F","timestamp":1767225600000}',
    "intro-eligibility.json": '{"type":"intro-eligibility","id":3,"productId":"product.3","allowIntroductoryOffer":true,"transactionId":"3","nonce":"3f2c6a8e-6a1b-4c5d-9e7f-0a1b2c3d4e5f","iat":1767225600}',
    "advanced-commerce.json": '{"type":"advanced-commerce","id":4,"request":' + request["expected"]["requestJson"] + "}",
    "server-api-token.json": '{"type":"server-api-token","id":5,"lifetime":600}',
    "legacy-promotional-offer.json": '{"type":"legacy-promotional-offer","id":6,"productId":"product.6","offerIdentifier":"OFFER6","nonce":"3f2c6a8e-6a1b-4c5d-9e7f-0a1b2c3d4e5f","timestamp":1767225600000}',
    "introductory-offer-eligibility.json": '{"type":"introductory-offer-eligibility","id":7,"productId":"product.7","allowIntroductoryOffer":false,"transactionId":"7","issuedAt":1767225600}',
    "connect-api-token.json": '{"type":"connect-api-token","id":8,"lifetime":600,"scope":["GET /v1/apps"],"individual":false}',
    "unknown-type.json": '{"type":"no-such-type","id":"unknown"}',
    "wrong-type.json": '{"type":"intro-eligibility","productId":"p","allowIntroductoryOffer":"yes","transactionId":"1"}',
    "not-json.txt": "{type: promotional-offer}",
}
for name, line in lines.items():
    seed("batch", name, line)

# retention-rules: the rules of keys-example/service.json and of the tests, one rule of each decision kind, and
# rules the reader must name.
service = json.loads((root / "keys-example/service.json").read_text())
seed("retention-rules", "keys-example.json", json.dumps(service["retention"]["apps"]["com.example.offerkit.demo"], indent=1))
message = {"messageIdentifier": "7c9e6679-7425-40de-944b-e07fc1f90ae7"}
modify = {"operation": "MODIFY_SUBSCRIPTION", "version": "1", "retainBillingCycle": True,
          "changeItems": [{"SKU": "PRO_MONTHLY_RETAIN", "currentSKU": "PRO_MONTHLY", "description": "Pro, half price",
                           "displayName": "Pro", "price": 4990, "effective": "IMMEDIATELY", "reason": "APPLY_OFFER",
                           "offer": {"period": "P1M", "periodCount": 3, "price": 2490, "reason": "RETENTION"}}]}
rules = {
    "message.json": [{"message": message}],
    "alternate-product.json": [{"productId": "p.yearly", "alternateProduct": dict(message, productId="p.monthly",
                                                                                   billingPlanType="BILLED_UPFRONT")}],
    "promotional-offer-v1.json": [{"locale": "fr-FR", "promotionalOffer": dict(
        message, productId="p.monthly", offerIdentifier="WINBACK50", signature="v1")}],
    "advanced-commerce.json": [{"productId": "pro", "advancedCommerceInfo": dict(message, request=modify)}],
    "two-decisions.json": [{"message": message, "alternateProduct": dict(message, productId="p")}],
    "signature-v3.json": [{"promotionalOffer": dict(message, productId="p", offerIdentifier="o", signature="v3")}],
    "transaction-id-given.json": [{"advancedCommerceInfo": dict(message, request=dict(modify, transactionId="1"))}],
}
for name, value in rules.items():
    seed("retention-rules", name, json.dumps(value))

# realtime-request-body: the bodies Apple posts, around the real-time requests of the apple-signed cases.
cases = json.loads((root / "Tests/Fixtures/apple-signed/cases.json").read_text())["cases"]
for case in cases:
    if case["kind"] == "realtime-request" and case["name"] in ("realtime-request", "alg-none", "chain-of-1"):
        seed("realtime-request-body", f"{case['name']}.json", json.dumps({"signedPayload": case["jws"]}))
seed("realtime-request-body", "extra-member.json", '{"signedPayload": "a.b.c", "notification": 1}')
seed("realtime-request-body", "duplicate.json", '{"signedPayload": "a.b.c", "signedPayload": "d.e.f"}')
seed("realtime-request-body", "escaped.json", r'{"signedPayload": "eyJ\u0061.e30.\/"}')

# realtime-answer: the answers of each kind the endpoint gives (RealtimeResponseBody), and near misses.
message = "7c9e6679-7425-40de-944b-e07fc1f90ae7"
v2 = "eyJhbGciOiJFUzI1NiIsImtpZCI6IkRFTU9LRVkxMjMiLCJ0eXAiOiJKV1QifQ.e30.c2ln"
answers = {
    "default.json": {},
    "message.json": {"message": {"messageIdentifier": message}},
    "alternate-product.json": {"alternateProduct": {"messageIdentifier": message, "productId": "com.example.offerkit.monthly",
                                                    "billingPlanType": "MONTHLY"}},
    "promotional-offer-v2.json": {"promotionalOffer": {"messageIdentifier": message, "promotionalOfferSignatureV2": v2}},
    "promotional-offer-v1.json": {"promotionalOffer": {"messageIdentifier": message, "promotionalOfferSignatureV1": {
        "encodedSignature": "MEUCIQ==", "productId": "com.example.offerkit.monthly",
        "nonce": "24151762-d375-41d1-8495-f38efc0e17a9", "timestamp": 1795263600395, "keyId": "DEMOKEY123",
        "offerIdentifier": "WINBACK50", "appAccountToken": "e3b1c9a2-0d4f-4a6b-8c7d-9e0f1a2b3c4d"}}},
    "advanced-commerce.json": {"advancedCommerceInfo": {"messageIdentifier": message, "advancedCommerceData":
        base64.b64encode(json.dumps({"signatureInfo": {"token": v2}}).encode()).decode()}},
    "two-members.json": {"message": {"messageIdentifier": message}, "alternateProduct": {}},
    "unknown-member.json": {"message": {"messageIdentifier": message, "extra": 1}},
}
for name, value in answers.items():
    seed("realtime-answer", name, json.dumps(value))
seed("realtime-answer", "not-an-object.json", "[]")

# Dictionaries (libFuzzer -dict): the grammar's tokens, and every member name and short string
# value of the JSON seeds, so that mutations can spell the formats' names and enumerations.
def token(text):
    data = text.encode() if isinstance(text, str) else text
    escaped = "".join(chr(b) if 0x20 <= b < 0x7F and b not in (0x22, 0x5C) else f"\\x{b:02X}" for b in data)
    return f'"{escaped}"'


def strings(value, found):
    if isinstance(value, dict):
        for key, member in value.items():
            found.add(key)
            strings(member, found)
    elif isinstance(value, list):
        for element in value:
            strings(element, found)
    elif isinstance(value, str) and len(value) <= 40:
        found.add(value)


grammar = ["{", "}", "[", "]", ":", ",", '""', "true", "false", "null", "-0", "1e9", ".5", "\\u", "\\ud800\\udc00",
           "-1", "2147483647", "4294967296", "9223372036854775807", "-9223372036854775808", "9223372036854775808",
           "18446744073709551616", "1e308", "-1e400", "0.1e-400"]
enumerations = [
    "ACTIVE_SPENDER", "AUTO_RENEWABLE_SUBSCRIPTION", "CHURNED_SPENDER", "CONSUMABLE", "EXISTING", "EXPIRED",
    "FREE_TRIAL", "MONTHLY", "NEW", "NON_CONSUMABLE", "NON_RENEWING_SUBSCRIPTION", "NON_SPENDER", "ONE_MONTH",
    "ONE_TIME", "ONE_WEEK", "ONE_YEAR", "PAY_AS_YOU_GO", "PAY_UP_FRONT", "PRODUCTION", "REPLACE_INTRO_OFFERS",
    "SANDBOX", "SIX_MONTHS", "STACK_WITH_INTRO_OFFERS", "THREE_DAYS", "THREE_MONTHS", "TWO_MONTHS", "TWO_WEEKS",
    "UPFRONT", "P90D", "P6M", "2027-03-15",
]
(root / "Fuzz" / "dictionaries").mkdir(exist_ok=True)
for target in ["json", "campaign", "jws-claims", "advanced-commerce", "batch", "legacy-signature", "retention-rules"]:
    found = set()
    for path in (corpus / target).iterdir():
        text = path.read_bytes().split(b"\0")[-1].decode("utf-8-sig", errors="replace")
        try:
            strings(json.loads(text), found)
        except ValueError:
            pass
    words = grammar + sorted(f'"{word}"' for word in found)
    if target == "campaign":
        words += [f'"{word}"' for word in enumerations]
    lines = [token(word) for word in dict.fromkeys(words)]
    write_dictionary(target, "\n".join(lines) + "\n")
pem = ["-----BEGIN PRIVATE KEY-----", "-----END PRIVATE KEY-----", "-----BEGIN EC PRIVATE KEY-----",
       "-----END EC PRIVATE KEY-----", "-----BEGIN PUBLIC KEY-----", "-----BEGIN ENCRYPTED PRIVATE KEY-----",
       "\n", "MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg"]
der = [bytes.fromhex(h) for h in [
    "3081", "3082", "020100", "020101", "0201", "0400", "0420", "a00a", "a144034200",
    "06072a8648ce3d0201", "06082a8648ce3d030107", "06052b81040022", "06032b6570", "06092a864886f70d010101"]]
write_dictionary("key", "\n".join(token(word) for word in pem + der) + "\n")
csv_tokens = ["\r\n", "\n", '"', '""', ",", "\xef\xbb\xbf".encode("latin-1"), "Code", "Offer Code", "CODE", "VALUES",
              " ", "\t", "\u00a0", "\u3000", "abc", "AAA111"]
write_dictionary("apple-csv", "\n".join(token(word) for word in csv_tokens) + "\n")
jws_tokens = [".", "eyJ", "eyJhbGciOiJFUzI1NiIsImtpZCI6IkRFTU9LRVkxMjMiLCJ0eXAiOiJKV1QifQ", "=", "-", "_", "+", "/",
              " ", "\n"]
write_dictionary("jws", "\n".join(token(word) for word in jws_tokens) + "\n")
body_tokens = ["{", "}", ":", ",", '"signedPayload"', '""', "\\u", "\\/", ".", "eyJ", "eyJhbGciOiJFUzI1NiIsIng1YyI6WyJNSUl",
               "null", "[]", " ", "\n"]
write_dictionary("realtime-request-body", 
    "\n".join(token(word) for word in body_tokens) + "\n")

# pem: root certificates and TLS files as OpenSSL writes them, other line widths, CRLF, broken blocks.
text = (root / "Tests/Fixtures/readme-walkthrough/apple-test-root.pem").read_text()
seed("pem", "certificate.pem", text)
seed("pem", "certificate-crlf.pem", text.replace("\n", "\r\n"))
body = "".join(line for line in text.splitlines() if not line.startswith("-----"))
seed("pem", "certificate-76.pem", "-----BEGIN CERTIFICATE-----\n"
     + "\n".join(body[i:i + 76] for i in range(0, len(body), 76)) + "\n-----END CERTIFICATE-----\n")
seed("pem", "ec-parameters.pem", "-----BEGIN EC PARAMETERS-----\nBggqhkjOPQMBBw==\n-----END EC PARAMETERS-----\n")
seed("pem", "unterminated.pem", "-----BEGIN CERTIFICATE-----\nMIIB\n")
seed("pem", "not-base64.pem", "-----BEGIN CERTIFICATE-----\n%%%%\n-----END CERTIFICATE-----\n")
seed("pem", "empty-block.pem", "-----BEGIN CERTIFICATE-----\n-----END CERTIFICATE-----\n")
seed("pem", "nested-begin.pem", "-----BEGIN CERTIFICATE-----\nMIIB\n-----BEGIN CERTIFICATE-----\nMIIB\n"
     "-----END CERTIFICATE-----\n")
seed("pem", "mismatched-end.pem", "-----BEGIN CERTIFICATE-----\nMIIB\n-----END PRIVATE KEY-----\n")
# A key flattened to one line (`echo $KEY > key.pem`, or "\n" written as two characters): no BEGIN line.
p8_lines = p8.decode().splitlines()
seed("pem", "key-one-line.pem", " ".join(p8_lines) + "\n")
seed("pem", "key-escaped-newlines.pem", "\\n".join(p8_lines) + "\n")
seed("pem", "key-pkcs8.pem", p8)
seed("pem", "key-legacy-encrypted.pem", "-----BEGIN EC PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\n"
     "DEK-Info: AES-128-CBC,00112233445566778899AABBCCDDEEFF\n\nMIIB\n-----END EC PRIVATE KEY-----\n")

# http-framing: the bytes of a connection, as HostileClientTests sends them: well-formed requests (a length, chunks
# with an extension and a trailer, pipelined), codings the service refuses, chunk sizes over its 64-byte limit.
def request(fields, body=""):
    return ("POST /v1/signatures/promotional-offer HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            + fields + "\r\n" + body)


framing_body = '{"bundleId":"com.example.offerkit.demo"}'
chunked = f"{len(framing_body):x};part=1\r\n{framing_body}\r\n0\r\nX-Trailer: 1\r\n\r\n"
seed("http-framing", "get.http", "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
seed("http-framing", "length.http", request(f"Content-Length: {len(framing_body)}\r\n", framing_body))
seed("http-framing", "chunked.http", request("Transfer-Encoding: chunked\r\n", chunked))
seed("http-framing", "pipelined.http", request(f"Content-Length: {len(framing_body)}\r\n", framing_body)
     + request("Transfer-Encoding: chunked\r\n", chunked) + "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
seed("http-framing", "gzip-chunked.http", request("Transfer-Encoding: gzip, chunked\r\n", chunked))
seed("http-framing", "two-fields.http", request("Transfer-Encoding: identity\r\nTransfer-Encoding: chunked\r\n", chunked))
seed("http-framing", "chunk-over-limit.http", request("Transfer-Encoding: chunked\r\n", "FFFFFFFFFFFFFFFF\r\n"))
seed("http-framing", "chunks-over-limit.http", request("Transfer-Encoding: chunked\r\n", "20\r\n" + " " * 32 + "\r\n21\r\n"))
seed("http-framing", "after-another.http", request(f"Content-Length: {len(framing_body)}\r\n", framing_body)
     + request("Transfer-Encoding: chunked\r\n", "0000000041;x=y\r\n"))
framing_tokens = ["\r\n", "\r\n\r\n", "Transfer-Encoding: ", "chunked", "gzip, chunked", "identity", "Content-Length: ",
                  "0\r\n\r\n", ";", "FFFFFFFFFFFFFFFF", "POST / HTTP/1.1\r\n", "GET / HTTP/1.1\r\n", "Connection: close"]
write_dictionary("http-framing", "\n".join(token(word) for word in framing_tokens) + "\n")

# The folders written above are this script's: a file there that this run did not write is a stale seed.
owned = {path.parent for path in written if path.parent.parent == corpus}
owned_dictionaries = {root / "Fuzz" / "dictionaries" / f"{folder.name}.dict" for folder in owned}
stale = sorted(path for folder in owned for path in folder.iterdir() if path not in written)
stale += sorted(path for path in owned_dictionaries if path.exists() and path not in written)
for path in stale:
    print(f"seeds.py: {path.relative_to(root)} is in a folder seeds.py writes but this run did not write it: "
          "delete it, or make seeds.py write it", file=sys.stderr)
sys.exit(1 if stale else 0)
