// Measures how fast the ledger hands out codes one claim at a time, from 1 or more client
// processes at once, and checks afterwards that no code went to two recipients.
//
//   offerkit-ledger-bench run LEDGER CLIENTS CLAIMS    one JSON line: clients, claims, seconds, duplicates
//   offerkit-ledger-bench setup LEDGER CODES           records the campaign only
//   offerkit-ledger-bench claim LEDGER FIRST COUNT     claims for user-FIRST … (one client; for profiling)
//
// LEDGER is what `--ledger` takes (a new SQLite file path, or a postgres:// URL with a new
// ?schema=). `run` records a campaign with CLAIMS personal codes, starts CLIENTS copies of itself
// (`claim LEDGER FIRST COUNT`), each claiming its share for recipients of its own, and times them
// from the first start to the last exit. Processes, not threads: as separate hosts would.
import Foundation
import OfferCodes
import OfferLedgerPostgres

#if canImport(Glibc)
    import Glibc
#endif

func open(_ locator: String) throws -> any CodeLedger {
    switch try LedgerLocation(parsing: locator) {
    case .sqlite(let path): return try SQLiteLedger(path: path)
    case .postgres(let location): return try PostgresLedger(location)
    }
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

func setUp(_ ledger: any CodeLedger, codes: Int) throws {
    let report = try CampaignValidator(today: scopeToday).validate(json: campaignJSON())
    guard let campaign = report.campaign else { throw BenchError.message("bench campaign: \(report.problems)") }
    let batch = LedgerBatch(
        campaign: "bench", offer: "Claim", kind: .custom, index: 0, quarter: scopeToday.quarter, redemptionLimit: 1,
        codeCount: codes, expirationDate: CalendarDate("2027-03-31"), environment: .production)
    try ledger.recordBatch(batch, campaign: campaign) { insert in
        for index in 0..<codes { _ = try insert("BENCH\(index)") }
    }
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
        let ledger = try open(arguments[2])
        let first = try number(3, minimum: 0)
        let count = try number(4, minimum: 0)
        for index in first..<(first + count) {
            _ = try ledger.claim(recipient: "user-\(index)", scope: scope)
        }
    case "setup":
        try setUp(try open(arguments[2]), codes: try number(3, minimum: 1))
    case "run":
        let locator = arguments[2]
        let clients = try number(3, minimum: 1)
        let claims = try number(4, minimum: clients)
        let ledger = try open(locator)
        try setUp(ledger, codes: claims)
        let start = now()
        var processes: [Process] = []
        let share = claims / clients
        for client in 0..<clients {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
            let count = client == clients - 1 ? claims - share * (clients - 1) : share
            process.arguments = ["claim", locator, String(client * share), String(count)]
            try process.run()
            processes.append(process)
        }
        for process in processes {
            process.waitUntilExit()
            guard process.terminationStatus == 0 else { throw BenchError.message("a client failed") }
        }
        let seconds = now() - start
        var codes = Set<String>()
        var recipients = Set<String>()
        var assignments = 0
        try ledger.forEachAssignment(campaign: "bench", offer: nil) { assignment in
            assignments += 1
            codes.insert(assignment.code.code)
            recipients.insert(assignment.recipient)
        }
        guard assignments == claims, recipients.count == claims else {
            throw BenchError.message("expected \(claims) assignments, found \(assignments)")
        }
        print(
            #"{"clients": \#(clients), "claims": \#(claims), "seconds": \#(seconds), "duplicates": \#(claims - codes.count)}"#
        )
    default:
        FileHandle.standardError.write(Data("usage: offerkit-ledger-bench run LEDGER CLIENTS CLAIMS\n".utf8))
        exit(2)
    }
} catch {
    FileHandle.standardError.write(Data("offerkit-ledger-bench: \(error)\n".utf8))
    exit(1)
}
