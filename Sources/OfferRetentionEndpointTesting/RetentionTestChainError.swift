import Foundation

/// Why a test chain could not be written to or read from its folder.
public enum RetentionTestChainError: Error, LocalizedError, Equatable, Sendable {
    /// A file of the chain is already there (and overwriting was not asked for).
    case fileExists(path: String)
    /// A file could not be read or written.
    case io(path: String, reason: String)
    /// A file is not what the chain keeps in it.
    case unreadable(path: String, expected: String)
    /// The leaf certificate is not the private key's.
    case keyDoesNotMatchLeaf

    public var errorDescription: String? {
        switch self {
        case .fileExists(let path): "\(path) already exists; give another folder, or overwrite to replace the chain"
        case .io(let path, let reason): "\(path): \(reason)"
        case .unreadable(let path, let expected): "\(path): expected \(expected)"
        case .keyDoesNotMatchLeaf:
            "the leaf certificate (leaf.pem) is not the private key's (leaf-key.pem): make the chain again"
        }
    }
}
