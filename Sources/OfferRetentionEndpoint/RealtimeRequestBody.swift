import OfferJSON

/// The body the App Store posts to the Get Retention Message endpoint (Apple's
/// `RealtimeRequestBody`): `{"signedPayload": "<compact JWS>"}`, read strictly.
public enum RealtimeRequestBody {
    /// The largest body read: 64 KiB. Apple's requests are about 4 KB.
    public static let maximumBytes = 64 * 1024

    /// The `signedPayload` of `body`, or `nil` unless `body` is at most ``maximumBytes`` of JSON
    /// that is an object with the one member `signedPayload`, a string (no other member, no
    /// duplicate).
    public static func signedPayload(in body: [UInt8]) -> String? {
        guard body.count <= maximumBytes, let json = try? JSONValue.parse(body),
            case .object(let members) = json, members.count == 1, members[0].key == "signedPayload",
            case .string(let payload) = members[0].value
        else { return nil }
        return payload
    }
}
