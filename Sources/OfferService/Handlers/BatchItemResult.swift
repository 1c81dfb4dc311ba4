import OfferJSON
import OfferServiceContract
import OfferSigning

/// The result of one batch item.
struct BatchItemResult: Sendable {
    /// The item's type, when it named a known one.
    let type: SigningOperation?
    /// The item's `id`, when it gave a valid one.
    let id: JSONValue?
    let outcome: Outcome

    enum Outcome: Sendable {
        /// Signed: the status and members its operation answered.
        case signed(status: Int, fields: [(key: String, value: JSONValue)])
        /// Refused, with the problem its operation would have answered.
        case failed(ServiceProblem)
    }

    /// The result object: `index`, `type`, `id` and `status`, then the operation's members or `problem`.
    func json(index: Int, requestId: String) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [("index", .integer(index))]
        if let type { members.append(("type", .string(type.rawValue))) }
        if let id { members.append(("id", id)) }
        switch outcome {
        case .signed(let status, let fields):
            members.append(("status", .integer(status)))
            members += fields
        case .failed(let problem):
            members.append(("status", .integer(problem.type.status)))
            members.append(("problem", problem.jsonValue(requestId: requestId)))
        }
        return .object(members)
    }
}
