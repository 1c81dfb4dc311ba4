// A small demonstration of OfferSigning on the demo key in keys-example/.
//
//   swift run offerkit-demo                       sign a promotional offer (V2 JWS and legacy)
//   swift run offerkit-demo --write-vectors PATH  regenerate the interop vectors file
//   swift run -c release offerkit-demo --measure  signatures per second next to raw P-256 signing
import Crypto
import Foundation
import OfferSigning

let root = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
let keyPath = root.appendingPathComponent("keys-example/SubscriptionKey_DEMOKEY123.p8").path

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("offerkit-demo: \(message)\n".utf8))
    exit(1)
}

do {
    FileHandle.standardError.write(
        Data("offerkit-demo: warning: signing with the DEMO key in keys-example/; Apple will reject it\n".utf8))
    let key = try SigningKey(contentsOfFile: keyPath, keyID: "DEMOKEY123")
    let signer = try OfferSigner(
        key: key, issuerID: "98802e6e-bab8-4f06-8c88-a2582cda3c9c", bundleID: "com.example.offerkit.demo")
    let arguments = CommandLine.arguments.dropFirst()
    if arguments.first == "--write-vectors" {
        guard let path = arguments.dropFirst().first else { fail("--write-vectors needs a path") }
        let data = try InteropVectorBuilder(signer: signer).standardVectorsJSON()
        try data.write(to: URL(fileURLWithPath: path), options: .atomic)
        print("wrote \(InteropVectorBuilder.standardCases.count) vectors to \(path)")
    } else if arguments.first == "--measure" {
        measure(signer: signer)
    } else {
        let jws = try signer.sign(
            PromotionalOfferRequest(productId: "com.example.offerkit.monthly", offerIdentifier: "WINBACK50"))
        print("promotional offer (V2 compact JWS):\n\(jws)\n")
        let legacy = try signer.sign(
            LegacyPromotionalOfferRequest(productId: "com.example.offerkit.monthly", offerIdentifier: "WINBACK50"))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        print("promotional offer (legacy signature, promotionalOfferSignatureV1):")
        print(String(decoding: try encoder.encode(legacy), as: UTF8.self))
    }
} catch {
    fail(error.localizedDescription)
}

/// Operations per second over about one second, best of three runs.
func rate(_ body: () throws -> Void) rethrows -> Double {
    var best = 0.0
    for _ in 0..<3 {
        let start = DispatchTime.now().uptimeNanoseconds
        var count = 0
        var elapsed: UInt64 = 0
        repeat {
            for _ in 0..<500 { try body() }
            count += 500
            elapsed = DispatchTime.now().uptimeNanoseconds - start
        } while elapsed < 1_000_000_000
        best = max(best, Double(count) / (Double(elapsed) / 1e9))
    }
    return best
}

func measure(signer: OfferSigner) {
    let raw = P256.Signing.PrivateKey()
    let message = Array(repeating: UInt8(ascii: "a"), count: 300)
    let rawRate = rate { _ = try! raw.signature(for: message).rawRepresentation }
    let promotional = PromotionalOfferRequest(productId: "com.example.offerkit.monthly", offerIdentifier: "WINBACK50")
    let v2Rate = rate { _ = try! signer.sign(promotional) }
    let legacy = LegacyPromotionalOfferRequest(productId: "com.example.offerkit.monthly", offerIdentifier: "WINBACK50")
    let legacyRate = rate { _ = try! signer.sign(legacy) }
    func row(_ name: String, _ value: Double) -> String {
        name.padding(toLength: 34, withPad: " ", startingAt: 0)
            + String(format: "%9.0f/s  %.2f× raw", value, value / rawRate)
    }
    print(row("raw P-256 sign (swift-crypto)", rawRate))
    print(row("promotional offer V2 JWS", v2Rate))
    print(row("legacy promotional offer signature", legacyRate))
}
