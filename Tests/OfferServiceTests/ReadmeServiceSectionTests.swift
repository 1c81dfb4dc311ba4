import Foundation
import OfferService
import Testing

/// The service's guide, docs/service.md, names every operation, scope and problem type the service has.
@Suite("docs/service.md: the service's guide stays true")
struct ReadmeServiceSectionTests {
    static let readme: String = {
        let url = ServiceFixtures.packageRoot.appendingPathComponent("docs/service.md")
        return (try? String(contentsOf: url, encoding: .utf8)) ?? ""
    }()

    @Test("every problem type is in the guide's table with its status")
    func problemTypes() {
        for type in ProblemType.all {
            #expect(Self.readme.contains("| \(type.status) | `\(type.slug)` |"), "docs/service.md lacks \(type.slug)")
        }
    }

    @Test("every API key scope is listed")
    func scopes() {
        for scope in OperationScope.allCases {
            #expect(Self.readme.contains("`\(scope.rawValue)`"), "docs/service.md lacks scope \(scope.rawValue)")
        }
    }

    @Test("every operation's path appears")
    func paths() {
        for operation in OfferService.operations {
            #expect(
                Self.readme.contains(operation.path),
                "docs/service.md lacks \(operation.method.rawValue) \(operation.path)")
        }
    }
}
