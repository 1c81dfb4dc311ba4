import Foundation
import OfferCodes
import OfferJSON
import OfferLedger
import OfferSigning

extension FuzzTarget {
    /// Reads a configuration's apps; every entry read has a bundle ID that the one rule accepts, and
    /// the reader that goes on past problems (the service's) agrees with the one that stops.
    static func fuzzCredentials(_ input: [UInt8]) {
        do {
            for entry in try AppCredentialsEntry.parse(input) {
                check(BundleIdText.isBundleId(entry.bundleId), "an accepted entry has a bad bundle ID")
            }
        } catch {
            _ = error.localizedDescription
        }
        guard let json = try? JSONValue.parse(input) else { return }
        let (entries, problems) = AppCredentialsEntry.read(json)
        let first = Result { () throws(AppCredentialsError) in try AppCredentialsEntry.parse(json) }
        switch first {
        case .success(let parsed): check(problems.isEmpty && parsed == entries, "the readers disagree on valid apps")
        case .failure(let error): check(problems.first == error, "the readers disagree on the first problem")
        }
        for entry in entries { check(BundleIdText.isBundleId(entry.bundleId), "a read entry has a bad bundle ID") }
    }

    /// Reads a recipients CSV; every recipient read has a valid recipient id (listed once) and a
    /// name that is absent or not empty.
    static func fuzzRecipients(_ input: [UInt8]) {
        do {
            var ids = Set<String>()
            for recipient in try ExportRecipient.list(csv: input) {
                check(RecipientId.problem(recipient.id) == nil, "an accepted recipient has an invalid id")
                check(ids.insert(recipient.id).inserted, "an accepted recipient id is listed twice")
                check(recipient.name.map { !$0.isEmpty } ?? true, "an accepted recipient has an empty name")
            }
        } catch {
            _ = error.localizedDescription
        }
    }

    /// Reads a time as a ledger holds it; a time read is read back the same from the text the
    /// ledger writes for it, and Foundation's ISO 8601 parser reads the same moment (to the
    /// millisecond, which is all the ledger keeps).
    static func fuzzLedgerTimestamp(_ input: [UInt8]) {
        guard let text = String(validating: input, as: UTF8.self), let date = LedgerTimestamp.date(text) else { return }
        check(LedgerTimestamp.date(LedgerTimestamp.text(date)) == date, "a time read is not read back as written")
        let foundation = Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt)
        guard let parsed = try? foundation.parse(text) else {
            return check(false, "a time the ledger reads is not ISO 8601 to Foundation")
        }
        let difference = abs(LedgerTimestamp.milliseconds(parsed).timeIntervalSince(date))
        check(difference <= 0.001, "Foundation reads another moment in the time")
    }

    /// Parses a ledger locator; a password in it never shows in its description or its error.
    /// A password file: a password found is one field of one line, never empty, never spanning lines.
    static func fuzzPasswordFile(_ input: [UInt8]) {
        guard
            let location = try? PostgresLocation(
                user: "offerkit", password: nil, host: "db.example.com", port: 5432, database: "offers")
        else { return }
        guard let password = PostgresPasswordFile.password(in: input, for: location) else { return }
        check(!password.isEmpty, "an empty password was taken from the password file")
        check(!password.contains(where: \.isNewline), "a password spans lines of the password file")
    }

    static func fuzzLedgerLocation(_ input: [UInt8]) {
        guard let text = String(validating: input, as: UTF8.self) else { return }
        let secret = "fuzz-secret-password"
        let withSecret = text.replacingOccurrences(of: "postgres://u@", with: "postgres://u:\(secret)@")
        do {
            let location = try LedgerLocation(parsing: withSecret)
            check(!location.description.contains(secret), "a ledger URL's password shows in its description")
        } catch {
            check(!error.localizedDescription.contains(secret), "a ledger URL's password shows in an error")
        }
    }
}
