import Foundation

/// Why a ledger locator could not be parsed. Messages quote the locator with its password
/// replaced by `***`.
public enum LedgerLocationError: Error, Equatable, Sendable, LocalizedError {
    case empty
    case missingPath(locator: String)
    case unknownScheme(scheme: String, locator: String)
    case invalidURL(locator: String, problem: String)

    public var errorDescription: String? {
        switch self {
        case .empty:
            "The ledger locator is empty; expected a file path, sqlite:PATH or postgres://USER@HOST:PORT/DATABASE."
        case .missingPath(let locator):
            "The ledger locator \(locator) names no file; expected sqlite:PATH."
        case .unknownScheme(let scheme, let locator):
            "The ledger locator \(locator) uses the scheme \"\(scheme)\"; expected a file path, sqlite:PATH, "
                + "postgres:// or postgresql://."
        case .invalidURL(let locator, let problem):
            "The ledger URL \(locator) cannot be used: \(problem); expected "
                + "postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?schema=NAME&sslmode=disable|prefer|require]."
        }
    }
}
