"""The peer of Benchmarks/run's service rows: Apple's App Store Server Library for Python behind FastAPI.

It serves `POST /v1/signatures/promotional-offer` as `offerkit serve` does: the same JSON body
(`bundleId`, `productId`, `offerIdentifier`, optional `transactionId`), a bearer API key, and an
equivalent answer (`jws`, `keyId`, `nonce`, `issuedAt`), each JWS signed by the library's
PromotionalOfferV2SignatureCreator. Benchmarks/run starts it with uvicorn (2 workers, uvloop,
httptools, no access log) in a venv it makes (.build/peer-venv):

    PEER_KEY_FILE=key.p8 PEER_KEY_ID=… PEER_ISSUER_ID=… PEER_BUNDLE_ID=… PEER_API_KEY=secret \\
        uvicorn peer_fastapi:app --app-dir Benchmarks --workers 2 --loop uvloop --http httptools

The handler is `async def`, so a signature runs on the event loop with no hop to a thread pool:
the quickest way FastAPI offers for work this short.
"""

import base64
import hmac
import json
import os
from typing import Optional

from appstoreserverlibrary.jws_signature_creator import PromotionalOfferV2SignatureCreator
from fastapi import FastAPI, Header, HTTPException
from pydantic import BaseModel, ConfigDict


def setting(name):
    value = os.environ.get(name)
    if not value:
        raise SystemExit(f"peer_fastapi: set {name} (see the module's docstring)")
    return value


KEY_ID = setting("PEER_KEY_ID")
BUNDLE_ID = setting("PEER_BUNDLE_ID")
with open(setting("PEER_KEY_FILE"), "rb") as key_file:
    CREATOR = PromotionalOfferV2SignatureCreator(
        signing_key=key_file.read(), key_id=KEY_ID, issuer_id=setting("PEER_ISSUER_ID"), bundle_id=BUNDLE_ID)
EXPECTED_AUTHORIZATION = ("Bearer " + setting("PEER_API_KEY")).encode()

app = FastAPI(openapi_url=None, docs_url=None, redoc_url=None)


class PromotionalOfferRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    bundleId: str
    productId: str
    offerIdentifier: str
    transactionId: Optional[str] = None


@app.post("/v1/signatures/promotional-offer")
async def sign_promotional_offer(body: PromotionalOfferRequest, authorization: Optional[str] = Header(None)):
    if authorization is None or not hmac.compare_digest(authorization.encode(), EXPECTED_AUTHORIZATION):
        raise HTTPException(status_code=401, detail="Authorization: expected Bearer and the API key")
    if body.bundleId != BUNDLE_ID:
        raise HTTPException(status_code=404, detail=f"bundleId: no app {body.bundleId!r} is configured")
    jws = CREATOR.create_signature(body.productId, body.offerIdentifier, body.transactionId)
    # The library returns the JWS alone: its nonce and issue time are read back from the payload.
    payload = jws.split(".")[1]
    claims = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
    return {"jws": jws, "keyId": KEY_ID, "nonce": claims["nonce"], "issuedAt": claims["iat"]}
