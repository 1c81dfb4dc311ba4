import Foundation
import Logging
import Synchronization
import Testing

@testable import OfferService

/// A large batch does not hold up the other connections: its chunks run on the event loops that also
/// read and answer every other connection, and let them in between (``SignatureBatch/timeSlice``).
@Suite("A large batch does not stall the other requests")
struct BatchFairnessTests {
    /// Batch items of Advanced Commerce subscriptions with `subItems` items each: the work the
    /// hostile run used (85 items each), fewer of them.
    static func batchBody(items: Int, subItems: Int) -> String {
        let subscriptionItems = (0..<subItems).map { index in
            #"{"SKU":"ITEM_\#(index)","description":"Item \#(index) of the bundle","displayName":"Item \#(index)","price":990}"#
        }.joined(separator: ",")
        let request = """
            {"operation":"CREATE_SUBSCRIPTION","version":"1",\
            "requestInfo":{"requestReferenceId":"3a6c8a34-52b5-4a8c-9b1e-0f1c2d3e4f50"},"currency":"USD",\
            "taxCode":"C003-00-2","descriptors":{"description":"Every item","displayName":"Bundle"},\
            "items":[\(subscriptionItems)],"period":"P1M"}
            """
        let item = #"{"type":"advanced-commerce","bundleId":"com.example.offerkit.demo","request":\#(request)}"#
        return #"{"requests":["# + Array(repeating: item, count: items).joined(separator: ",") + "]}"
    }

    /// A whole request on a connection of its own, answered and closed.
    static func request(_ path: String, body: String, requestId: String) -> String {
        "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            + "Authorization: Bearer \(ServiceFixtures.admin.secret)\r\nX-Request-Id: \(requestId)\r\n"
            + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body
    }

    /// Whether the batch has been answered.
    final class Finished: Sendable {
        private let value = Mutex(false)
        var isSet: Bool { value.withLock { $0 } }
        func set() { value.withLock { $0 = true } }
    }

    @Test(
        "single signatures are answered while a large batch is still being signed",
        .timeLimit(.minutes(10)))
    func singleRequestsGetInDuringALargeBatch() async throws {
        let items = 240
        let limits = ServiceLimits(
            maxBodyBytes: 64 << 20, requestTimeoutSeconds: 600, requestsPerSecond: 1_000_000, burst: 1_000_000)
        let service = try ServiceFixtures.service { $0.limits = limits }
        let runner = ServiceRunner(
            service: service, host: "127.0.0.1", port: 0, logger: ServiceFixtures.quietLogger)
        let batch = Self.request(
            "/v1/signatures/batch", body: Self.batchBody(items: items, subItems: 85), requestId: "b")
        let single = Self.request(
            ServiceFixtures.promotionalOfferPath, body: ServiceFixtures.promotionalOfferBody, requestId: "s")
        let clock = ContinuousClock()

        let (batchTime, batchExchange, alone, during) = try await runner.makeApplication().test(.live) { client in
            let port = try #require(client.port)
            // A single signature alone, for the record.
            var alone: [Duration] = []
            for _ in 0..<5 {
                let start = clock.now
                let exchange = try await RawExchange.run(port: port, single, seconds: 600)
                #expect(exchange.status == 200, "\(String(decoding: exchange.received.prefix(300), as: UTF8.self))")
                alone.append(clock.now - start)
            }
            // Then one after the other, on connections of their own, while the batch is signed.
            let finished = Finished()
            return try await withThrowingTaskGroup(of: (Duration?, RawExchange?, [Duration]).self) { group in
                group.addTask {
                    let start = clock.now
                    let exchange = try await RawExchange.run(port: port, batch, seconds: 600)
                    let time = clock.now - start
                    finished.set()
                    return (time, exchange, [])
                }
                group.addTask {
                    var during: [Duration] = []
                    while !finished.isSet {
                        let start = clock.now
                        let exchange = try await RawExchange.run(port: port, single, seconds: 600)
                        #expect(exchange.status == 200)
                        during.append(clock.now - start)
                    }
                    return (nil, nil, during)
                }
                var batchTime = Duration.zero
                var batchExchange = RawExchange()
                var during: [Duration] = []
                for try await (time, exchange, singles) in group {
                    if let time, let exchange { (batchTime, batchExchange) = (time, exchange) }
                    during += singles
                }
                return (batchTime, batchExchange, alone, during)
            }
        }
        let answer = String(decoding: batchExchange.received, as: UTF8.self)
        #expect(batchExchange.status == 200, "\(answer.prefix(500))")
        #expect(answer.contains(#""succeeded":\#(items),"failed":0"#), "\(answer.suffix(200))")

        let longest = during.max() ?? .zero
        let ratio = longest / batchTime
        print(
            "batch of \(items) × 85 items: \(batchTime); single signature alone: \(alone.min() ?? .zero) to "
                + "\(alone.max() ?? .zero); during the batch: \(during.count) singles, the longest \(longest) "
                + "(\(Int((ratio * 100).rounded())) % of the batch)")
        // The proof is an order, not a time: had the batch held the event loops until it was done,
        // the first single would have been answered after the batch and the loop would have run
        // once. Two or more singles means one was answered, and another begun, while the batch was
        // still being signed. The ratio above is printed for the record: on a loaded 2-core runner
        // (CI runs suites side by side) a single alone took from 7 s to 45 s, so a bound on it
        // would test the machine, not the service.
        #expect(during.count >= 2, "singles answered during the batch: \(during)")
    }
}
