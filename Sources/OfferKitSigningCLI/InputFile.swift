import Foundation
import OfferJSON
import OfferSigning

/// Reads a named file, or stdin for `-`, whole and bounded: an input larger than its limit is
/// refused (exit 4) without being read past the limit, and an I/O error (exit 5) names the path
/// and the system's reason. A path is never opened in a way that blocks (see ``InputSource``):
/// what must be a regular file (a campaign, a recipients list, Apple's code CSV) is refused
/// unopened when it is a FIFO or a device; a single artifact (a request, a JWS, a public key, a
/// certificate, an image) may also be a FIFO, `/dev/stdin` or a shell's `<(…)`.
package enum InputFile {
    /// An Advanced Commerce request (`--request`): 1 MiB, the service's default body limit.
    package static let requestLimit = 1 << 20
    /// A JWS (`verify --jws-file`) or a public key PEM: 1 MiB.
    package static let tokenLimit = 1 << 20
    /// A campaign file: 16 MiB (a campaign that lists its custom codes inline stays far below).
    package static let campaignLimit = 16 << 20
    /// A `--config` file: 1 MiB.
    package static let configLimit = 1 << 20
    /// Apple's one-time-use code CSV (`codes import --csv`) and a `--recipients` file: 256 MiB.
    package static let tableLimit = 256 << 20

    /// The bytes of `path` (stdin for `-`), at most `limit` of them.
    /// - Parameters:
    ///   - what: the input's name in the message for one that is too large, such as "a campaign file".
    ///   - accepting: what a path may name: a stream too (a single artifact, the default), or a
    ///     regular file only (a campaign, a table).
    package static func read(
        _ path: String, limit: Int, what: String, accepting: BoundedInput.Accepting = .fileOrStream
    ) throws -> [UInt8] {
        let name = path == "-" ? "stdin" : path
        do {
            return path == "-"
                ? try BoundedInput.readStandardInput(limit: limit, descriptor: CommandContext.current.standardInput)
                : try BoundedInput.read(path: path, limit: limit, accepting: accepting)
        } catch .tooLarge(let limit) {
            throw CLIError.invalidInput(
                "\(name) is larger than \(BoundedInput.describe(limit)), the most accepted for \(what); nothing past "
                    + "that was read")
        } catch {
            throw CLIError.io(path: name, reason: error.reason)
        }
    }
}
