import Foundation
import OfferSigning
import Testing

@testable import CLITestSupport

/// `offerkit token server-api` and `offerkit token connect-api` in both formats.
@Suite("offerkit token")
struct TokenCommandTests {
    static func now() -> Int64 { Int64(Date().timeIntervalSince1970) }

    @Test func serverAPITokenTextDefaultsToFiveMinutes() async throws {
        let result = try await CLI.run(["token", "server-api"] + DemoKey.flags)
        Expect.success(result)
        let jws = try #require(DecodedJWS(result.output), "not a compact JWS: \(result)")
        #expect(jws.headerText == #"{"alg":"ES256","kid":"DEMOKEY123","typ":"JWT"}"#)
        #expect(jws.claims["iss"]?.string == DemoKey.issuerId)
        #expect(jws.claims["aud"]?.string == "appstoreconnect-v1")
        #expect(jws.claims["bid"]?.string == DemoKey.bundleId)
        let iat = try #require(jws.claims["iat"]?.int)
        let exp = try #require(jws.claims["exp"]?.int)
        #expect(exp - iat == 300)
        #expect(abs(iat - Self.now()) < 3600)
        let verified = try JWSVerifier(key: DemoKey.key).verify(result.output, as: .serverAPIToken)
        #expect(verified.claims.bid == DemoKey.bundleId)
    }

    @Test(arguments: [1, 3600])
    func serverAPITokenJSON(lifetime: Int) async throws {
        let result = try await CLI.run(
            ["token", "server-api", "--lifetime", String(lifetime), "--format", "json"] + DemoKey.flags)
        Expect.success(result)
        let json = try #require(result.json, "not one JSON object: \(result)")
        let token = try #require(json["token"]?.string)
        let issuedAt = try #require(json["issuedAt"]?.int, "issuedAt in UNIX seconds")
        let expiresAt = try #require(json["expiresAt"]?.int, "expiresAt in UNIX seconds")
        #expect(expiresAt - issuedAt == Int64(lifetime))
        let jws = try #require(DecodedJWS(token))
        #expect(jws.claims["iat"]?.int == issuedAt)
        #expect(jws.claims["exp"]?.int == expiresAt)
        #expect(abs(issuedAt - Self.now()) < 3600)
    }

    @Test(arguments: ["3601", "0", "-5"])
    func serverAPITokenLifetimeOutOfRange(lifetime: String) async throws {
        let result = try await CLI.run(["token", "server-api", "--lifetime=\(lifetime)"] + DemoKey.flags)
        Expect.failure(result, status: 4, mentioning: ["lifetime"])
    }

    @Test func connectAPITokenTextDefaultsToFifteenMinutesWithoutBid() async throws {
        let result = try await CLI.run(["token", "connect-api"] + DemoKey.flags)
        Expect.success(result)
        let jws = try #require(DecodedJWS(result.output), "\(result)")
        #expect(jws.claims["iss"]?.string == DemoKey.issuerId)
        #expect(jws.claims["aud"]?.string == "appstoreconnect-v1")
        #expect(jws.claims["bid"] == nil)
        #expect(jws.claims["sub"] == nil)
        #expect(jws.header["kid"]?.string == DemoKey.keyId)
        let iat = try #require(jws.claims["iat"]?.int)
        #expect(jws.claims["exp"]?.int == iat + 900)
        #expect(throws: Never.self) { try JWSVerifier(key: DemoKey.key).verify(result.output, as: .connectAPIToken) }
    }

    @Test func connectAPITokenJSONWithScopes() async throws {
        let result = try await CLI.run(
            [
                "token", "connect-api", "--lifetime", "1200", "--scope", "GET /v1/apps", "--scope",
                "GET /v1/users?filter[roles]=ADMIN", "--format", "json",
            ] + DemoKey.flags)
        Expect.success(result)
        let json = try #require(result.json, "\(result)")
        let token = try #require(json["token"]?.string)
        let issuedAt = try #require(json["issuedAt"]?.int)
        #expect(json["expiresAt"]?.int == issuedAt + 1200)
        let jws = try #require(DecodedJWS(token))
        #expect(jws.claims["scope"] == .array([.string("GET /v1/apps"), .string("GET /v1/users?filter[roles]=ADMIN")]))
        #expect(jws.claims["iat"]?.int == issuedAt)
    }

    @Test func connectAPIIndividualKeyUsesSubUser() async throws {
        let result = try await CLI.run(["token", "connect-api", "--individual", "--format", "json"] + DemoKey.keyFlags)
        Expect.success(result)
        let jws = try #require(DecodedJWS(result.json?["token"]?.string ?? ""), "\(result)")
        #expect(jws.claims["sub"]?.string == "user")
        #expect(jws.claims["iss"] == nil)
        #expect(jws.claims["bid"] == nil)
    }

    @Test(arguments: ["1201", "0"])
    func connectAPITokenLifetimeOutOfRange(lifetime: String) async throws {
        let result = try await CLI.run(["token", "connect-api", "--lifetime", lifetime] + DemoKey.flags)
        Expect.failure(result, status: 4, mentioning: ["lifetime"])
    }
}
