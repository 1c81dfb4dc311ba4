extension OperationContract {
    /// The Get Retention Message endpoint, at its default path: only a service with a `retention`
    /// section routes it, at the path that section gives.
    package static var retentionOperations: [OperationContract] {
        [getRetentionMessage(path: RetentionSchemas.defaultPath)]
    }
}
