"""A live `offerkit serve` for the clients' tests, and the independent checks of what it signs.

Used by the Python client's tests (test_python_client.py, through conftest.py) and, as a program, by the
Swift client's tests (clients/tests/Tests/OfferKitClientTests), so that both clients meet the same service:

    python live_service.py serve     starts the services, prints one JSON line (below), and stops them when
                                     its stdin closes; exits non-zero when a service did not exit 0 on SIGTERM
    python live_service.py verify    reads {"jws": [{"token", "aud"}], "legacy": [LEGACY...]} on stdin and
                                     verifies each JWS with PyJWT and cryptography and each legacy signature
                                     with openssl; prints {"claims": [...]} or exits 1 naming what failed

The JSON line of `serve`: {"url", "limitedUrl", "keys": {"all", "narrow", "limited"}, "signedPayloads": [...],
"publicKey" (the demo key's PEM path), "bundleId", "otherBundleId", "campaign", "planRequest" (a
PlanCampaignRequest as JSON: examples/campaign.json and its generated codes), "claim" ({"campaign", "offer",
"emptyOffer"})}.

Two services run, both with keys-example/service.json (the demo key; a ledger with examples/campaign.json's
codes, made by `offerkit codes generate`; Retention Messaging trusting a test root made here, whose leaf signs
`signedPayloads`): `url` with the configured limits, and `limitedUrl` with `--rate-limit 1 --burst 1
--max-body-bytes 4096`, for the 429 and 413 problems. API keys: `all` (every scope and app), `narrow`
(scope promotional-offer, bundle ID com.example.offerkit.demo only) and `limited` (for the limited service).

The binary is $OFFERKIT_BINARY, else .build/debug/offerkit. Needs cryptography and PyJWT, and openssl.
"""
import base64
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "Tests" / "Fixtures" / "apple-signed"))
sys.path.insert(0, str(ROOT / "Tests" / "Interop"))

import make_apple_signed as chain_maker  # noqa: E402  (the test chain of OfferAppleVerification's tests)
import verify_jws  # noqa: E402  (PyJWT and cryptography over the raw r||s signature)

BUNDLE_ID = "com.example.offerkit.demo"
OTHER_BUNDLE_ID = "com.example.offerkit.other"
APP_APPLE_ID = 1234567890
PUBLIC_KEY = ROOT / "keys-example" / "SubscriptionKey_DEMOKEY123.pub.pem"
CAMPAIGN = ROOT / "examples" / "campaign.json"
CLAIM_OFFER = "Spring half price, 3 months"
EMPTY_OFFER = "Spring trial, 1 month free"  # one-time-use codes only, none imported: 409 nothing-to-assign


def binary():
    return os.environ.get("OFFERKIT_BINARY") or str(ROOT / ".build" / "debug" / "offerkit")


def run(*arguments, env=None):
    """Runs `offerkit arguments…` and returns its stdout; raises with its stderr when it fails."""
    result = subprocess.run([binary(), *arguments], capture_output=True, text=True, env=env, cwd=ROOT)
    if result.returncode != 0:
        raise RuntimeError(f"offerkit {' '.join(arguments)} exited {result.returncode}: {result.stderr.strip()}")
    return result.stdout


class TestChain:
    """A root, an intermediate and a leaf with Apple's OIDs; the leaf signs real-time requests."""

    def __init__(self):
        from cryptography.hazmat.primitives.asymmetric import ec

        root_key = chain_maker.key(ec.SECP384R1)
        root = chain_maker.certificate("OfferKit Clients Test Root", root_key, ca=True)
        intermediate_key = chain_maker.key()
        intermediate = chain_maker.certificate("OfferKit Clients Test WWDR", intermediate_key, root, root_key,
                                               ca=True, path_length=0, oid=chain_maker.INTERMEDIATE_OID)
        self.leaf_key = chain_maker.key()
        leaf = chain_maker.certificate("OfferKit Clients Test Signing", self.leaf_key, intermediate,
                                       intermediate_key, oid=chain_maker.LEAF_OID)
        self.chain = [leaf, intermediate, root]
        self.root_pem = chain_maker.pem(root)

    def realtime_request(self, product_id="com.example.offerkit.monthly", locale="en-US"):
        """A signedPayload of the App Store's Get Retention Message request, signed now."""
        payload = chain_maker.realtime_request(
            app_apple_id=APP_APPLE_ID, productId=product_id, userLocale=locale,
            requestIdentifier=str(uuid.uuid4()), signedDate=int(time.time() * 1000))
        return chain_maker.sign(payload, self.leaf_key, self.chain)


