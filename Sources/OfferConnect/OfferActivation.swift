import NIOHTTP1
import OfferCodes
import OfferConnectAPI
import OfferJSON
import OfferSigning

/// Switches an offer code on or off in App Store Connect (`PATCH /v1/{type}/{id}` with
/// `{"data": {"type", "id", "attributes": {"active": …}}}`): what `codes deactivate --apply` sends.
/// Setting the switch twice is harmless, so a request with an unknown outcome is simply sent again.
public struct OfferActivation: Sendable {
    let transport: ConnectTransport

    public init(
        address: ConnectAPIAddress, signer: ConnectAPITokenSigner, tokenLifetime: Int = 600,
        settings: ConnectTransport.Settings = .init(), events: @escaping @Sendable (ApplyEvent) -> Void = { _ in }
    ) {
        transport = ConnectTransport(
            address: address, tokens: ConnectTokenSource(signer: signer, lifetime: tokenLifetime), settings: settings
        ) { events(.exchange($0)) }
    }

    /// Sets `active` on the offer code `id` of type `resourceType` (`subscriptionOfferCodes` or
    /// `inAppPurchaseOfferCodes`).
    ///
    /// - Throws: ``ConnectError/notAuthorized(status:detail:)``, ``ConnectError/unreachable(reason:)``,
    ///   and ``ConnectError/refused(request:errors:)`` with Apple's errors when it refuses.
    public func setActive(_ active: Bool, resourceType: String, id: String) async throws {
        do {
            try await send(active, resourceType: resourceType, id: id)
            await transport.shutdown()
        } catch {
            await transport.shutdown()
            throw error
        }
    }

    private func send(_ active: Bool, resourceType: String, id: String) async throws {
        let path = "/v1/\(resourceType)/\(id)"
        let body = JSONValue.object([
            (
                "data",
                .object([
                    ("type", .string(resourceType)), ("id", .string(id)),
                    ("attributes", .object([("active", .bool(active))])),
                ])
            )
        ]).serialized()
        var last = ""
        for attempt in 0..<transport.settings.attempts {
            switch try await transport.attempt(.PATCH, path, body: body) {
            case .answer(let answer):
                switch answer.status {
                case 200...299: return
                case 401, 403: throw transport.notAuthorized(answer)
                case 429:
                    last = "429 RATE_LIMIT_EXCEEDED"
                    try await transport.waitAfterRateLimit(answer, attempt: attempt)
                case 500...599:
                    last = "\(answer.status)"
                    try await transport.backOff(attempt)
                default:
                    let errors = AppleErrorDetail.parse(status: answer.status, body: answer.body)
                    throw ConnectError.refused(
                        request: "PATCH \(path)", errors: errors.map(\.summary).joined(separator: "; "))
                }
            case .notSent(let reason), .unknown(let reason):
                last = reason
                try await transport.backOff(attempt)
            }
        }
        throw ConnectError.unreachable(
            reason: "\(transport.settings.attempts) attempts of PATCH \(path) failed, the last with: \(last)")
    }
}
