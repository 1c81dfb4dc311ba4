import Foundation

extension InteropVectorSet {
    /// The `README.md` of an exported vector set: which key and app the vectors are for, what a
    /// case holds, the exact rules each kind follows, and how to check an implementation.
    ///
    /// The text depends only on the vectors' deterministic parts (names, kinds, identifiers and
    /// the public key), so it is the same on every run for the same key.
    public func readme() -> String {
        let first = vectors.first
        let keyId = first?.keyId ?? ""
        let rows = vectors.map { vector in
            let clock =
                vector.timestamp.map { "timestamp \($0) ms" } ?? vector.iat.map { "iat \($0)" } ?? ""
            return "| `\(vector.name)` | `\(vector.kind.rawValue)` | \(clock) |"
        }
        let legacyName = vectors.first { $0.kind == .legacyPromotionalOffer }?.name ?? "legacy-promotional-offer/…"
        let jwsName = vectors.first { $0.kind == .promotionalOffer }?.name ?? "promotional-offer/…"
        return """
            # OfferKit interop vectors

            Made by `offerkit vectors` for the key `\(keyId)` (issuer `\(first?.issuerId ?? "")`, \
            bundle ID `\(first?.bundleId ?? "")`). Use them to check another implementation, in any \
            language, byte for byte against OfferKit: a signer, a verifier, or both.

            | file | what it is |
            |---|---|
            | `\(InteropVectorFile.vectorsName)` | the \(vectors.count) cases below |
            | `\(InteropVectorFile.publicKeyName)` | the public half of key `\(keyId)` (P-256, SubjectPublicKeyInfo PEM); every case carries it too, as `publicKeyPem` |
            | `\(InteropVectorFile.readmeName)` | this file |

            The clock is fixed in the past (2026-01-01), so the signed offers and tokens here were \
            stale the day they were made, and the products are examples. Regenerating with the same \
            key changes only the signatures: ECDSA is randomised.

            ## A case

            | field | meaning |
            |---|---|
            | `name`, `kind` | the case, and what is signed: `promotional-offer`, `introductory-offer-eligibility`, `advanced-commerce`, `server-api-token`, `connect-api-token` or `legacy-promotional-offer` |
            | `inputs` | the request, with the field names of Apple's documentation (tokens: `lifetime` in seconds, `scope`, `individual`) |
            | `keyId`, `issuerId`, `bundleId` | the identifiers signed in |
            | `nonce` | the fixed nonce (lower-case UUID); not in the API tokens |
            | `iat` | JWS kinds: the fixed issued-at time, whole seconds |
            | `timestamp` | legacy: the fixed time in milliseconds |
            | `expected.headerJson`, `expected.payloadJson` | JWS kinds: the exact JSON bytes of header and payload |
            | `expected.requestJson` | Advanced Commerce: the exact request JSON that is base64-encoded into the `request` claim |
            | `expected.headerSegment`, `expected.payloadSegment` | their base64url encodings, without padding |
            | `expected.signingInput` | `headerSegment.payloadSegment`: the bytes that are signed |
            | `expected.message`, `expected.messageHex` | legacy: the signed message and its UTF-8 bytes in hex |
            | `expected.signature` | a signature that verifies: base64url raw `r‖s` (64 bytes) for a JWS; standard base64 DER for legacy |
            | `expected.jws` | JWS kinds: the whole compact JWS |
            | `publicKeyPem` | the public key that verifies `expected.signature` |

            ## The rules the bytes follow

            - **Header:** exactly `{"alg":"ES256","kid":"<keyId>","typ":"JWT"}`, in that order.
            - **JSON:** no whitespace; members in the order below; integers for `iat` and `exp`; \
            non-ASCII text as UTF-8, not `\\u` escapes; `/` not escaped.
            - **Promotional offer:** `iss`, `iat`, `aud` = `promotional-offer`, `bid`, `nonce`, \
            `productId`, `offerIdentifier`, then `transactionId` when given.
            - **Introductory-offer eligibility:** `iss`, `iat`, `aud` = \
            `introductory-offer-eligibility`, `bid`, `nonce`, `productId`, `allowIntroductoryOffer`, \
            `transactionId`.
            - **Advanced Commerce:** `iss`, `iat`, `aud` = `advanced-commerce-api`, `bid`, `nonce`, \
            `request` = standard base64, with padding, of `expected.requestJson`.
            - **App Store Server API token:** `iss`, `iat`, `exp` = `iat` + lifetime, `aud` = \
            `appstoreconnect-v1`, `bid`.
            - **App Store Connect API token:** `iss` (team key) or `sub` = `user` (individual key), \
            `iat`, `exp`, `aud` = `appstoreconnect-v1`, then `scope` when not empty.
            - **Signature (JWS):** ES256 over the signing input's ASCII bytes: raw `r‖s`, 32 bytes \
            each, base64url without padding. DER here is a bug.
            - **Legacy signature:** the UTF-8 bytes of `bundleId`, `keyId`, `productId`, \
            `offerIdentifier`, `appAccountToken` (lower-cased, may be empty), `nonce` and `timestamp` \
            joined by U+2063 (bytes `E2 81 A3`); ECDSA P-256 with SHA-256, DER, standard base64 \
            with padding.

            ## Checking an implementation

            1. **A signer.** Load the same private key (`offerkit vectors` made these with it). For \
            each case, sign `inputs` with `nonce` and `iat` (or `timestamp`) instead of a fresh \
            nonce and the current time. Your header and payload JSON, segments and signing input \
            (legacy: message) must equal `expected` byte for byte. Your signature will differ from \
            `expected.signature`; it must verify with `\(InteropVectorFile.publicKeyName)`.
            2. **A verifier.** It must accept every `expected.jws` (legacy: `expected.signature` over \
            `expected.message`) with `\(InteropVectorFile.publicKeyName)`, and reject it when one \
            byte of the payload or signature changes.

            By hand, with `jq`, `openssl` and Python's PyJWT:

            ```sh
            # a legacy signature: DER, so openssl verifies it as it is
            jq -j '.vectors[] | select(.name == "\(legacyName)") | .expected.message' \(InteropVectorFile.vectorsName) > message.bin
            jq -r '.vectors[] | select(.name == "\(legacyName)") | .expected.signature' \(InteropVectorFile.vectorsName) | base64 -d > signature.der
            openssl dgst -sha256 -verify \(InteropVectorFile.publicKeyName) -signature signature.der message.bin

            # a JWS: PyJWT checks the algorithm, the audience and the raw r‖s signature
            jws=$(jq -r '.vectors[] | select(.name == "\(jwsName)") | .expected.jws' \(InteropVectorFile.vectorsName))
            python3 -c 'import jwt, sys; print(jwt.decode(sys.argv[1], open("\(InteropVectorFile.publicKeyName)").read(), algorithms=["ES256"], audience="promotional-offer", options={"verify_iat": False}))' "$jws"
            ```

            ## The cases

            | name | kind | clock |
            |---|---|---|
            \(rows.joined(separator: "\n"))

            """
    }
}
