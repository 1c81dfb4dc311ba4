/// A problem as the reader and the rules find it, with its path kept in parts (see
/// ``ProblemPath``) until the problems are put in document order.
struct CampaignFinding: Sendable {
    var path: ProblemPath
    var rule: String
    var message: String
    var allowed: String?

    init(_ path: ProblemPath, rule: String, _ message: String, allowed: String?) {
        self.path = path
        self.rule = rule
        self.message = message
        self.allowed = allowed
    }

    /// The public form, with the path as text.
    var problem: ValidationProblem {
        ValidationProblem(path: path.description, rule: rule, message: message, allowed: allowed)
    }
}
