extension OperationContract {
    /// `POST <retention.path>`: Apple's call while a customer looks at cancelling a subscription;
    /// answered by the service's `RetentionEndpoint`.
    package static func getRetentionMessage(path: String) -> OperationContract {
        var operation = OperationContract(
            id: "getRetentionMessage", method: .post, path: path, tag: "Retention Messaging",
            summary: "Get Retention Message (called by the App Store)",
            description: """
                The App Store calls this endpoint (the URL registered with `PUT /inApps/v1/messaging/realtime/url` of \
                the App Store Server API) while a customer looks at cancelling a subscription, with a \
                `RealtimeRequestBody`: `signedPayload`, a `DecodedRealtimeRequestBody` the App Store signed. Needs no \
                API key: Apple's signature is the authentication. The service verifies the payload (the `x5c` chain \
                to Apple Root CA - G3 or the configured roots, Apple's certificate extensions, validity at \
                `signedDate`, the ES256 signature), names the app by its `appAppleId`, accepts only the configured \
                environments and a `signedDate` at most `maxRequestAgeSeconds` old (60 s ahead at most), then \
                answers a `RealtimeResponseBody` with exactly one of `message`, `alternateProduct`, \
                `promotionalOffer` or `advancedCommerceInfo` as the app's rules decide, the offer signed for this \
                customer now (V2 with `transactionId` = `originalTransactionId`), or `{}` when nothing is chosen, \
                so that Apple shows the default message. The same request again (same `requestIdentifier`, same \
                payload) gets the same bytes. Anything that does not verify, is for another app or environment, \
                or is stale is `401 unverified-request`, which says nothing about why. The body is read whatever \
                its `Content-Type` (Apple's documentation does not state one), at most 65536 bytes. Only a service \
                configured with `retention` has this operation (`x-offerkit-requires-retention: true`), at the \
                configured `retention.path`.
                """,
            scope: nil, requestSchema: RetentionSchemas.requestBody, responseSchema: RetentionSchemas.responseBody,
            problems: [.unverifiedRequest]
        )
        operation.requiresRetention = true
        operation.rawBodyLimit = RetentionSchemas.maximumRequestBytes
        return operation
    }
}
