extension ServiceOperation {
    /// The Get Retention Message endpoint, at its default path: only a service with a `retention`
    /// section routes it, at the path that section gives.
    static var retentionOperations: [ServiceOperation] {
        [getRetentionMessage(path: RetentionConfiguration.defaultPath)]
    }
}
