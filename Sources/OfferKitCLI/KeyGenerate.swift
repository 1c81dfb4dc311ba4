import ArgumentParser
import Foundation
import OfferKitSigningCLI
import OfferSigning

struct KeyGenerate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Generate a P-256 key pair for local testing (Apple accepts only keys it issued).",
        discussion: "Writes <out>/SubscriptionKey_<ID>.p8 (mode 0600) and <out>/SubscriptionKey_<ID>.pub.pem.")

    @Option(help: "The folder to write the key pair to (created if missing).")
    var out: String

    @Option(
        name: .customLong("key-id"),
        help: "The key ID to name it by (10 upper-case letters or digits). Default: random.")
    var keyId: String?

    @Flag(help: "Replace existing files.")
    var force = false

    func run() throws {
        let keyId = self.keyId ?? Self.randomKeyId()
        let key = try SigningKey.generate(keyId: keyId)
        do {
            try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        } catch {
            throw CLIError.io(path: out, reason: "cannot create the folder")
        }
        let privatePath = "\(out)/SubscriptionKey_\(keyId).p8"
        let publicPath = "\(out)/SubscriptionKey_\(keyId).pub.pem"
        if !force {
            for path in [privatePath, publicPath] where FileManager.default.fileExists(atPath: path) {
                throw CLIError.io(path: path, reason: "already exists (use --force to replace it)")
            }
        }
        try AtomicFile.write(
            Data(key.privateKeyPKCS8PEM.utf8 + [0x0A]), to: privatePath, permissions: 0o600, overwrite: force)
        try AtomicFile.write(Data(key.publicKeyPEM.utf8 + [0x0A]), to: publicPath, permissions: 0o644, overwrite: force)
        Output.line("key ID:      \(keyId)")
        Output.line("private key: \(privatePath)  (mode 0600; for local testing only)")
        Output.line("public key:  \(publicPath)")
    }

    static func randomKeyId() -> String {
        let alphabet = Array("ABCDEFGHJKLMNPQRSTUVWXYZ23456789")
        var generator = SystemRandom()
        return String((0..<10).map { _ in alphabet[Int(generator.next(upperBound: UInt32(alphabet.count)))] })
    }
}
