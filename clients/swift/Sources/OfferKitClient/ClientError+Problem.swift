import OpenAPIRuntime

extension ClientError {
    /// The problem the service answered, when that is what failed (thrown by ``ProblemMiddleware``).
    public var problem: OfferKitProblem? { underlyingError as? OfferKitProblem }
}
