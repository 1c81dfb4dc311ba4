import OfferJSON

/// The App Store environment a signed payload names in its `environment` field, with Apple's spelling.
public enum AppleEnvironment: String, Sendable, CaseIterable, Codable, EnumeratedValue {
    /// The sandbox: TestFlight and sandbox accounts.
    case sandbox = "Sandbox"
    /// The production App Store.
    case production = "Production"
    /// StoreKit Testing in Xcode.
    case xcode = "Xcode"
    /// Local testing, such as App Store Server notifications sent by a test tool.
    case localTesting = "LocalTesting"
}
