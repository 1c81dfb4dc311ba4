import Foundation
import OfferCodes
import OfferLedger
import OfferSigning
import Testing

@testable import OfferService

/// The configuration's `"ledger"`: parsed by `LedgerLocation`, relative files from the
/// configuration's folder, the password of a URL never shown.
@Suite("Configuration: the code ledger")
struct LedgerConfigurationTests {
    static let secret = "s3cr3t-Pa55"

    /// The demo app's entry, with the key file's absolute path.
    static let app = ConfigurationTests.app(ServiceFixtures.app, keyFile: ServiceFixtures.keyFile)

    func load(_ ledger: String?) throws -> ServiceConfiguration {
        let folder = try TemporaryFolder()
        let member = ledger.map { #", "ledger": \#(CodeLedgerFixtures.quoted($0))"# } ?? ""
        let path = try folder.write("service.json", #"{"apps": {\#(Self.app)}\#(member)}"#)
        return try ServiceConfiguration.load(path: path, environment: [:])
    }

    @Test("no ledger, a relative file from the configuration's folder, sqlite:, an absolute path, a URL")
    func locations() throws {
        #expect(try load(nil).ledger == nil)
        let folder = try TemporaryFolder()
        let path = try folder.write(
            "conf/service.json", #"{"apps": {\#(Self.app)}, "ledger": "data/ledger.sqlite"}"#)
        let expected = folder.url.appendingPathComponent("conf/data/ledger.sqlite").path
        #expect(try ServiceConfiguration.load(path: path, environment: [:]).ledger == .sqlite(path: expected))
        #expect(
            try load("sqlite:/var/lib/offerkit/ledger.sqlite").ledger
                == .sqlite(path: "/var/lib/offerkit/ledger.sqlite"))
        let url = try load("postgres://offerkit:\(Self.secret)@db.internal:5433/offers?schema=team")
        guard case .postgres(let location)? = url.ledger else {
            Issue.record("not a PostgreSQL ledger: \(String(describing: url.ledger))")
            return
        }
        #expect(location.host == "db.internal" && location.port == 5433 && location.schema == "team")
        #expect(location.password == Self.secret)
        #expect(!"\(url.ledger!)".contains(Self.secret))
    }

    @Test("a locator that cannot be parsed is a configuration error naming \"ledger\", without the password")
    func invalidLocators() throws {
        for locator in [
            "", "mysql://offerkit:\(Self.secret)@db/offers", "postgres://offerkit:\(Self.secret)@/offers",
            "postgres://offerkit:\(Self.secret)@db:99999/offers",
        ] {
            do {
                _ = try load(locator)
                Issue.record("\(locator) was accepted")
            } catch {
                let message = error.localizedDescription
                #expect(message.contains("ledger"), "\(message)")
                #expect(!message.contains(Self.secret), "\(message)")
            }
        }
        #expect(throws: ConfigurationError.self) { _ = try self.load(String(repeating: "x", count: 4097)) }
    }

    @Test("a service whose configuration names a ledger needs the opened ledger; the error hides the password")
    func ledgerMustBeOpened() async throws {
        let configuration = try load("postgres://offerkit:\(Self.secret)@db.internal/offers")
        do {
            _ = try OfferService(configuration: configuration, authentication: .disabled)
            Issue.record("the service started without its ledger")
        } catch {
            #expect(error.localizedDescription.contains("postgres://offerkit:***@db.internal"), "\(error)")
            #expect(!error.localizedDescription.contains(Self.secret))
        }
        let service = try OfferService(
            configuration: configuration, ledger: try await CodeLedger.inMemory(), authentication: .disabled)
        #expect(service.state.ledger != nil)
        // Neither configuration has a Get Retention Message endpoint (GetRetentionMessageTests route it).
        #expect(
            service.routedOperations.map(\.id) == OfferService.operations.filter { !$0.requiresRetention }.map(\.id))
        let stateless = try OfferService(configuration: try load(nil), authentication: .disabled)
        #expect(stateless.state.ledger == nil)
        #expect(
            stateless.routedOperations.map(\.id)
                == OfferService.operations.filter { !$0.requiresLedger && !$0.requiresRetention }.map(\.id))
    }
}
