import OfferSigning

extension ServiceProblem {
    /// A key without the scope an operation (or a batch item) needs: 403 `forbidden`.
    static func missingScope(key: APIKey, scope: OperationScope) -> ServiceProblem {
        missingScope(keyName: key.name, scope: scope)
    }

    /// A key (or, without authentication, the service) whose rate limit is used up: 429
    /// `rate-limited` with `Retry-After: wait`. `items` is the size of a batch, which takes one
    /// token per item; `nil` for a single request.
    static func rateLimited(name: String, limiter: RateLimiter, wait: Int, items: Int? = nil) -> ServiceProblem {
        let batch = items.map { "; a batch of \($0) items takes \($0) tokens" } ?? ""
        return ServiceProblem(
            .rateLimited,
            detail: "API key '\(name)' used up its rate limit (\(formatted(limiter.requestsPerSecond)) requests "
                + "per second, bursts of \(formatted(limiter.burst)))\(batch); retry in \(wait) s",
            headers: [("Retry-After", String(wait))])
    }

    /// A whole number without a fraction (`50`), any other as Swift prints it (`0.5`).
    static func formatted(_ number: Double) -> String {
        number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : String(number)
    }
}
