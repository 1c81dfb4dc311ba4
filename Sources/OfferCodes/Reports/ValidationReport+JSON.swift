import OfferJSON

extension ValidationReport {
    /// The most problems the JSON lists; `problemCount` has the total.
    public static let maximumListedProblems = 1000

    /// The report as JSON: what `offerkit codes validate --format json` prints and
    /// `POST /v1/campaigns/validate` answers, from this one encoder, so both have the same members:
    /// `valid`, `problems` (the first ``maximumListedProblems``, each with `path`, `rule`,
    /// `message` and `allowed` when there is one), `problemCount` (the total) and `truncated`
    /// (whether `problems` lists fewer than `problemCount`).
    package var json: JSONValue {
        .object([("valid", .bool(isValid))] + Self.problemMembers(problems))
    }

    /// `json` as text, compact (as the service answers) or `pretty` (as the CLI prints it).
    public func jsonText(pretty: Bool = false) -> String { json.text(pretty: pretty) }

    /// The members that list problems: `problems`, `problemCount` and `truncated` (also those of
    /// the service's `invalid-campaign` problem).
    package static func problemMembers(_ problems: [ValidationProblem]) -> [(key: String, value: JSONValue)] {
        [
            ("problems", .array(problems.prefix(maximumListedProblems).map { $0.jsonValue() })),
            ("problemCount", .integer(problems.count)),
            ("truncated", .bool(problems.count > maximumListedProblems)),
        ]
    }
}
