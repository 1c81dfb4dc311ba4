#!/bin/sh
# Regenerates the key fixtures used by KeyLoadingTests.swift. Run ONCE from this folder;
# the committed outputs are the fixtures (the tests do not run openssl).
# These are throwaway TEST keys, unrelated to keys-example/ (the demo key).
# Generated with OpenSSL 3.0 and python3 (hashlib/base64/json only).
set -eu
cd "$(dirname "$0")"

# --- P-256 test key in every accepted form -----------------------------------------
openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out p256.pkcs8.pem        # BEGIN PRIVATE KEY
openssl ec -in p256.pkcs8.pem -out p256.sec1.pem                                           # BEGIN EC PRIVATE KEY
openssl ecparam -name prime256v1 -out p256.ecparam.pem                                      # EC PARAMETERS block ...
openssl ec -in p256.pkcs8.pem >> p256.ecparam.pem                                           # ... + EC PRIVATE KEY (as `ecparam -genkey` prints)
openssl pkcs8 -topk8 -nocrypt -in p256.pkcs8.pem -outform DER -out p256.pkcs8.der          # DER PKCS#8
openssl ec -in p256.pkcs8.pem -outform DER -out p256.sec1.der                              # DER SEC1
openssl base64 -A -in p256.pkcs8.der > p256.base64.txt                                      # base64 body, one line
printf '\n' >> p256.base64.txt
openssl pkey -in p256.pkcs8.pem -pubout -out p256.pub.pem                                  # expected public key
# Same thing as `openssl ecparam -genkey` emits for a fresh key (its own key, also P-256):
openssl ecparam -name prime256v1 -genkey -out p256-genkey.pem
openssl pkey -in p256-genkey.pem -pubout -out p256-genkey.pub.pem

# A P-256 key whose DER ends in a byte that is ASCII whitespace (0x09, 0x0A, 0x0D or 0x20),
# as about 1 key in 64 does: binary DER must not be whitespace-trimmed.
while :; do
  openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -outform DER -out p256-ws.pkcs8.der
  case "$(tail -c 1 p256-ws.pkcs8.der | od -An -tx1 | tr -d ' ')" in 09|0a|0d|20) break ;; esac
done
openssl pkey -inform DER -in p256-ws.pkcs8.der -pubout -out p256-ws.pub.pem
: > empty.p8                                                                                # empty key file

# --- keys that must be rejected ------------------------------------------------------
openssl pkey -in p256.pkcs8.pem -pubout -outform DER -out p256.pub.der                     # public key (DER)
openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out rsa.pkcs8.pem            # BEGIN PRIVATE KEY (RSA)
openssl rsa -in rsa.pkcs8.pem -traditional -out rsa.pkcs1.pem                              # BEGIN RSA PRIVATE KEY
openssl rsa -in rsa.pkcs8.pem -traditional -outform DER -out rsa.pkcs1.der                 # PKCS#1 DER
openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-384 -out p384.pkcs8.pem
openssl ec -in p384.pkcs8.pem -out p384.sec1.pem
openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:secp256k1 -out secp256k1.pkcs8.pem
openssl ec -in secp256k1.pkcs8.pem -out secp256k1.sec1.pem
openssl genpkey -algorithm ED25519 -out ed25519.pkcs8.pem
openssl pkcs8 -topk8 -in p256.pkcs8.pem -passout pass:test -v2 aes-256-cbc -out p256.encrypted.pem  # BEGIN ENCRYPTED PRIVATE KEY
openssl pkcs8 -topk8 -in p256.pkcs8.pem -passout pass:test -v2 aes-256-cbc -outform DER -out p256.encrypted.der
openssl ec -in p256.pkcs8.pem -aes256 -passout pass:test -out p256.sec1-encrypted.pem      # Proc-Type: 4,ENCRYPTED
openssl req -new -x509 -key p256.pkcs8.pem -subj "/CN=OfferKit test" -days 3650 -out cert.pem
openssl x509 -in cert.pem -outform DER -out cert.der
openssl pkcs12 -export -inkey p256.pkcs8.pem -in cert.pem -passout pass:test -out bundle.p12   # DER PFX

# --- RFC 7638 JWK thumbprint of the P-256 test key, computed independently -------------
openssl ec -in p256.pkcs8.pem -pubout -conv_form uncompressed -outform DER 2>/dev/null | python3 -c '
import sys, hashlib, base64, json
der = sys.stdin.buffer.read()
point = der[-65:]; assert point[0] == 4
b64 = lambda b: base64.urlsafe_b64encode(b).rstrip(b"=").decode()
jwk = json.dumps({"crv": "P-256", "kty": "EC", "x": b64(point[1:33]), "y": b64(point[33:])}, separators=(",", ":"), sort_keys=True)
print(b64(hashlib.sha256(jwk.encode()).digest()))' > thumbprint.txt

# --- Private scalar hex of the P-256 test key (for the redaction tests) --------------
openssl ec -in p256.pkcs8.pem -text -noout 2>/dev/null \
  | awk '/^priv:/{p=1;next} /^pub:/{p=0} p' | tr -d ' :\n' > p256.scalar.hex
printf '\n' >> p256.scalar.hex