class Serve:
    """One `offerkit serve` on a loopback port the system chose."""

    def __init__(self, folder, name, arguments, api_keys):
        self.log_path = Path(folder) / f"{name}.log"
        self.log = open(self.log_path, "w")
        env = dict(os.environ, OFFERKIT_API_KEYS=json.dumps(api_keys))
        self.process = subprocess.Popen([binary(), "serve", *arguments, "--port", "0"], stdout=subprocess.DEVNULL,
                                        stderr=self.log, env=env, cwd=ROOT)
        prefix = "offerkit: listening on "
        deadline = time.monotonic() + 60
        while True:
            lines = self.log_path.read_text().splitlines()
            found = [line[len(prefix):] for line in lines if line.startswith(prefix)]
            if found:
                self.url = found[0].strip()
                break
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.process.kill()
                raise RuntimeError(f"offerkit serve did not start listening:\n{self.log_path.read_text()}")
            time.sleep(0.05)

    def stop(self):
        """SIGTERM, then the exit status (0 after a graceful shutdown)."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            status = self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            status = self.process.wait()
        self.log.close()
        return status


class LiveService:
    """The two services, their keys, signed real-time requests and the campaign to plan; see the module."""

    def __init__(self, signed_payloads=6):
        self.folder = tempfile.mkdtemp(prefix="offerkit-clients-")
        self.servers = []
        try:
            self._start(signed_payloads)
        except BaseException:
            self.stop()
            raise

    def _start(self, signed_payloads):
        folder = Path(self.folder)
        keys = {}
        entries = {}
        for name, options in {"all": [], "narrow": ["--scope", "promotional-offer", "--bundle-id", BUNDLE_ID],
                              "limited": []}.items():
            secret, entry = run("api-key", "create", "--name", f"clients-{name}", *options).splitlines()[:2]
            keys[name] = secret
            entries[name] = json.loads(entry)
        self.keys = keys
        ledger = folder / "ledger.sqlite"
        run("codes", "generate", str(CAMPAIGN), "--ledger", str(ledger))
        codes = json.loads(run("codes", "export", str(CAMPAIGN), "--ledger", str(ledger), "--format", "json"))
        self.chain = TestChain()
        shutil.copytree(ROOT / "keys-example", folder / "keys")
        (folder / "keys" / "test-root.pem").write_text(self.chain.root_pem)
        configuration = json.loads((ROOT / "keys-example" / "service.json").read_text())
        configuration["retention"]["rootCertificates"] = ["test-root.pem"]
        configuration["ledger"] = str(ledger)
        (folder / "keys" / "service.json").write_text(json.dumps(configuration))
        config = str(folder / "keys" / "service.json")
        self.servers.append(Serve(folder, "serve", ["--config", config], [entries["all"], entries["narrow"]]))
        self.servers.append(Serve(folder, "serve-limited",
                                  ["--config", config, "--rate-limit", "1", "--burst", "1", "--max-body-bytes", "4096"],
                                  [entries["limited"]]))
        self.url = self.servers[0].url
        self.limited_url = self.servers[1].url
        self.signed_payloads = [self.chain.realtime_request() for _ in range(signed_payloads)]
        self.campaign = json.loads(CAMPAIGN.read_text())
        self.plan_request = {"campaign": self.campaign, "customCodes": generated_codes(self.campaign, codes)}

    def description(self):
        return {
            "url": self.url, "limitedUrl": self.limited_url, "keys": self.keys,
            "signedPayloads": self.signed_payloads, "publicKey": str(PUBLIC_KEY), "bundleId": BUNDLE_ID,
            "otherBundleId": OTHER_BUNDLE_ID, "campaign": self.campaign, "planRequest": self.plan_request,
            "claim": {"campaign": self.campaign["name"], "offer": CLAIM_OFFER, "emptyOffer": EMPTY_OFFER},
        }

    def stop(self):
        """Stops the services; returns {log name: exit status}."""
        statuses = {server.log_path.name: server.stop() for server in self.servers}
        self.servers = []
        shutil.rmtree(self.folder, ignore_errors=True)
        return statuses


def generated_codes(campaign, exported):
    """The `customCodes` of a plan request: for each offer's one batch with `generate`, the codes the ledger
    holds for it (its exported codes that are not listed in the campaign)."""
    supplied = []
    for offer in campaign["offers"]:
        batches = offer.get("customCodes", [])
        generated = [number for number, batch in enumerate(batches, start=1) if "generate" in batch]
        if not generated:
            continue
        if len(generated) > 1:
            raise ValueError(f"{offer['referenceName']} has more than one generated batch")
        listed = {code for batch in batches for code in batch.get("codes", [])}
        codes = [row["code"] for row in exported if row["offer"] == offer["referenceName"] and row["code"] not in listed]
        supplied.append({"offer": offer["referenceName"], "batch": generated[0], "codes": codes})
    return supplied


def verify_token(token, aud):
    """The claims of a compact JWS the demo key signed, checked by PyJWT (ES256, `aud`) and cryptography."""
    return verify_jws.verify(token, aud, PUBLIC_KEY.read_bytes())


def verify_legacy(signature, bundle_id=BUNDLE_ID):
    """Checks a legacy promotional offer signature as the service answered it (keyId, productId,
    offerIdentifier, appAccountToken, nonce, timestamp, signature) with `openssl dgst -sha256 -verify`
    over the U+2063-joined message StoreKit's server rebuilds from the same values."""
    fields = [bundle_id, signature["keyId"], signature["productId"], signature["offerIdentifier"],
              signature["appAccountToken"], signature["nonce"], str(signature["timestamp"])]
    with tempfile.TemporaryDirectory() as work:
        message, der = Path(work) / "message", Path(work) / "signature.der"
        message.write_bytes("\u2063".join(fields).encode())
        der.write_bytes(base64.b64decode(signature["signature"], validate=True))
        result = subprocess.run(["openssl", "dgst", "-sha256", "-verify", str(PUBLIC_KEY), "-signature", str(der),
                                 str(message)], capture_output=True, text=True)
    if result.returncode != 0 or result.stdout.strip() != "Verified OK":
        raise AssertionError(f"openssl did not verify the legacy signature: {result.stdout}{result.stderr}")


