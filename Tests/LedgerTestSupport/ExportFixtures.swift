import Foundation
import OfferCodes

/// Codes, a strict CSV reader and folders for the export tests.
enum ExportFixtures {
    static let app = CampaignApp(bundleId: "com.example.offerkit.demo", appAppleId: "1234567890")
    static let expiry = CalendarDate("2027-05-31")!

    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let templatesFolder = packageRoot.appendingPathComponent("templates/codes")

    static func code(
        _ code: String, offer: String = "Spring 2027 half price", expires: CalendarDate? = expiry,
        redemptionLimit: Int = 1, environment: CodeEnvironment = .production
    ) -> IssuedCode {
        IssuedCode(
            code: code, offer: offer, kind: redemptionLimit == 1 ? .oneTimeUse : .custom, batchIndex: 0,
            redemptionLimit: redemptionLimit, expirationDate: expires, environment: environment)
    }

    /// When the assignments of the export tests were handed out.
    static let assignedAt = Date(timeIntervalSince1970: 1_800_000_000.125)

    /// `code` as handed out to `recipient`.
    static func assignment(_ code: IssuedCode, to recipient: String, channel: AssignmentChannel = .export)
        -> CodeAssignment
    {
        CodeAssignment(
            recipient: recipient, campaign: "spring", code: code, channel: channel, assignedAt: assignedAt,
            isNew: true)
    }

    /// The whole export as one string (fine for the small exports of most tests). With
    /// `recipients`, they are checked first (as the command line does), then each gets the next
    /// code in order, as a ledger would hand them out.
    static func export(
        _ format: ExportFormat, _ codes: [IssuedCode], recipients: [ExportRecipient]? = nil,
        templates: ExportTemplates = .builtIn, displayNames: [String: OfferDisplayName] = [:]
    ) throws -> String {
        let exporter = try CodeExporter(templates: templates, format: format, app: app, displayNames: displayNames)
        var output = ""
        guard let recipients else {
            try exporter.export(codes: codes) { output += $0 }
            return output
        }
        _ = try exporter.checked(recipients)
        try exporter.export(
            to: { output += $0 },
            forEachAssignment: { row in
                for (code, recipient) in zip(codes, recipients) {
                    try row(assignment(code, to: recipient.id), recipient)
                }
            })
        return output
    }

    /// A new empty folder, removed after `body`.
    static func withTemporaryFolder<T>(_ body: (URL) throws -> T) throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("offerkit-export-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        return try body(folder)
    }
}

/// A strict RFC 4180 reader, independent of the exporter: every record ends with CRLF, quotes only
/// around whole fields, `""` inside quotes for a quote.
enum StrictCSV {
    struct Malformed: Error, CustomStringConvertible {
        let description: String
    }

    static func parse(_ text: String) throws -> [[String]] {
        let scalars = Array(text.unicodeScalars)
        var records: [[String]] = []
        var fields: [String] = []
        var field = String.UnicodeScalarView()
        var inQuotes = false
        var wasQuoted = false
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            index += 1
            if inQuotes {
                if scalar != "\"" {
                    field.append(scalar)
                } else if index < scalars.count, scalars[index] == "\"" {
                    field.append("\"")
                    index += 1
                } else {
                    inQuotes = false
                }
                continue
            }
            switch scalar {
            case "\"":
                guard field.isEmpty, !wasQuoted else { throw Malformed(description: "quote inside a field") }
                inQuotes = true
                wasQuoted = true
            case ",":
                fields.append(String(field))
                field = String.UnicodeScalarView()
                wasQuoted = false
            case "\r":
                guard index < scalars.count, scalars[index] == "\n" else { throw Malformed(description: "bare CR") }
                index += 1
                fields.append(String(field))
                records.append(fields)
                fields = []
                field = String.UnicodeScalarView()
                wasQuoted = false
            case "\n":
                throw Malformed(description: "bare LF outside quotes")
            default:
                guard !wasQuoted else { throw Malformed(description: "text after a closing quote") }
                field.append(scalar)
            }
        }
        guard !inQuotes, field.isEmpty, fields.isEmpty else {
            throw Malformed(description: "the last record does not end with CRLF")
        }
        return records
    }
}

/// Codes made on demand, recording how many were drawn, to see that exports stream.
struct GeneratedCodes: Sequence {
    final class Counter {
        var drawn = 0
    }

    let count: Int
    let counter = Counter()

    func makeIterator() -> AnyIterator<IssuedCode> {
        var next = 0
        let counter = counter
        return AnyIterator {
            guard next < count else { return nil }
            next += 1
            counter.drawn = next
            return ExportFixtures.code("CODE\(next)", offer: "Offer \(next % 7)", expires: nil)
        }
    }
}
