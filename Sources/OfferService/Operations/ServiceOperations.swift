extension ServiceOperation {
    /// The service's own endpoints: health, readiness, metrics and the OpenAPI document.
    static var serviceOperations: [ServiceOperation] { [health, readiness, metrics, openAPIDocument] }
}
