// Measures how fast the ledger hands out codes, from 1 or more client processes at once, each
// claiming one code at a time or from several tasks at once (as the service does for concurrent
// requests), and checks afterwards that no code went to two recipients.
//
//   offerkit-ledger-bench run LEDGER CLIENTS CLAIMS [TASKS]   one JSON line: clients, tasks, claims, seconds, duplicates
//   offerkit-ledger-bench setup LEDGER CODES                  records the campaign only
//   offerkit-ledger-bench claim LEDGER FIRST COUNT [TASKS]    claims for user-FIRST … (one client; for profiling)
//
// TASKS (default 1) is how many claims each client has under way at once: with 1, each claim
// waits for the one before it to commit (one durable commit per claim); with more, the ledger
// may commit several claims together (SQLite's group commit), as it does in `offerkit serve`.
// With TASKS 1, each client's loop of claims runs on the ledger's write executor
// (`CodeLedger.writeExecutor`), as its documentation advises for such a loop, unless
// OFFERKIT_BENCH_ON_POOL=1 keeps it on Swift's pool (each claim then goes to the connection's
// thread and back, as a single claim of `offerkit codes claim` or the service does). With more,
// the claims stay on Swift's pool, as the service's concurrent requests are.
// LEDGER is what `--ledger` takes (a new SQLite file path, or a postgres:// URL with a new
// ?schema=). `run` records a campaign with CLAIMS personal codes, starts CLIENTS copies of itself
// (`claim LEDGER FIRST COUNT`), each claiming its share for recipients of its own, and times them
// from the first start to the last exit. Processes, not threads: as separate hosts would.
import Foundation
import OfferCodes
import OfferLedger
import OfferLedgerPostgres

#if canImport(Glibc)
    import Glibc
#endif

/// Runs `body` with the ledger at `locator`, closed when it returns (as `offerkit` does).
func withLedger<T>(_ locator: String, _ body: (CodeLedger) async throws -> T) async throws -> T {
    switch try LedgerLocation(parsing: locator) {
    case .sqlite(let path):
        return try await CodeLedger.withSQLite(path: path, body)
    case .postgres(let location):
        return try await CodeLedger.withPostgres(location, body)
    }
}

/// Starts `process`; its exit status arrives on the stream, and no thread waits for it.
func launch(_ process: Process) throws -> AsyncStream<Int32> {
    let (exit, continuation) = AsyncStream.makeStream(of: Int32.self)
    process.terminationHandler = {
        continuation.yield($0.terminationStatus)
        continuation.finish()
    }
    try process.run()
    return exit
}

let scopeToday = CalendarDate("2027-01-15")!
let scope = AssignmentScope(campaign: "bench", offer: "Claim", today: scopeToday)

func campaignJSON() -> [UInt8] {
    Array(
        """
        {"name": "bench", "app": {"appAppleId": "1234567890", "bundleId": "com.example.bench"},
         "offers": [{"referenceName": "Claim",
           "product": {"id": "6450000001", "productId": "com.example.bench.monthly", "type": "AUTO_RENEWABLE_SUBSCRIPTION"},
           "paymentMode": "FREE_TRIAL", "duration": "ONE_MONTH", "numberOfPeriods": 1,
           "customerEligibilities": ["NEW"], "offerEligibility": "STACK_WITH_INTRO_OFFERS",
           "prices": [{"territory": "USA", "pricePoint": "eyJzIjoiMSJ9"}],
           "customCodes": [{"codes": ["PLACEHOLDER1"], "redemptionLimit": 1, "expirationDate": "2027-03-31"}]}]}
        """.utf8)
}

func setUp(_ ledger: CodeLedger, codes: Int) async throws {
    let report = try CampaignValidator(today: scopeToday).validate(json: campaignJSON())
    guard let campaign = report.campaign else { throw BenchError.message("bench campaign: \(report.problems)") }
    let batch = LedgerBatch(
        campaign: "bench", offer: "Claim", kind: .custom, index: 0, quarter: scopeToday.quarter, redemptionLimit: 1,
        codeCount: codes, expirationDate: CalendarDate("2027-03-31"), environment: .production)
    try await ledger.recordBatch(batch, campaign: campaign, codes: .given((0..<codes).map { "BENCH\($0)" }))
}

