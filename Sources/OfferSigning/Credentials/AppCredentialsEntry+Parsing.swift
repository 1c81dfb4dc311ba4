import OfferJSON

extension AppCredentialsEntry {
    /// Parses JSON text mapping bundle IDs to entries, in the order they are written.
    /// - Throws: ``AppCredentialsError/notJSON(detail:)`` for text that is not JSON (a duplicate
    ///   member name included), or what ``parse(_:)-(JSONValue)`` throws.
    package static func parse(_ bytes: [UInt8]) throws(AppCredentialsError) -> [AppCredentialsEntry] {
        let json: JSONValue
        do {
            json = try JSONValue.parse(bytes)
        } catch {
            throw .notJSON(detail: error.message)
        }
        return try parse(json)
    }

    /// Reads an object mapping bundle IDs to entries, in the order they are written. Members may
    /// be missing (``missingMembers``); those present must pass their rule: strings, and
    /// `appAppleId` an integer.
    /// - Throws: ``AppCredentialsError`` naming the first field at fault.
    package static func parse(_ json: JSONValue) throws(AppCredentialsError) -> [AppCredentialsEntry] {
        let (entries, problems) = read(json)
        if let first = problems.first { throw first }
        return entries
    }

    /// Reads an object mapping bundle IDs to entries, as ``parse(_:)-(JSONValue)`` does, but goes on
    /// past a problem: the entries whose every member passed its rule, and every problem found, in
    /// the order they are written.
    package static func read(_ json: JSONValue) -> (entries: [AppCredentialsEntry], problems: [AppCredentialsError]) {
        guard case .object(let apps) = json else { return ([], [.notAnObject(found: json.shortDescription)]) }
        var entries: [AppCredentialsEntry] = []
        var problems: [AppCredentialsError] = []
        entries.reserveCapacity(apps.count)
        for (bundleId, value) in apps {
            guard CredentialValidation.isBundleId(bundleId) else {
                problems.append(.invalidBundleId(bundleId))
                continue
            }
            guard case .object(let members) = value else {
                problems.append(.entryNotAnObject(bundleId: bundleId, found: value.shortDescription))
                continue
            }
            var entry = AppCredentialsEntry(bundleId: bundleId)
            let before = problems.count
            for (name, member) in members {
                do {
                    try entry.read(name, member)
                } catch {
                    problems.append(error)
                }
            }
            if problems.count == before { entries.append(entry) }
        }
        return (entries, problems)
    }

    /// Reads the member `name` into this entry.
    /// - Throws: ``AppCredentialsError/invalidMember(bundleId:member:expected:found:)`` for an
    ///   unknown member or a value that breaks its rule.
    private mutating func read(_ name: String, _ member: JSONValue) throws(AppCredentialsError) {
        guard Self.members.contains(name) else {
            throw .invalidMember(
                bundleId: bundleId, member: name, expected: "one of \(Self.members.joined(separator: ", "))",
                found: "an unknown member")
        }
        if name == "appAppleId" {
            guard let id = member.exactInteger, (1...Self.maximumAppAppleId).contains(id) else {
                throw .invalidMember(
                    bundleId: bundleId, member: name,
                    expected: "the app's App Apple ID, an integer from 1 to 2^53 (e.g. 1234567890)",
                    found: member.shortDescription)
            }
            appAppleId = id
            return
        }
        guard case .string(let text) = member else {
            throw .invalidMember(bundleId: bundleId, member: name, expected: "a string", found: member.typeName)
        }
        switch name {
        case "keyFile":
            guard !text.isEmpty, Check.isPlainText(text.utf8) else {
                throw .invalidMember(
                    bundleId: bundleId, member: name, expected: "a file path without control characters",
                    found: AppCredentialsError.describe(text))
            }
            keyFile = text
        case "keyId":
            guard CredentialValidation.isKeyId(text) else {
                throw .invalidMember(
                    bundleId: bundleId, member: name,
                    expected: "10 upper-case letters or digits, as shown in App Store Connect (e.g. 2X9R4HXF34)",
                    found: AppCredentialsError.describe(text))
            }
            keyId = text
        default:
            guard CredentialValidation.isUUID(text) else {
                throw .invalidMember(
                    bundleId: bundleId, member: name, expected: "a UUID such as 57246542-96fe-1a63-e053-0824d011072a",
                    found: AppCredentialsError.describe(text))
            }
            issuerId = text
        }
    }
}
