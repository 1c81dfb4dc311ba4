import Foundation
import OfferService
import Testing

/// The README's service section names every operation, scope and problem type the service has.
@Suite("README: the service section stays true")
struct ReadmeServiceSectionTests {
    static let readme: String = {
        let url = ServiceFixtures.packageRoot.appendingPathComponent("README.md")
        return (try? String(contentsOf: url, encoding: .utf8)) ?? ""
    }()

    @Test("every problem type is in the README's table with its status")
    func problemTypes() {
        for type in ProblemType.all {
            #expect(Self.readme.contains("| \(type.status) | `\(type.slug)` |"), "README lacks \(type.slug)")
        }
    }

    @Test("every API key scope is listed")
    func scopes() {
        for scope in OperationScope.allCases {
            #expect(Self.readme.contains("`\(scope.rawValue)`"), "README lacks scope \(scope.rawValue)")
        }
    }

    @Test("every operation's path appears")
    func paths() {
        for operation in OfferService.operations {
            #expect(Self.readme.contains(operation.path), "README lacks \(operation.method.rawValue) \(operation.path)")
        }
    }
}
