import Hummingbird
import Logging

@testable import OfferService

extension OfferService {
    /// An application over `operations` (the real ones or test operations), logging only critical
    /// messages unless `logger` is given.
    ///
    /// Each request's work runs on ``DedicatedThreads``, not on Swift's cooperative pool: in a full
    /// run, tests elsewhere in the process block that pool's threads while they wait for child
    /// processes, sometimes for minutes, and a request's work held back that long would meet the
    /// request timeout or the retention decider's budget (both timed on NIO's event loops, which
    /// keep running) although nothing in it was slow.
    func testApplication(operations: [ServiceOperation], logger: Logger? = nil) -> some ApplicationProtocol {
        Application(
            router: makeRouter(operations: operations, taskExecutor: DedicatedThreads.shared),
            logger: logger ?? ServiceFixtures.quietLogger)
    }

    /// The router of every operation the service serves, its work on ``DedicatedThreads`` (see
    /// ``testApplication(operations:logger:)``).
    func testRouter() -> Router<ServiceRequestContext> {
        makeRouter(operations: routedOperations, taskExecutor: DedicatedThreads.shared)
    }
}
