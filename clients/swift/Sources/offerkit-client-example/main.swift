import Foundation
import OfferKitClient
import OpenAPIRuntime

let environment = ProcessInfo.processInfo.environment
let client = Client(
    serverURL: URL(string: environment["OFFERKIT_URL"] ?? "http://127.0.0.1:8080")!,
    apiKey: environment["OFFERKIT_API_KEY"])
do {
    let answer = try await client.signPromotionalOffer(
        body: .json(
            .init(
                bundleId: "com.example.offerkit.demo", productId: "com.example.offerkit.monthly",
                offerIdentifier: "WINBACK50")))
    print(try answer.ok.body.json.jws)
} catch let error as ClientError {
    guard let problem = error.problem else { throw error }
    print(problem.status, problem.type, problem.detail, problem.field ?? "-")
    exit(1)
}
