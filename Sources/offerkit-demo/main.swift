// A small demonstration of OfferSigning on the demo key in keys-example/.
//
//   swift run offerkit-demo                       sign a promotional offer (V2 JWS and legacy)
//   swift run offerkit-demo --write-vectors PATH  regenerate the interop vectors file
//
// Signing rates are measured by Benchmarks/run.
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
