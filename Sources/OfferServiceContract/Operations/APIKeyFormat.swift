/// How an API key of the service looks to its clients: `offerkit_` and 43 base64url characters.
package enum APIKeyFormat {
    /// What every secret begins with (the service's `APIKey.secretPrefix`).
    package static let secretPrefix = "offerkit_"
}
