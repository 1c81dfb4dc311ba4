import Foundation
import Testing

@testable import CLITestSupport

/// The committed clients (clients/python, clients/swift) have exactly the operations of the committed
/// openapi.json: a quick check that someone who changed the API also ran `clients/generate`. CI's
/// `clients/generate --check` compares every byte; this runs with `swift test`, without the generators.
@Suite("generated clients")
struct GeneratedClientsTests {
    /// (method, path, operationId) of every operation of openapi.json.
    static func operations() throws -> [(method: String, path: String, id: String)] {
        let data = try Data(contentsOf: CLI.packageRoot.appendingPathComponent("openapi.json"))
        let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let paths = try #require(document["paths"] as? [String: [String: [String: Any]]])
        return try paths.flatMap { path, methods in
            try methods.map { method, operation in
                (method, path, try #require(operation["operationId"] as? String))
            }
        }
    }

    @Test func thePythonClientHasAModulePerOperation() throws {
        let api = CLI.packageRoot.appendingPathComponent("clients/python/offerkit_client/api")
        var calls: Set<String> = []
        let files = try #require(FileManager.default.enumerator(at: api, includingPropertiesForKeys: nil))
        for case let file as URL in files where file.pathExtension == "py" && file.lastPathComponent != "__init__.py" {
            let text = try String(contentsOf: file, encoding: .utf8)
            let method = text.firstMatch(of: /"method": "([a-z]+)"/)?.1
            let url = text.firstMatch(of: /"url": "([^"]+)"/)?.1
            calls.insert("\(method ?? "?") \(url ?? "?")")
        }
        let expected = Set(try Self.operations().map { "\($0.method) \($0.path)" })
        #expect(
            calls == expected,
            "clients/python is not generated from openapi.json (run clients/generate): missing \(expected.subtracting(calls).sorted()), extra \(calls.subtracting(expected).sorted())"
        )
    }

    @Test func theSwiftClientHasAMethodPerOperation() throws {
        let types = try String(
            contentsOf: CLI.packageRoot.appendingPathComponent(
                "clients/swift/Sources/OfferKitClient/Generated/Types.swift"),
            encoding: .utf8)
        let declared = Set(types.matches(of: /\n    func (\w+)\(_ input: Operations\./).map { String($0.1) })
        let expected = Set(try Self.operations().map(\.id))
        #expect(
            declared == expected,
            "clients/swift is not generated from openapi.json (run clients/generate): missing \(expected.subtracting(declared).sorted()), extra \(declared.subtracting(expected).sorted())"
        )
    }
}
