import Foundation
import OfferConnectAPI
import Testing

@testable import OfferConnect

/// The pause between attempts of a request that may be sent again.
@Suite("App Store Connect: back-off between attempts")
struct ConnectTransportBackoffTests {
    /// After the last attempt nothing follows: a pause there only delayed exit 5 (by 8 to 16 s with the
    /// default six attempts).
    @Test func thereIsNoPauseAfterTheLastAttempt() async throws {
        var settings = ConnectTransport.Settings()
        settings.attempts = 3
        settings.backoffBase = .seconds(3600)
        settings.backoffCap = .seconds(3600)
        let transport = ConnectTransport(
            address: try ConnectAPIAddress("http://127.0.0.1:9"),
            tokens: ConnectTokenSource(signer: ConnectTokenSourceTests.signer, lifetime: 600), settings: settings
        ) { _ in }
        // Before another attempt it pauses (an hour here; cancelled, the pause throws).
        let pause = Task { try await transport.backOff(1) }
        pause.cancel()
        await #expect(throws: CancellationError.self) { try await pause.value }
        // After the third and last attempt (attempt 2) it returns at once, without pausing.
        let last = Task { try await transport.backOff(2) }
        last.cancel()
        await #expect(throws: Never.self) { try await last.value }
        await transport.shutdown()
    }
}
