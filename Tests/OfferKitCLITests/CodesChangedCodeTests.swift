import Foundation
import InteropSupport
import Testing

@testable import CLITestSupport

/// A code changed in place in the ledger, in its row and its index alike (an `UPDATE`, so that
/// SQLite's `PRAGMA integrity_check` still answers `ok`): `codes claim` and
/// `POST /v1/codes/claim` refuse to hand it out, and `codes status` and
/// `GET /v1/campaigns/{name}/status` report the ledger damaged. (OfferKit used to hand out the
/// changed code, one that was never generated, and its status said nothing.)
@Suite("offerkit codes: a code changed in the ledger")
struct CodesChangedCodeTests {
    /// The first code of ``HandOut/personal``, and the same with one byte changed.
    static let recorded = "PERS1"
    static let changed = "PERX1"

    /// Changes ``recorded`` to ``changed`` in the ledger's `codes` table behind OfferKit's back.
    static func changeTheNextCode(_ handOut: HandOut) async throws {
        let update = "UPDATE codes SET code_key = '\(changed)' WHERE code_key = '\(recorded)'"
        switch handOut.ledger {
        case .folder:
            let answer = try await CodesLedgerCopyTests.python(
                """
                import sqlite3, sys
                db = sqlite3.connect(sys.argv[1])
                db.execute(sys.argv[2])
                db.commit()
                print(db.execute("PRAGMA integrity_check").fetchone()[0])
                """, handOut.files.ledger, update)
            #expect(answer.trimmingCharacters(in: .whitespacesAndNewlines) == "ok", "\(answer)")
        case .at(let url):
            let schema = CLIPostgres.schema(of: url)
            let changed = try await CLIPostgres.psql(
                url,
                "UPDATE \(schema).codes SET code_key = '\(changed)' WHERE code_key = '\(recorded)' RETURNING seq")
            // psql prints the row, then the command tag (`UPDATE 1`).
            #expect(
                changed?.split(separator: "\n").first == "0",
                "the next code of the batch was not changed: \(changed ?? "no psql")")
        case .none:
            Issue.record("a hand-out campaign always has a ledger")
        }
    }

    @Test(arguments: HandOut.backends)
    func codesClaimAndStatusRefuseAChangedCode(backend: String) async throws {
        guard let handOut = try await HandOut.make(backend) else { return }
        defer { handOut.remove() }
        try await Self.changeTheNextCode(handOut)

        let claim = try await handOut.claim(HandOut.personal, "alice")
        #expect(claim.status == 5, "\(claim)")
        #expect(claim.stderr.contains("looks damaged") && claim.stderr.contains("does not match"), "\(claim)")
        #expect(!claim.stdout.contains(Self.changed) && !claim.stderr.contains(Self.changed), "\(claim)")
        let json = try await handOut.claim(HandOut.personal, "alice", ["--format", "json"])
        #expect(json.status == 5 && !json.stdout.contains(Self.changed), "\(json)")

        let status = try await handOut.run("status")
        #expect(status.status == 5, "\(status)")
        #expect(status.stderr.contains("looks damaged"), "\(status)")

        let export = try await handOut.export(HandOut.personal, "bob\n")
        #expect(export.status == 5 && !export.stdout.contains(Self.changed), "\(export)")
        // Other offers still hand out their codes.
        #expect(try await handOut.claim(HandOut.shared, "alice").stdout.contains(": SHARE27\n"))
    }

    @Test(arguments: HandOut.backends)
    func theServiceRefusesAChangedCode(backend: String) async throws {
        guard let handOut = try await HandOut.make(backend) else { return }
        defer { handOut.remove() }
        try await Self.changeTheNextCode(handOut)
        let locator: String =
            switch handOut.ledger {
            case .at(let url): url
            default: handOut.files.ledger
            }
        let key = try await ServeFixture.createKey(name: "changed-code", ["--scope", "codes"])
        let config = try handOut.files.write(
            """
            {"apps": {"\(DemoKey.bundleId)": {"keyFile": "\(DemoKey.keyPath)", "keyId": "\(DemoKey.keyId)",
                      "issuerId": "\(DemoKey.issuerId)"}},
             "ledger": \(CampaignFiles.quoted(locator))}
            """, to: "service.json")
        let server = try ServerProcess(
            ["serve", "--config", config, "--port", "0"], environment: ["OFFERKIT_API_KEYS": "[\(key.entryText)]"])
        let prefix = "offerkit: listening on http://127.0.0.1:"
        let line = try await server.waitForStderrLine(containing: prefix)
        let port = try #require(Int(line.dropFirst(prefix.count)), "no port in \(line)")
        defer { server.terminate() }
        func claim(_ offer: String, _ recipient: String) async throws -> HTTPReply {
            try await HTTPConnection.request(
                "POST", "/v1/codes/claim", port: port,
                headers: [("Content-Type", "application/json"), ("Authorization", "Bearer \(key.secret)")],
                body: #"{"campaign":"handout","offer":"\#(offer)","recipient":"\#(recipient)"}"#)
        }
        let refused = try await claim(HandOut.personal, "alice")
        #expect(refused.status == 503, "\(refused)")
        #expect(refused.json?["type"]?.string == "urn:offerkit:problem:ledger-unavailable", "\(refused)")
        #expect(!refused.body.contains(Self.changed), "\(refused)")
        let again = try await claim(HandOut.personal, "bob")
        #expect(again.status == 503 && !again.body.contains(Self.changed), "\(again)")
        let status = try await HTTPConnection.request(
            "GET", "/v1/campaigns/handout/status", port: port, headers: [("Authorization", "Bearer \(key.secret)")])
        #expect(status.status == 503, "\(status)")
        // Other offers still hand out their codes.
        #expect(try await claim(HandOut.shared, "alice").json?["code"]?.string == "SHARE27")
    }
}
