import Foundation
import OfferJSON
import OfferServiceContract
import OfferSigning

/// The values one snippet is rendered with, after checking that each can go into code.
///
/// | key | value |
/// |---|---|
/// | `language`, `operation`, `operationId`, `scope` | what is rendered, such as `python`, `promotional-offer`, `signPromotionalOffer` (no `scope` for `batch`) |
/// | `method`, `path`, `baseURL`, `url` | the endpoint: `POST`, `/v1/signatures/promotional-offer`, the base URL without a trailing `/`, and both joined |
/// | `apiKeyVariable` | the environment variable that holds the API key (`OFFERKIT_API_KEY`) |
/// | `bundleId`, `productId`, `offerIdentifier` | the inputs |
/// | `transactionId` | the customer's transaction ID, or absent when none was given: a false section |
/// | `transactionIdVariable` | the environment variable a snippet reads the transaction ID from when none was given |
/// | `appAccountToken` | the app account token (lower-case), or absent: a false section |
/// | `requestReferenceId` | a fresh version 4 UUID (lower-case) for an Advanced Commerce request |
/// | `json.*`, `python.*`, `swift.*`, `shell.*` | every text value above as a JSON (also JavaScript and Java), Python, Swift or single-quoted shell string literal |
/// | `heredoc.*` | every text value above as a JSON string that an unquoted shell here-document passes on unchanged |
struct SnippetContext {
    let values: [String: Any]

    init(operation: SnippetOperation, language: SnippetLanguage, inputs: SnippetInputs) throws {
        let baseURL = try Self.checkedBaseURL(inputs.baseURL)
        try Self.checkText(inputs.productId, field: "productId")
        try Self.checkText(inputs.offerIdentifier, field: "offerIdentifier")
        if let transactionId = inputs.transactionId { try Self.checkText(transactionId, field: "transactionId") }
        do {
            try CredentialValidation.validateBundleId(inputs.bundleId)
        } catch {
            throw SnippetError.invalidInput(
                field: "bundleId", expected: "a reverse-DNS bundle ID of letters, digits, '-' and '.'")
        }
        let token = inputs.appAccountToken ?? ""
        guard token.isEmpty || CredentialValidation.isUUID(token) else {
            throw SnippetError.invalidInput(
                field: "appAccountToken", expected: "a UUID, such as 7e3fb20b-4cdb-47cc-936d-99d65f608138")
        }
        let variable = Array(inputs.apiKeyVariable.utf8)
        guard let first = variable.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first),
            variable.allSatisfy({ $0.isASCIIAlphanumeric || $0 == UInt8(ascii: "_") })
        else {
            throw SnippetError.invalidInput(
                field: "apiKeyVariable", expected: "an environment variable name of letters, digits and '_'")
        }
        let service = operation.serviceOperation
        var text: [String: String] = [
            "language": language.id,
            "operation": operation.rawValue,
            "operationId": service.id,
            "method": service.method.rawValue,
            "path": service.path,
            "baseURL": baseURL,
            "url": baseURL + service.path,
            "apiKeyVariable": inputs.apiKeyVariable,
            "bundleId": inputs.bundleId,
            "productId": inputs.productId,
            "offerIdentifier": inputs.offerIdentifier,
            "transactionIdVariable": SnippetInputs.transactionIdVariable,
            "requestReferenceId": UUID().uuidString.lowercased(),
        ]
        // A batch has no scope of its own: each item needs its type's.
        if let scope = service.scope { text["scope"] = scope.rawValue }
        // Absent optional values are left out: Mustache renders a section of an empty string.
        if !token.isEmpty { text["appAccountToken"] = token.lowercased() }
        if let transactionId = inputs.transactionId { text["transactionId"] = transactionId }
        var values: [String: Any] = text
        values["json"] = text.mapValues(SnippetLiteral.json)
        values["python"] = text.mapValues(SnippetLiteral.python)
        values["swift"] = text.mapValues(SnippetLiteral.swift)
        values["shell"] = text.mapValues(SnippetLiteral.shell)
        values["heredoc"] = text.mapValues(SnippetLiteral.heredoc)
        self.values = values
    }

    /// `http` or `https` with a host, an optional port and path, no credentials, query or
    /// fragment, and only the characters RFC 3986 allows there (so that no language's URL parser,
    /// and not curl's globbing, reads it differently); returned without a trailing `/`.
    static func checkedBaseURL(_ text: String) throws -> String {
        let expected =
            "an http or https URL such as https://offers.internal.example.com, without query or fragment, "
            + "in the characters RFC 3986 allows (percent-encode others)"
        guard let separator = text.range(of: "://"),
            Self.isRFC3986(text[separator.upperBound...]),
            let components = URLComponents(string: text),
            let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = components.host, !host.isEmpty,
            components.user == nil, components.password == nil, components.query == nil, components.fragment == nil
        else { throw SnippetError.invalidInput(field: "baseURL", expected: expected) }
        var trimmed = text
        while trimmed.hasSuffix("/") { trimmed.removeLast() }
        return trimmed
    }

    /// Whether `rest` (what follows `scheme://`) is an authority (`[` and `]` allowed, for an IPv6
    /// host) and a path of unreserved characters, sub-delimiters, `:`, `@`, `/` and `%HH`.
    private static func isRFC3986(_ rest: Substring) -> Bool {
        let bytes = Array(rest.utf8)
        let pathStart = bytes.firstIndex(of: UInt8(ascii: "/")) ?? bytes.count
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.count, bytes[index + 1].isHexDigit, bytes[index + 2].isHexDigit else {
                    return false
                }
                index += 3
                continue
            }
            let bracket = byte == UInt8(ascii: "[") || byte == UInt8(ascii: "]")
            guard byte.isASCIIAlphanumeric || Self.allowedPunctuation.contains(byte) || (bracket && index < pathStart)
            else { return false }
            index += 1
        }
        return true
    }

    /// Unreserved `-._~`, sub-delimiters `!$&'()*+,;=`, and `:@/`.
    private static let allowedPunctuation = Set("-._~!$&'()*+,;=:@/".utf8)

    /// Not empty, at most 256 Unicode scalars, no control characters (a line break would end a
    /// string literal in most languages).
    static func checkText(_ value: String, field: String) throws {
        guard !value.isEmpty, value.unicodeScalars.count <= 256,
            !value.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
        else {
            throw SnippetError.invalidInput(
                field: field, expected: "1 to 256 characters (Unicode scalars), none of them a control character")
        }
    }
}
