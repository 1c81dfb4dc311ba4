import Foundation
import Testing

/// A fresh folder for `offerkit codes` runs: campaign files, an explicit ledger and a fixed day,
/// so no run touches the repository or depends on the real date.
///
/// ``run(_:_:_:ledger:stdin:)`` runs in the folder (its working directory), adds `--today` and,
/// unless told otherwise, `--ledger <folder>/ledger.sqlite`.
///
/// Also builds campaign JSON (``campaign(name:appAppleId:offers:)`` and friends) and reads exports.
struct CampaignFiles {
    /// The day every run counts from (`--today`); campaigns use dates relative to it.
    static let today = "2027-01-15"
    /// The App Apple ID of the example campaign, used by the campaigns written here too.
    static let appAppleId = "1234567890"
    /// `examples/campaign.json`.
    static let example = CLI.packageRoot.appendingPathComponent("examples/campaign.json").path
    /// The default alphabet of generated codes (no look-alikes).
    static let defaultAlphabet = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"

    let folder: TempDir

    static func make() throws -> CampaignFiles { CampaignFiles(folder: try TempDir.make()) }

    /// The ledger every run uses unless told otherwise.
    var ledger: String { folder.file("ledger.sqlite") }

    func file(_ name: String) -> String { folder.file(name) }

    /// Writes a campaign (or any text) to `name` in the folder; returns its path.
    @discardableResult
    func write(_ text: String, to name: String) throws -> String { try folder.write(text, to: name) }

    /// The file's text, or nil when it does not exist.
    func text(of path: String) -> String? {
        FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The names in the folder, hidden ones included, sorted.
    func listing() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
    }

    /// Which `--ledger` a run gets.
    enum LedgerChoice {
        /// `--ledger <folder>/ledger.sqlite`.
        case folder
        /// `--ledger <path>`.
        case at(String)
        /// No `--ledger` (for `--no-ledger`, plain mode, or the default path in the folder).
        case none
    }

    /// `offerkit codes <subcommand> [campaign] arguments… --today 2027-01-15 [--ledger …]`, run in the
    /// folder, with `environment` added to the cleaned one.
    func run(
        _ subcommand: String, _ campaign: String? = nil, _ arguments: [String] = [],
        ledger: LedgerChoice = .folder, stdin: Data? = nil, peakMemory: Bool = false,
        environment: [String: String] = [:]
    ) async throws -> CLIResult {
        var all = ["codes", subcommand]
        if let campaign { all.append(campaign) }
        all += arguments + ["--today", Self.today]
        switch ledger {
        case .folder: all += ["--ledger", self.ledger]
        case .at(let path): all += ["--ledger", path]
        case .none: break
        }
        return try await CLI.run(all, environment: environment, stdin: stdin, cwd: folder.url, peakMemory: peakMemory)
    }

    func remove() { folder.remove() }

    // MARK: Campaign JSON

    /// A campaign document for the example's app.
    static func campaign(name: String, appAppleId: String = appAppleId, offers: [String]) -> String {
        """
        {
          "name": \(quoted(name)),
          "app": {"bundleId": "com.example.offerkit.demo", "appAppleId": \(quoted(appAppleId))},
          "offers": [
            \(offers.joined(separator: ",\n    "))
          ]
        }
        """
    }

    /// A free non-consumable offer (the simplest valid one) with the given batches.
    static func offer(
        _ referenceName: String, productAscId: String = "6450000010", oneTimeUse: [String] = [],
        custom: [String] = []
    ) -> String {
        var members = [
            "\"referenceName\": \(quoted(referenceName))",
            "\"product\": {\"id\": \(quoted(productAscId)), \"productId\": \"com.example.offerkit.pro\", "
                + "\"type\": \"NON_CONSUMABLE\"}",
            "\"paymentMode\": \"ONE_TIME\"",
            "\"customerEligibilities\": [\"NON_SPENDER\", \"CHURNED_SPENDER\"]",
            "\"prices\": [{\"territory\": \"USA\", \"free\": true}, {\"territory\": \"GBR\", \"free\": true}]",
        ]
        if !oneTimeUse.isEmpty { members.append("\"oneTimeUseCodes\": [\(oneTimeUse.joined(separator: ", "))]") }
        if !custom.isEmpty { members.append("\"customCodes\": [\(custom.joined(separator: ", "))]") }
        return "{" + members.joined(separator: ", ") + "}"
    }

    /// A `oneTimeUseCodes` entry.
    static func oneTimeUse(count: Int, expires: String = "P30D", environment: String? = nil) -> String {
        var members = ["\"count\": \(count)", "\"expirationDate\": \(quoted(expires))"]
        if let environment { members.append("\"environment\": \(quoted(environment))") }
        return "{" + members.joined(separator: ", ") + "}"
    }

    /// A `customCodes` entry with given codes.
    static func given(_ codes: [String], redemptionLimit: Int = 1, expires: String? = nil) -> String {
        var members = [
            "\"codes\": [\(codes.map(quoted).joined(separator: ", "))]", "\"redemptionLimit\": \(redemptionLimit)",
        ]
        if let expires { members.append("\"expirationDate\": \(quoted(expires))") }
        return "{" + members.joined(separator: ", ") + "}"
    }

    /// A `customCodes` entry with generated codes.
    static func generated(
        count: Int, prefix: String? = nil, length: Int? = nil, alphabet: String? = nil, redemptionLimit: Int = 1
    ) -> String {
        var spec = ["\"count\": \(count)"]
        if let prefix { spec.append("\"prefix\": \(quoted(prefix))") }
        if let length { spec.append("\"length\": \(length)") }
        if let alphabet { spec.append("\"alphabet\": \(quoted(alphabet))") }
        return "{\"generate\": {\(spec.joined(separator: ", "))}, \"redemptionLimit\": \(redemptionLimit)}"
    }

    /// `text` as a JSON string literal.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    // MARK: Reading exports

    /// The records of a CSV text (RFC 4180: quoted fields may hold commas, quotes and line breaks;
    /// records end with CRLF or LF).
    static func csvRecords(_ text: String) -> [[String]] {
        var records: [[String]] = []
        var record: [String] = []
        var field = ""
        var inQuotes = false
        var characters = text.unicodeScalars.makeIterator()
        var pending: Unicode.Scalar? = characters.next()
        while let scalar = pending {
            pending = characters.next()
            if inQuotes {
                if scalar == "\"" {
                    if pending == "\"" {
                        field.unicodeScalars.append("\"")
                        pending = characters.next()
                    } else {
                        inQuotes = false
                    }
                } else {
                    field.unicodeScalars.append(scalar)
                }
                continue
            }
            switch scalar {
            case "\"": inQuotes = true
            case ",":
                record.append(field)
                field = ""
            case "\r" where pending == "\n": continue
            case "\n":
                record.append(field)
                records.append(record)
                record = []
                field = ""
            default: field.unicodeScalars.append(scalar)
            }
        }
        if !field.isEmpty || !record.isEmpty {
            record.append(field)
            records.append(record)
        }
        return records
    }

    /// The redemption link the exports must carry for `code`.
    static func link(_ code: String, appAppleId: String = appAppleId) -> String {
        "https://apps.apple.com/redeem?ctx=offercodes&id=\(appAppleId)&code=\(code)"
    }

    /// The codes of a CSV export (first column, header left out).
    static func codes(ofCSV text: String) -> [String] {
        Array(csvRecords(text).dropFirst().map { $0.first ?? "" })
    }
}
