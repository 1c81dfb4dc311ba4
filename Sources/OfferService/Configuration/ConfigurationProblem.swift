/// One problem of a service configuration: where it is and what is wrong. A configuration with
/// several problems reports them all at once (``ConfigurationError/invalidFields(_:)``), as
/// campaign validation does.
public struct ConfigurationProblem: Sendable, Equatable, CustomStringConvertible {
    /// The file (or `OFFERKIT_API_KEYS`) the problem is in.
    public var source: String
    /// The field's path, such as `apps["com.example.app"].keyId` or `limits.burst`; `(top level)`
    /// for the document itself.
    public var field: String
    /// What is wrong, such as `expected an integer from 1 to 1000000 (found the number 0)`.
    public var message: String

    public init(source: String, field: String, message: String) {
        self.source = source
        self.field = field
        self.message = message
    }

    /// `service.json: limits.burst: expected …`.
    public var description: String { (source.isEmpty ? "" : "\(source): ") + "\(field): \(message)" }
}

/// The problems found while reading a configuration: each check adds its own and reading goes on,
/// so that every problem is reported at once.
struct ConfigurationProblems {
    private(set) var errors: [ConfigurationError] = []

    /// Records `error`.
    mutating func add(_ error: ConfigurationError) {
        errors.append(error)
    }

    /// Records every problem of `other`.
    mutating func add(contentsOf other: ConfigurationProblems) {
        errors += other.errors
    }

    /// `body`'s value, or `nil` after recording what it threw.
    mutating func attempt<Value>(_ body: () throws(ConfigurationError) -> Value) -> Value? {
        do {
            return try body()
        } catch {
            errors.append(error)
            return nil
        }
    }

    /// Whether a problem was recorded at `field` or inside it (`apiKeys[0]` holds `apiKeys[0].sha256`).
    func touches(_ field: String) -> Bool {
        errors.flatMap(\.problems).contains { problem in
            problem.field == field || problem.field.hasPrefix(field + ".") || problem.field.hasPrefix(field + "[")
        }
    }

    /// Throws the one error recorded, or ``ConfigurationError/invalidFields(_:)`` with every
    /// problem when there are several.
    func check() throws(ConfigurationError) {
        switch errors.count {
        case 0: return
        case 1: throw errors[0]
        default: throw .invalidFields(errors.flatMap(\.problems))
        }
    }
}
