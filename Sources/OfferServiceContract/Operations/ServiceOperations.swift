extension OperationContract {
    /// The service's own endpoints: health, readiness, metrics and the OpenAPI document.
    package static var serviceOperations: [OperationContract] { [health, readiness, metrics, openAPIDocument] }
}
