import Foundation
import Testing

@testable import CLITestSupport

/// Every `codes` command that reads a ledger with a flipped byte either works as on the undamaged
/// ledger, or exits 5 naming the file: never exit 0 with other output, never the usage exit 2.
@Suite("offerkit codes: a damaged ledger")
struct CodesLedgerDamageTests {
    /// Launch: 300 generated codes and one given code; Gems: 40 of Apple's codes imported, and a
    /// second one-time-use batch still to import.
    static let campaign = CampaignFiles.campaign(
        name: "damage",
        offers: [
            CampaignFiles.offer(
                "Launch", custom: [CampaignFiles.generated(count: 300, length: 8), CampaignFiles.given(["SPRING27"])]),
            CampaignFiles.offer(
                "Gems", productAscId: "6450000011",
                oneTimeUse: [CampaignFiles.oneTimeUse(count: 40), CampaignFiles.oneTimeUse(count: 10)]),
        ])
    static let appleCodes = (100..<140).map { "APPLE\($0)X" }
    static let laterCodes = (0..<10).map { "LATER\($0)Y" }
    static let more = CampaignFiles.campaign(
        name: "more",
        offers: [CampaignFiles.offer("More", productAscId: "6450000012", custom: [CampaignFiles.given(["MORE1"])])])

    /// A command and what it printed on the undamaged ledger (with the ledger's path as `LEDGER`).
    struct Command {
        let name: String
        let arguments: [String]
        var expected = ""
    }

    @Test func everyCommandWorksOrExits5() async throws {
        let files = try CampaignFiles.make()
        defer { files.remove() }
        let campaign = try files.write(Self.campaign, to: "damage.json")
        let more = try files.write(Self.more, to: "more.json")
        let apple = try files.write(Self.appleCodes.joined(separator: "\n") + "\n", to: "apple.csv")
        let later = try files.write(Self.laterCodes.joined(separator: "\n") + "\n", to: "later.csv")
        try await #require(try files.run("generate", campaign).status == 0)
        try await #require(try files.run("import", campaign, ["--offer", "Gems", "--csv", apple]).status == 0)
        let pristine = files.file("pristine.sqlite")
        try FileManager.default.copyItem(atPath: files.ledger, toPath: pristine)

        var commands = [
            Command(name: "export", arguments: [campaign, "--environment", "all"]),
            Command(name: "plan", arguments: [campaign]),
            Command(name: "validate", arguments: [campaign]),
            Command(name: "generate", arguments: [more]),
            Command(name: "import", arguments: [campaign, "--offer", "Gems", "--batch", "2", "--csv", later]),
            Command(name: "deactivate", arguments: [campaign, "--offer", "Gems"]),
        ]
        for index in commands.indices {
            let copy = files.file("undamaged-\(commands[index].name).sqlite")
            try FileManager.default.copyItem(atPath: pristine, toPath: copy)
            let result = try await Self.run(commands[index], ledger: copy, in: files)
            try #require(result.status == 0, "\(result)")
            commands[index].expected = result.stdout.replacingOccurrences(of: copy, with: "LEDGER")
        }
        let exported = CampaignFiles.codes(ofCSV: commands[0].expected)
        try #require(exported.count == 341)

        // The header, the schema, a batch row, codes in the table and in the index.
        var offsets: [(String, UInt64)] = [
            ("the header magic", 3), ("the header's write format version", 18),
            ("the header's read format version", 19),
            ("the header's schema format", 44), ("the header's text encoding", 59),
        ]
        for (text, last) in [
            ("CREATE TABLE codes", false), ("offerkit-ledger-v2", false), ("2027-Q1", false), (exported[0], false),
            (exported[0], true), (exported[299], false), ("SPRING27", true), (Self.appleCodes[7], false),
        ] {
            let offset = try #require(try Self.offset(of: text, in: pristine, last: last), "\(text) is not in the file")
            offsets.append(("\(text) (\(last ? "last" : "first") occurrence)", offset + 3))
        }
        for (place, offset) in offsets {
            for command in commands {
                let copy = files.file("damaged.sqlite")
                // A command that stopped on the damage left its write-ahead log behind: a restored
                // file must not meet the log of another one.
                for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: copy + suffix) }
                try FileManager.default.copyItem(atPath: pristine, toPath: copy)
                try Self.flip(copy, at: offset)
                let result = try await Self.run(command, ledger: copy, in: files)
                let context = "a flip in \(place), byte \(offset), then \(command.name)\n\(result)"
                if result.status == 0 {
                    #expect(
                        result.stdout.replacingOccurrences(of: copy, with: "LEDGER") == command.expected,
                        "exit 0 with other output: \(context)")
                } else {
                    #expect(result.status == 5, "\(context)")
                    for words in [
                        "The code ledger at \(copy) looks damaged", "sqlite3 '\(copy)' 'PRAGMA integrity_check'",
                        "restore it from a backup",
                    ] {
                        #expect(result.stderr.contains(words), "\(context)")
                    }
                    #expect(!result.stderr.lowercased().contains("campaign problem"), "\(context)")
                }
            }
        }
    }

    static func run(_ command: Command, ledger: String, in files: CampaignFiles) async throws -> CLIResult {
        try await files.run(command.name, nil, command.arguments, ledger: .at(ledger))
    }

    /// Where `text` first (or last) occurs in the file.
    static func offset(of text: String, in path: String, last: Bool) throws -> UInt64? {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return data.range(of: Data(text.utf8), options: last ? .backwards : []).map { UInt64($0.lowerBound) }
    }

    /// Flips the lowest bit of the byte at `offset`, with FileHandle.
    static func flip(_ path: String, at offset: UInt64) throws {
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        try handle.seek(toOffset: offset)
        let byte = try #require(try handle.read(upToCount: 1)?.first)
        try handle.seek(toOffset: offset)
        try handle.write(contentsOf: [byte ^ 0x01])
    }
}
