import Foundation
import Testing

@testable import OfferSigning

/// App Store Server API and App Store Connect API bearer tokens (docs/formats.md §5).
@Suite("Token")
struct TokenTests {
    private static let iat: Int64 = 1_700_000_000

    private func connectSigner(_ issuer: ConnectAPITokenSigner.Issuer) throws -> ConnectAPITokenSigner {
        try ConnectAPITokenSigner(key: Demo.key, issuer: issuer, clock: .fixed(TestJWS.fixedDate))
    }

    // MARK: - App Store Server API

    @Test func serverTokenClaimsAreExact() throws {
        let token = try TestJWS.fixedSigner().serverAPIToken()
        #expect(TestJWS.headerText(token.token) == TestJWS.headerJSON)
        #expect(
            TestJWS.payloadText(token.token)
                == #"{"iss":"98802e6e-bab8-4f06-8c88-a2582cda3c9c","iat":1700000000,"exp":1700000300,"aud":"appstoreconnect-v1","bid":"com.example.offerkit.demo"}"#
        )
        #expect(token.issuedAt == Date(timeIntervalSince1970: 1_700_000_000))
        #expect(token.expiresAt == Date(timeIntervalSince1970: 1_700_000_300))
        #expect(token.description == token.token)

        let verified = try TestJWS.verifier.verify(token.token)
        #expect(verified.kind == .serverAPIToken)
        #expect(verified.claims.iss == Demo.issuerId)
        #expect(verified.claims.iat == Self.iat)
        #expect(verified.claims.exp == Self.iat + 300)
        #expect(verified.claims.aud == "appstoreconnect-v1")
        #expect(verified.claims.bid == Demo.bundleId)
        #expect(verified.claims.nonce == nil)
        #expect(verified.header == VerifiedJWS.Header(alg: "ES256", kid: "DEMOKEY123", typ: "JWT"))
        _ = try TestJWS.verifier.verify(token.token, as: .serverAPIToken)
    }

    @Test(arguments: [1, 60, 300, 3599, 3600])
    func serverTokenAcceptsLifetimesUpToAnHour(lifetime: Int) throws {
        let token = try TestJWS.fixedSigner().serverAPIToken(lifetime: lifetime)
        let verified = try TestJWS.verifier.verify(token.token, as: .serverAPIToken)
        #expect(verified.claims.exp == Self.iat + Int64(lifetime))
        #expect(token.expiresAt.timeIntervalSince(token.issuedAt) == Double(lifetime))
    }

    @Test(arguments: [0, 3601, -5, Int.max, Int.min])
    func serverTokenRejectsOtherLifetimes(lifetime: Int) throws {
        let signer = try TestJWS.fixedSigner()
        let error = TestJWS.validationError { _ = try signer.serverAPIToken(lifetime: lifetime) }
        guard case .outOfRange(let field, _)? = error else {
            Issue.record("expected outOfRange, got \(String(describing: error))")
            return
        }
        #expect(field == "lifetime")
        #expect(OfferSigner.serverAPITokenMaximumLifetime == 3600)
    }

    @Test func serverTokenUsesExplicitIssuedAtFloored() throws {
        let token = try TestJWS.fixedSigner().serverAPIToken(
            lifetime: 600, issuedAt: Date(timeIntervalSince1970: 1_600_000_000.9))
        #expect(TestJWS.payloadText(token.token).contains(#""iat":1600000000,"exp":1600000600,"#))
        #expect(token.issuedAt == Date(timeIntervalSince1970: 1_600_000_000))
    }

    // MARK: - App Store Connect API

    @Test func connectTeamTokenClaimsAreExact() throws {
        let token = try connectSigner(.team(issuerId: Demo.issuerId)).token()
        #expect(TestJWS.headerText(token.token) == TestJWS.headerJSON)
        #expect(
            TestJWS.payloadText(token.token)
                == #"{"iss":"98802e6e-bab8-4f06-8c88-a2582cda3c9c","iat":1700000000,"exp":1700000900,"aud":"appstoreconnect-v1"}"#
        )
        #expect(token.expiresAt.timeIntervalSince(token.issuedAt) == 900)
        let verified = try TestJWS.verifier.verify(token.token)
        #expect(verified.kind == .connectAPIToken)
        #expect(verified.claims.iss == Demo.issuerId)
        #expect(verified.claims.sub == nil)
        #expect(verified.claims.bid == nil)
        #expect(verified.claims.scope == nil)
        #expect(verified.claims.exp == Self.iat + 900)
    }

    @Test func connectTeamTokenWithScope() throws {
        let scope = ["GET /v1/apps", "GET /v1/apps?filter[platform]=IOS"]
        let token = try connectSigner(.team(issuerId: Demo.issuerId)).token(lifetime: 1200, scope: scope)
        #expect(
            TestJWS.payloadText(token.token)
                == #"{"iss":"98802e6e-bab8-4f06-8c88-a2582cda3c9c","iat":1700000000,"exp":1700001200,"aud":"appstoreconnect-v1","scope":["GET /v1/apps","GET /v1/apps?filter[platform]=IOS"]}"#
        )
        let verified = try TestJWS.verifier.verify(token.token, as: .connectAPIToken)
        #expect(verified.claims.scope == scope)
        #expect(verified.claims.exp == Self.iat + 1200)
    }

    @Test func connectIndividualTokenUsesSubUser() throws {
        let token = try connectSigner(.individual).token(lifetime: 60)
        #expect(
            TestJWS.payloadText(token.token)
                == #"{"sub":"user","iat":1700000000,"exp":1700000060,"aud":"appstoreconnect-v1"}"#)
        #expect(!TestJWS.payloadText(token.token).contains("iss"))
        let verified = try TestJWS.verifier.verify(token.token, as: .connectAPIToken)
        #expect(verified.kind == .connectAPIToken)
        #expect(verified.claims.sub == "user")
        #expect(verified.claims.iss == nil)
    }

    @Test(arguments: [0, 1201, -1, 3600])
    func connectTokenRejectsLifetimesOverTwentyMinutes(lifetime: Int) throws {
        for issuer in [ConnectAPITokenSigner.Issuer.team(issuerId: Demo.issuerId), .individual] {
            let signer = try connectSigner(issuer)
            let error = TestJWS.validationError { _ = try signer.token(lifetime: lifetime) }
            #expect(error?.field == "lifetime")
            if case .outOfRange? = error {
            } else {
                Issue.record("expected outOfRange, got \(String(describing: error))")
            }
        }
        #expect(ConnectAPITokenSigner.maximumLifetime == 1200)
    }

    @Test func connectTokenRejectsBadScopeAndIssuer() throws {
        let signer = try connectSigner(.team(issuerId: Demo.issuerId))
        #expect(
            TestJWS.validationError { _ = try signer.token(scope: ["GET /v1/apps", ""]) } == .empty(field: "scope[1]"))
        #expect(TestJWS.validationError { _ = try signer.token(scope: ["a\nb"]) }?.field == "scope[0]")
        #expect(throws: CredentialError.self) {
            _ = try ConnectAPITokenSigner(key: Demo.key, issuer: .team(issuerId: "not-a-uuid"))
        }
    }

    @Test func tokensAreNotTakenForEachOther() throws {
        let server = try TestJWS.fixedSigner().serverAPIToken()
        let connect = try connectSigner(.team(issuerId: Demo.issuerId)).token()
        #expect(
            TestJWS.verifyError(server.token, as: .connectAPIToken)
                == .wrongKind(expected: .connectAPIToken, actual: .serverAPIToken))
        #expect(
            TestJWS.verifyError(connect.token, as: .serverAPIToken)
                == .wrongKind(expected: .serverAPIToken, actual: .connectAPIToken))
        #expect(
            TestJWS.verifyError(server.token, as: .promotionalOffer)
                == .wrongKind(expected: .promotionalOffer, actual: .serverAPIToken))
        #expect(TestJWS.verifyError(connect.token, as: .promotionalOffer)?.field == "aud")
    }

    @Test func systemClockIsUsedByDefault() throws {
        let before = Int64(Date().timeIntervalSince1970.rounded(.down))
        let token = try Demo.signer().serverAPIToken()
        let after = Int64(Date().timeIntervalSince1970.rounded(.down))
        let iat = try TestJWS.verifier.verify(token.token).claims.iat
        #expect(iat >= before && iat <= after)
    }
}
