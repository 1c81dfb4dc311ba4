import OfferJSON

/// Reads a campaign file (JSON in the campaign format) into a ``Campaign``.
///
/// Reading is lenient: it does not stop at the first problem but reports every shape problem of
/// the file at once (not JSON, a wrong type, a missing or unknown member, a value outside its
/// list, a date that is not one), each with its JSON path. Relative dates (`P90D`, `P6M`) are
/// resolved against `today`.
///
/// Reading checks only the shape. ``CampaignValidator`` reads and also checks the rules (payment
/// modes, expiry dates, limits, duplicates), which is what a tool normally wants.
public struct CampaignReader: Sendable {
    /// The day relative dates count from (UTC).
    public let today: CalendarDate

    /// A reader that resolves relative dates against `today`.
    public init(today: CalendarDate) {
        self.today = today
    }

    /// The campaign in `json`.
    ///
    /// - Throws: ``CampaignProblems`` with every shape problem, in document order. The campaign's
    ///   rules are not checked; use ``CampaignValidator/validate(json:)`` for that.
    public func read(json: [UInt8]) throws(CampaignProblems) -> Campaign {
        let draft = readDraft(json: json)
        guard let campaign = draft.campaign else {
            throw CampaignProblems(DocumentOrder.sorted(draft.findings, document: draft.document))
        }
        return campaign
    }

    /// Everything that could be read, with the shape problems (not yet in document order).
    ///
    /// With `stopsWhenCancelled`, reading stops before the next offer once the current task is
    /// cancelled, and the draft says so (``CampaignDraft/wasCancelled``).
    func readDraft(json: [UInt8], stopsWhenCancelled: Bool = false) -> CampaignDraft {
        var bytes = json
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        let document: JSONValue
        do {
            document = try JSONValue.parse(bytes)
        } catch {
            var draft = CampaignDraft()
            draft.findings = [Self.syntaxProblem(error, in: bytes)]
            return draft
        }
        var reader = ShapeReader(today: today)
        reader.stopsWhenCancelled = stopsWhenCancelled
        return reader.readCampaign(document)
    }

    private static func syntaxProblem(_ error: JSONValue.ParseError, in bytes: [UInt8]) -> CampaignFinding {
        let allowed = "a JSON object with the members " + ShapeReader.campaignMembers.joined(separator: ", ")
        guard bytes.contains(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) else {
            return CampaignFinding(
                .root, rule: "not-json", "the file is empty; write the campaign in it", allowed: allowed)
        }
        let location = JSONSyntaxLocation(of: error, in: bytes)
        return CampaignFinding(
            .root, rule: "not-json",
            "the file is not valid JSON: \(location.reason) at line \(location.line), column \(location.column); "
                + "fix the syntax there", allowed: allowed)
    }
}
