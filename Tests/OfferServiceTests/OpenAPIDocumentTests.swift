import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import OfferCodes
import OfferJSON
import OfferLedger
import OfferService
import OfferSigning
import Testing

@Suite("OpenAPI document")
struct OpenAPIDocumentTests {
    let document = OpenAPIDocument.document()
    let operations = OfferService.operations

    static let regenerate = "swift run offerkit openapi --out openapi.json --force"

    @Test("the committed openapi.json is byte for byte the generated document")
    func committedCopyIsCurrent() throws {
        let url = ServiceFixtures.packageRoot.appendingPathComponent("openapi.json")
        let committed = try #require(
            try? Data(contentsOf: url), "openapi.json is missing at the repository root; run `\(Self.regenerate)`")
        let generated = Data(OpenAPIDocument.jsonText().utf8)
        guard committed != generated else { return }
        let committedLines = String(decoding: committed, as: UTF8.self).split(
            separator: "\n", omittingEmptySubsequences: false)
        let generatedLines = OpenAPIDocument.jsonText().split(separator: "\n", omittingEmptySubsequences: false)
        let line = zip(committedLines, generatedLines).enumerated().first { $0.element.0 != $0.element.1 }
        let difference =
            line.map {
                "first difference at line \($0.offset + 1):\n  committed: \($0.element.0)\n  generated: \($0.element.1)"
            } ?? "one is a prefix of the other (\(committedLines.count) vs \(generatedLines.count) lines)"
        Issue.record("openapi.json is out of date: run `\(Self.regenerate)`. \(difference)")
    }

    @Test("the document is the same on every build, and JSON text ends in a newline")
    func deterministic() {
        let first = OpenAPIDocument.generate().document
        let second = OpenAPIDocument.generate().document
        #expect(first.serialized(pretty: true) == second.serialized(pretty: true))
        #expect(first == document)
        #expect(OpenAPIDocument.jsonText() == document.text(pretty: true) + "\n")
        #expect(OpenAPIDocument.jsonText(pretty: false) == document.text())
    }

    @Test("version, info, servers and the security scheme")
    func header() throws {
        #expect(document["openapi"] == .string("3.1.0"))
        #expect(document["info"]?["title"] == .string("OfferKit signing service"))
        #expect(document["info"]?["version"] == .string(OfferService.version))
        #expect(document["servers"] == .array([.object([("url", .string("http://127.0.0.1:8080"))])]))
        let scheme = try #require(document["components"]?["securitySchemes"]?["apiKey"])
        #expect(scheme["type"] == .string("http"))
        #expect(scheme["scheme"] == .string("bearer"))
        guard case .string(let description)? = scheme["description"] else {
            Issue.record("the security scheme has no description")
            return
        }
        #expect(description.contains(APIKey.secretPrefix))
        for scope in OperationScope.allCases { #expect(description.contains("`\(scope.rawValue)`")) }
    }

    @Test("every operation is documented with its method, security, body and every problem status")
    func everyOperation() throws {
        var operationIds: [String] = []
        for (path, item) in try members(document["paths"]) {
            for (method, operation) in try members(item) {
                operationIds.append(try #require(string(operation["operationId"]), "\(method) \(path)"))
            }
        }
        #expect(operationIds.sorted() == operations.map(\.id).sorted())
        for operation in operations {
            let label = "\(operation.method.rawValue) \(operation.path)"
            let item = try #require(
                document["paths"]?[operation.path]?[operation.method.rawValue.lowercased()], "\(label) is missing")
            #expect(item["operationId"] == .string(operation.id), "\(label)")
            #expect(item["tags"] == .array([.string(operation.tag)]), "\(label)")
            // An operation that authorizes per item (the batch) needs a key and no scope of its own.
            let scopes =
                operation.scope.map { [JSONValue.string($0.rawValue)] } ?? (operation.authorizesPerItem ? [] : nil)
            let security: JSONValue = scopes.map { .array([.object([("apiKey", .array($0))])]) } ?? .array([])
            #expect(item["security"] == security, "\(label)")
            if let request = operation.requestSchema {
                let body = item["requestBody"]
                #expect(body?["required"] == .bool(true), "\(label)")
                let schema = body?["content"]?["application/json"]?["schema"]
                if let name = request.componentName {
                    #expect(schema?["$ref"] == .string("#/components/schemas/\(name)"), "\(label)")
                }
            } else {
                #expect(item["requestBody"] == nil, "\(label)")
            }
            try checkResponses(of: operation, item["responses"], label: label)
        }
    }

    private func checkResponses(of operation: ServiceOperation, _ responses: JSONValue?, label: String) throws {
        let problems = Dictionary(grouping: operation.documentedProblems, by: \.status)
        let statuses = Set([String(operation.responseStatus)] + problems.keys.map(String.init))
        #expect(Set(try members(responses).map(\.key)) == statuses, "\(label)")
        let success = responses?[String(operation.responseStatus)]
        #expect(success?["content"]?[operation.responseMediaType]?["schema"] != nil, "\(label)")
        #expect(success?["headers"]?["X-Request-Id"] != nil, "\(label)")
        for (status, types) in problems {
            let response = responses?[String(status)]
            let media = response?["content"]?["application/problem+json"]
            #expect(media?["schema"]?["$ref"] == .string("#/components/schemas/Problem"), "\(label) \(status)")
            let examples = try members(media?["examples"])
            #expect(examples.map(\.key).sorted() == types.map(\.slug).sorted(), "\(label) \(status)")
            for type in types {
                let value = examples.first { $0.key == type.slug }?.value["value"]
                #expect(value?["type"] == .string(type.uri), "\(label) \(type.slug)")
                #expect(value?["status"] == .integer(status), "\(label) \(type.slug)")
                #expect(string(response?["description"])?.contains("`\(type.slug)`") == true, "\(label) \(type.slug)")
            }
            let headers = Set(try members(response?["headers"]).map(\.key))
            #expect(headers.contains("X-Request-Id"), "\(label) \(status)")
            if types.contains(.unauthorized) { #expect(headers.contains("WWW-Authenticate"), "\(label)") }
            if types.contains(.rateLimited) || types.contains(.unavailable) {
                #expect(headers.contains("Retry-After"), "\(label) \(status)")
            }
        }
    }

    @Test("every problem type is documented: the Problem schema's type enum, x-problem-types, 404 and 405")
    func problemTypes() throws {
        let problem = try #require(document["components"]?["schemas"]?["Problem"])
        #expect(problem["properties"]?["type"]?["enum"] == .array(ProblemType.all.map { .string($0.uri) }))
        #expect(problem["additionalProperties"] == .bool(false))
        let listed = try #require(document["x-problem-types"])
        guard case .array(let entries) = listed else {
            Issue.record("x-problem-types is not an array")
            return
        }
        #expect(entries.map { $0["slug"] } == ProblemType.all.map { .string($0.slug) })
        #expect(entries.map { $0["status"] } == ProblemType.all.map { .integer($0.status) })
        let description = try #require(string(document["info"]?["description"]))
        for type in ProblemType.all { #expect(description.contains("| `\(type.slug)` | \(type.status) |")) }
        let shared = document["components"]?["responses"]
        #expect(shared?["NotFound"]?["content"]?["application/problem+json"] != nil)
        #expect(shared?["MethodNotAllowed"]?["headers"]?["Allow"] != nil)
    }

    @Test("components: each written once, sorted by name, and every $ref resolves")
    func components() throws {
        #expect(OpenAPIDocument.componentConflicts == [], "two different schemas share these component names")
        for section in ["schemas", "responses", "headers"] {
            let names = try members(document["components"]?[section]).map(\.key)
            #expect(names == names.sorted(), "components/\(section) is not sorted")
        }
        var references: [String] = []
        collectReferences(document, into: &references)
        #expect(!references.isEmpty)
        for reference in Set(references) {
            #expect(resolve(reference) != nil, "\(reference) does not resolve")
        }
    }

    @Test("every tag has a description")
    func tags() throws {
        let tags = try #require(document["tags"])
        guard case .array(let entries) = tags else {
            Issue.record("tags is not an array")
            return
        }
        var used: [String] = []
        for operation in operations where !used.contains(operation.tag) { used.append(operation.tag) }
        #expect(entries.map { $0["name"] } == used.map { .string($0) })
        for entry in entries { #expect(entry["description"] != nil, "tag \(entry["name"].map { "\($0)" } ?? "?")") }
    }

    @Test("every example validates against its own schema (SchemaValidator, $refs resolved)")
    func examples() {
        var checker = OpenAPIExampleChecker(document: document)
        checker.checkAll(operations: operations, problem: OpenAPIDocument.problemSchema)
        #expect(checker.failures == [])
        #expect(checker.checked == OpenAPIExampleChecker.count(in: document), "some examples were not checked")
        #expect(checker.checked > 0)
    }

    @Test("the service answers every operation's request example with the documented status and schema")
    func requestExamplesAreAccepted() async throws {
        var calls: [(operation: ServiceOperation, path: String, body: JSONValue?)] = []
        for operation in operations {
            let item = document["paths"]?[operation.path]?[operation.method.rawValue.lowercased()]
            let media = item?["requestBody"]?["content"]?["application/json"]
            // The path with each parameter's example in its place.
            var path = operation.path
            if case .array(let parameters)? = item?["parameters"] {
                for parameter in parameters {
                    guard case .string(let name)? = parameter["name"], case .string(let value)? = parameter["example"]
                    else {
                        Issue.record("\(operation.id): a parameter without a name or example")
                        continue
                    }
                    path = path.replacingOccurrences(of: "{\(name)}", with: value)
                }
            }
            if operation.requestSchema != nil {
                let example = try #require(media?["example"], "\(operation.id) has no request example")
                calls.append((operation, path, example))
            } else {
                calls.append((operation, path, nil))
            }
        }
        // The apps the examples name (a request's `bundleId`, a campaign's `app.bundleId`), with the demo key.
        let bundleIds = calls.compactMap { call -> String? in
            guard case .string(let bundleId)? = call.body?["bundleId"] ?? call.body?["campaign"]?["app"]?["bundleId"]
            else { return nil }
            return bundleId
        }
        // The operations on a ledger get one that holds the examples' campaign; the Get Retention
        // Message endpoint is configured too.
        var configuration = RetentionServiceFixtures.configuration()
        for bundleId in bundleIds where configuration.apps[bundleId] == nil {
            configuration.apps[bundleId] = AppCredentials(
                keyFile: ServiceFixtures.keyFile, keyId: ServiceFixtures.keyId, issuerId: ServiceFixtures.issuerId)
        }
        let service = try OfferService(configuration: configuration, ledger: try await Self.exampleLedger())
        let requests = calls
        try await ServiceFixtures.application(service).test(.router) { client in
            for call in requests {
                let operation = call.operation
                let response = try await client.send(
                    operation.method, call.path, json: call.body.map { $0.text() }, key: ServiceFixtures.admin.secret)
                if operation.requiresRetention {
                    // Only the App Store can sign a request it answers: its example is refused, as documented.
                    #expect(response.status == 401 && response.problemSlug == "unverified-request", "\(response.text)")
                    continue
                }
                #expect(response.status == operation.responseStatus, "\(operation.id): \(response.text.prefix(500))")
                let body = response.json ?? .string(response.text)
                do {
                    try SchemaValidator().validate(body, against: operation.responseSchema)
                } catch {
                    Issue.record("\(operation.id): the response does not match its schema: \(error)")
                }
            }
        }
    }

    @Test(
        "openapi-spec-validator accepts the document and jsonschema accepts every example",
        .enabled(OpenAPIPython.reason) { await OpenAPIPython.shouldRun })
    func independentValidator() async throws {
        let result = try await OpenAPIPython.check(json: OpenAPIDocument.jsonText())
        #expect(result.status == 0, "\(result.stderr)")
        let summary = try JSONValue.parse(Array(result.stdout.utf8))
        #expect(summary["examples"] == .integer(OpenAPIExampleChecker.count(in: document)))
    }

    @Test(
        "openapi-spec-validator accepts the document a service without a ledger serves",
        .enabled(OpenAPIPython.reason) { await OpenAPIPython.shouldRun })
    func independentValidatorWithoutLedger() async throws {
        let stateless = OpenAPIDocument.document(includingLedger: false)
        let result = try await OpenAPIPython.check(json: OpenAPIDocument.jsonText(includingLedger: false))
        #expect(result.status == 0, "\(result.stderr)")
        let summary = try JSONValue.parse(Array(result.stdout.utf8))
        #expect(summary["examples"] == .integer(OpenAPIExampleChecker.count(in: stateless)))
    }

    @Test(
        "the YAML loads (PyYAML) to exactly the JSON document",
        .enabled(OpenAPIPython.reason) { await OpenAPIPython.shouldRun })
    func yamlRoundTrips() async throws {
        let result = try await OpenAPIPython.yamlLoadsAsJSON(
            yaml: OpenAPIDocument.yamlText(), json: OpenAPIDocument.jsonText())
        #expect(result.status == 0, "\(result.stdout.prefix(2000))\n\(result.stderr)")
    }

    @Test(
        "GET /openapi.json serves the document, without an API key, cacheable; without a ledger, without its operations"
    )
    func served() async throws {
        for ledger in [nil, try await CodeLedger.inMemory()] as [CodeLedger?] {
            for retention in [false, true] {
                var configuration = retention ? RetentionServiceFixtures.configuration() : ServiceFixtures.configuration
                if ledger == nil { configuration.ledger = nil }
                let service = try OfferService(configuration: configuration, ledger: ledger)
                try await ServiceFixtures.application(service).test(.router) { client in
                    let response = try await client.send(.get, "/openapi.json")
                    #expect(response.status == 200)
                    #expect(response.headers[.contentType] == "application/json")
                    #expect(response.headers[.cacheControl] == nil)
                    #expect(response.headers[HTTPField.Name("X-Request-Id")!] != nil)
                    // A service with both serves the committed document.
                    #expect(
                        response.json
                            == OpenAPIDocument.document(
                                includingLedger: ledger != nil,
                                retentionPath: retention ? RetentionServiceFixtures.path : nil))
                    #expect((response.json == document) == (ledger != nil && retention))
                }
            }
        }
    }

    @Test("the document without the ledger operations is the full one less exactly those, and still valid")
    func documentWithoutLedger() throws {
        let stateless = OpenAPIDocument.document(includingLedger: false)
        let ledgerOperations = operations.filter(\.requiresLedger)
        #expect(Set(ledgerOperations.map(\.id)) == ["claimCode", "campaignStatus"])
        for operation in operations {
            let item = stateless["paths"]?[operation.path]?[operation.method.rawValue.lowercased()]
            #expect((item == nil) == operation.requiresLedger, "\(operation.id)")
            let full = document["paths"]?[operation.path]?[operation.method.rawValue.lowercased()]
            #expect(full?["x-offerkit-requires-ledger"] == (operation.requiresLedger ? .bool(true) : nil))
        }
        #expect(stateless["components"]?["schemas"]?["CodeClaim"] == nil)
        #expect(stateless["components"]?["schemas"]?["Problem"] == document["components"]?["schemas"]?["Problem"])
        var checker = OpenAPIExampleChecker(document: stateless)
        checker.checkAll(
            operations: operations.filter { !$0.requiresLedger }, problem: OpenAPIDocument.problemSchema)
        #expect(checker.failures == [])
        #expect(checker.checked == OpenAPIExampleChecker.count(in: stateless))
    }

    /// A ledger holding the examples' campaign (`examples/campaign.json`, recorded on the examples'
    /// day) with personal codes of the offer the claim example names.
    static func exampleLedger() async throws -> CodeLedger {
        let ledger = try await CodeLedger.inMemory()
        let url = ServiceFixtures.packageRoot.appendingPathComponent("examples/campaign.json")
        let text = try String(contentsOf: url, encoding: .utf8)
        let campaign = try CampaignValidator(today: CalendarDate(year: 2027, month: 3, day: 15)!)
            .validate(json: Array(text.utf8)).validCampaign()
        let batch = LedgerBatch(
            campaign: campaign.name, offer: "Spring half price, 3 months", kind: .custom, index: 1, quarter: "2027-Q1",
            redemptionLimit: 1, codeCount: 2, expirationDate: nil, environment: .production)
        try await ledger.recordBatch(batch, campaign: campaign, codes: .given(["VIPK7M2QX9R", "VIPQ3W8HN2T"]))
        return ledger
    }

    // MARK: Helpers

    private func members(_ value: JSONValue?) throws -> [(key: String, value: JSONValue)] {
        guard case .object(let members)? = value else {
            throw DocumentShapeError(description: "expected an object, found \(value?.typeName ?? "nothing")")
        }
        return members
    }

    private func string(_ value: JSONValue?) -> String? {
        if case .string(let text)? = value { return text }
        return nil
    }

    private func collectReferences(_ value: JSONValue, into references: inout [String]) {
        switch value {
        case .object(let members):
            for member in members {
                if member.key == "$ref", case .string(let reference) = member.value { references.append(reference) }
                collectReferences(member.value, into: &references)
            }
        case .array(let items):
            for item in items { collectReferences(item, into: &references) }
        default:
            return
        }
    }

    /// The value at a local JSON pointer such as `#/components/schemas/Problem`.
    private func resolve(_ reference: String) -> JSONValue? {
        guard reference.hasPrefix("#/") else { return nil }
        var value: JSONValue? = document
        for token in reference.dropFirst(2).split(separator: "/", omittingEmptySubsequences: false) {
            let key = token.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            value = value?[key]
        }
        return value
    }
}

private struct DocumentShapeError: Error, CustomStringConvertible {
    let description: String
}
