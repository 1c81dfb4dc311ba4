import OfferJSON
import OfferRetentionEndpoint
import OfferRetentionEndpointTesting

extension FuzzTarget {
    /// `RealtimeAnswer(body:)`: an endpoint's answer as `offerkit retention try-endpoint` reads it. An
    /// answer is read only from at most 64 KiB of a JSON object with at most one member, that member's
    /// name is the answer's kind, and a refusal's message stays bounded.
    static func fuzzRealtimeAnswer(_ input: [UInt8]) {
        let answer: RealtimeAnswer
        do {
            answer = try RealtimeAnswer(body: input)
        } catch {
            let message = error.errorDescription ?? ""
            check(!message.isEmpty && message.count <= 2_000, "an empty or unbounded message: \(message.count)")
            return
        }
        check(input.count <= RealtimeAnswer.maximumBytes, "an answer over the limit was read")
        guard case .object(let members)? = try? JSONValue.parse(input), members.count <= 1 else {
            check(false, "an answer that is not an object of at most one member was read")
            return
        }
        check((members.first?.key ?? "default") == answer.kind, "the kind is not the answer's member")
        check(!answer.customerSees.isEmpty, "nothing said about what the customer sees")
    }
}
