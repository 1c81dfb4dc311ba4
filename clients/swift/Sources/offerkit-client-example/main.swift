import Foundation
import OfferKitClient
import OpenAPIRuntime

let environment = ProcessInfo.processInfo.environment
let client = Client(
    serverURL: URL(string: environment["OFFERKIT_URL"] ?? "http://127.0.0.1:8080")!,
    apiKey: environment["OFFERKIT_API_KEY"])

for bundleId in ["com.example.offerkit.demo", "com.example.unknown"] {
    do {
        let answer = try await client.signPromotionalOffer(
            body: .json(
                .init(bundleId: bundleId, productId: "com.example.offerkit.monthly", offerIdentifier: "WINBACK50")))
        print(try answer.ok.body.json.jws)  // eyJhbGciOiJFUzI1NiIs…
    } catch let error as ClientError {
        guard let problem = error.problem else { throw error }
        // 404 urn:offerkit:problem:unknown-app bundle ID com.example.unknown is not configured … bundleId
        print(problem.status, problem.type, problem.detail, problem.field ?? "-")
    }
}