def serve_main():
    service = LiveService()
    print(json.dumps(service.description()), flush=True)
    sys.stdin.read()  # until the test closes it
    statuses = service.stop()
    bad = {name: status for name, status in statuses.items() if status != 0}
    if bad:
        print(f"offerkit serve exited non-zero after SIGTERM: {bad}", file=sys.stderr)
        return 1
    return 0


def verify_main():
    request = json.load(sys.stdin)
    claims = []
    for index, item in enumerate(request.get("jws", [])):
        try:
            claims.append(verify_token(item["token"], item["aud"]))
        except Exception as error:  # every failure is reported and fails the run
            print(f"jws {index} (aud {item.get('aud')}): {type(error).__name__}: {error}", file=sys.stderr)
            return 1
    for index, item in enumerate(request.get("legacy", [])):
        try:
            verify_legacy(item, item.get("bundleId", BUNDLE_ID))
        except Exception as error:
            print(f"legacy signature {index}: {type(error).__name__}: {error}", file=sys.stderr)
            return 1
    print(json.dumps({"claims": claims}))
    return 0


if __name__ == "__main__":
    commands = {"serve": serve_main, "verify": verify_main}
    if len(sys.argv) != 2 or sys.argv[1] not in commands:
        print("usage: live_service.py serve|verify", file=sys.stderr)
        sys.exit(2)
    sys.exit(commands[sys.argv[1]]())
