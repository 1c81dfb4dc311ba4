import Logging
import NIOConcurrencyHelpers
import OfferCodes

/// The code ledger a service hands out codes from (`POST /v1/codes/claim`) and reads campaign
/// status in (`GET /v1/campaigns/{name}/status`), with the threads its blocking calls run on.
///
/// The service takes a ledger that is already open (`SQLiteLedger`, or `PostgresLedger` from
/// the `OfferLedgerPostgres` library), so that `OfferService` itself does not link a database
/// driver; `offerkit serve` opens the one its configuration's `"ledger"` names.
public final class ServiceLedger: Sendable {
    /// The ledger.
    public let ledger: any CodeLedger
    let workers: LedgerWorkers
    /// Each campaign's app, once read: a campaign's app never changes in a ledger.
    private let apps = NIOLockedValueBox<[String: CampaignApp]>([:])

    /// A ledger for the service; its calls run on `threads` threads of their own (see
    /// ``defaultThreadCount``).
    public init(_ ledger: any CodeLedger, threads: Int = ServiceLedger.defaultThreadCount) {
        self.ledger = ledger
        self.workers = LedgerWorkers(threads: threads)
    }

    /// How many threads run ledger calls by default: 4 (`PostgresLedger`'s connections; see
    /// the worker threads' documentation in the source).
    public static let defaultThreadCount = LedgerWorkers.defaultThreadCount

    /// Runs `body` with the ledger on a worker thread. A ``LedgerError`` becomes the service's
    /// problem for it (``CodeSchemas/problem(for:campaignField:)``); failures of the ledger itself
    /// (an unreachable server, a lock wait that ran out, damage) are logged under the request id
    /// and answered 503 `ledger-unavailable`, saying nothing about their cause.
    func run<T: Sendable>(
        logger: Logger, campaignField: String?, _ body: @escaping @Sendable (ServiceLedger) throws -> T
    ) async throws -> T {
        do {
            return try await workers.run { [self] in try body(self) }
        } catch let error as LedgerError {
            let problem = CodeSchemas.problem(for: error, campaignField: campaignField)
            if problem.type == .ledgerUnavailable {
                // LedgerError messages name no code and show a URL without its password.
                logger.error("ledger failed", metadata: ["error": "\(error.localizedDescription)"])
            }
            throw problem
        }
    }

    /// `campaign`'s app: its bundle ID (what an API key's bundle-ID limit is checked against) and App
    /// Apple ID (for redemption links), remembered after the first read.
    ///
    /// - Throws: ``LedgerError/unknownCampaign(campaign:)`` when the campaign is not recorded.
    func app(campaign: String, today: CalendarDate) throws -> CampaignApp {
        if let known = apps.withLockedValue({ $0[campaign] }) { return known }
        let status = try ledger.status(campaign: campaign, today: today)
        let app = CampaignApp(bundleId: status.bundleId, appAppleId: status.appAppleId)
        apps.withLockedValue { $0[campaign] = app }
        return app
    }
}
