import Foundation
import NIOCore

/// The service could not start listening, or stopped with an error.
public enum ServiceRunnerError: Error, Sendable, Equatable, LocalizedError {
    /// The address cannot be bound (in use, not on this machine, no permission, unknown host).
    case cannotListen(host: String, port: Int, reason: String)
    /// The service stopped with an error after it was listening.
    case stopped(reason: String)

    public var errorDescription: String? {
        switch self {
        case .cannotListen(let host, let port, let reason):
            "cannot listen on \(host.contains(":") ? "[\(host)]" : host):\(port): \(reason)"
        case .stopped(let reason): "the service stopped with an error: \(reason)"
        }
    }

    /// A readable reason for a start-up error, naming the common socket errors.
    static func reason(_ error: any Error) -> String {
        if let error = error as? IOError {
            switch error.errnoCode {
            case EADDRINUSE: return "the address is already in use (another process listens there; choose another port)"
            case EADDRNOTAVAIL: return "the address is not one of this machine's"
            case EACCES: return "permission denied (ports below 1024 need privileges)"
            default: break
            }
        }
        return String(describing: error)
    }
}
