import Hummingbird
import Logging

@testable import OfferService

extension OfferService {
    /// An application over `operations` (the real ones or test operations), logging only critical
    /// messages unless `logger` is given.
    func testApplication(operations: [ServiceOperation], logger: Logger? = nil) -> some ApplicationProtocol {
        Application(router: makeRouter(operations: operations), logger: logger ?? ServiceFixtures.quietLogger)
    }

    /// The router of every operation the service serves.
    func testRouter() -> Router<ServiceRequestContext> {
        makeRouter(operations: routedOperations)
    }
}