/// How many assignments the bench campaign has, its codes and its recipients.
func handedOut(_ ledger: CodeLedger) async throws -> (assignments: Int, codes: Set<String>, recipients: Set<String>) {
    var codes = Set<String>()
    var recipients = Set<String>()
    var assignments = 0
    try await ledger.forEachAssignment(campaign: "bench", offer: nil) { assignment in
        assignments += 1
        codes.insert(assignment.code.code)
        recipients.insert(assignment.recipient)
    }
    return (assignments, codes, recipients)
}

enum BenchError: Error { case message(String) }

func now() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
}

let arguments = CommandLine.arguments

/// The whole number at `index` of the arguments, at least `minimum`, or a usage error.
func number(_ index: Int, minimum: Int) throws -> Int {
    guard index < arguments.count, let value = Int(arguments[index]), value >= minimum else {
        throw BenchError.message(
            "argument \(index) must be a whole number of at least \(minimum); usage: offerkit-ledger-bench run LEDGER CLIENTS CLAIMS"
        )
    }
    return value
}

do {
    guard arguments.count >= 3 || arguments.count == 1 else {
        throw BenchError.message("usage: offerkit-ledger-bench run LEDGER CLIENTS CLAIMS")
    }
    switch arguments.dropFirst().first {
    case "claim":
        let first = try number(3, minimum: 0)
        let count = try number(4, minimum: 0)
        let tasks = arguments.count > 5 ? try number(5, minimum: 1) : 1
        try await withLedger(arguments[2]) { ledger in
            // One loop of claims: on the ledger's write executor, as its documentation advises
            // (SQLite: each claim runs where it is asked for; PostgreSQL has none).
            let onPool = tasks > 1 || ProcessInfo.processInfo.environment["OFFERKIT_BENCH_ON_POOL"] == "1"
            try await withTaskExecutorPreference(onPool ? nil : ledger.writeExecutor) {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for task in 0..<tasks {
                        group.addTask {
                            // Every tasks-th recipient of the client's range, one claim at a time.
                            for index in stride(from: first + task, to: first + count, by: tasks) {
                                _ = try await ledger.claim(recipient: "user-\(index)", scope: scope)
                            }
                        }
                    }
                    try await group.waitForAll()
                }
            }
        }
    case "setup":
        let codes = try number(3, minimum: 1)
        try await withLedger(arguments[2]) { try await setUp($0, codes: codes) }
    case "run":
        let locator = arguments[2]
        let clients = try number(3, minimum: 1)
        let claims = try number(4, minimum: clients)
        let tasks = arguments.count > 5 ? try number(5, minimum: 1) : 1
        try await withLedger(locator) { try await setUp($0, codes: claims) }
        let start = now()
        var exits: [AsyncStream<Int32>] = []
        let share = claims / clients
        for client in 0..<clients {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
            let count = client == clients - 1 ? claims - share * (clients - 1) : share
            process.arguments = ["claim", locator, String(client * share), String(count), String(tasks)]
            exits.append(try launch(process))
        }
        for exit in exits {
            guard await exit.first(where: { _ in true }) == 0 else { throw BenchError.message("a client failed") }
        }
        let seconds = now() - start
        let (assignments, codes, recipients) = try await withLedger(locator, handedOut)
        guard assignments == claims, recipients.count == claims else {
            throw BenchError.message("expected \(claims) assignments, found \(assignments)")
        }
        print(
            #"{"clients": \#(clients), "tasks": \#(tasks), "claims": \#(claims), "seconds": \#(seconds), "duplicates": \#(claims - codes.count)}"#
        )
    default:
        FileHandle.standardError.write(Data("usage: offerkit-ledger-bench run LEDGER CLIENTS CLAIMS\n".utf8))
        exit(2)
    }
} catch {
    FileHandle.standardError.write(Data("offerkit-ledger-bench: \(error)\n".utf8))
    exit(1)
}
