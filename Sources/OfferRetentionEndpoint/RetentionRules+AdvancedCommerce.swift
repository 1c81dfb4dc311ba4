import Foundation
import OfferJSON
import OfferSigning

extension RetentionRules {
    /// The `transactionId` a rule's request holds until an answer fills in the request's
    /// `originalTransactionId`.
    static let placeholderTransactionId = "0"
    /// The `requestReferenceId` a rule's request holds until an answer fills in a fresh one.
    static let placeholderReferenceId = UUID(uuid: (0, 0, 0, 0, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0, 0))

    /// An `advancedCommerceInfo.request`: a `MODIFY_SUBSCRIPTION` in-app request (docs/formats.md §4) with
    /// exactly one `changeItems` entry and no `addItems` or `removeItems`, as Apple's
    /// `advancedCommerceData` documentation asks, without `transactionId` and
    /// `requestInfo.requestReferenceId` (each answer fills them in), checked by the signing
    /// library's decoder and Apple's limits.
    static func advancedCommerceRequest(_ json: JSONValue, path: String) throws(RetentionRulesError)
        -> AdvancedCommerce.SubscriptionModifyInAppRequest
    {
        guard case .object(var members) = json else {
            throw .invalid(path: path, expected: "a MODIFY_SUBSCRIPTION request object", found: describe(json))
        }
        if members.contains(where: { $0.key == "transactionId" }) {
            throw .invalid(
                path: "\(path).transactionId",
                expected: "no transactionId: each answer fills in the request's originalTransactionId",
                found: "one")
        }
        var requestInfo: [(key: String, value: JSONValue)] = []
        if let index = members.firstIndex(where: { $0.key == "requestInfo" }) {
            guard case .object(let info) = members[index].value else {
                throw .invalid(
                    path: "\(path).requestInfo", expected: "an object", found: describe(members[index].value))
            }
            if info.contains(where: { $0.key == "requestReferenceId" }) {
                throw .invalid(
                    path: "\(path).requestInfo.requestReferenceId",
                    expected: "no requestReferenceId: each answer makes a fresh one", found: "one")
            }
            requestInfo = info
            members.remove(at: index)
        }
        requestInfo.insert(("requestReferenceId", .string(placeholderReferenceId.lowercasedString)), at: 0)
        members.append(("requestInfo", .object(requestInfo)))
        members.append(("transactionId", .string(placeholderTransactionId)))

        let request: AdvancedCommerce.InAppRequest
        do {
            request = try AdvancedCommerce.InAppRequest.decode(json: JSONValue.object(members).serialized())
        } catch {
            let inner = error.path ?? ""
            var detail = error.errorDescription ?? "not a valid request"
            if !inner.isEmpty, detail.hasPrefix(inner + ": ") { detail.removeFirst(inner.count + 2) }
            throw .invalidRequest(path: inner.isEmpty ? path : "\(path).\(inner)", detail: detail)
        }
        guard case .modifySubscription(let modify) = request else {
            throw .invalid(
                path: "\(path).operation", expected: "\"MODIFY_SUBSCRIPTION\" (SubscriptionModifyInAppRequest)",
                found: "\"\(request.operation.rawValue)\"")
        }
        try check(modify, path: path)
        return modify
    }

    /// What Apple's `advancedCommerceData` documentation asks of the request beyond its type: a
    /// single `changeItems` entry, nothing added or removed.
    static func check(_ request: AdvancedCommerce.SubscriptionModifyInAppRequest, path: String)
        throws(RetentionRulesError)
    {
        let changes = request.changeItems?.count ?? 0
        guard changes == 1 else {
            throw .invalid(
                path: "\(path).changeItems", expected: "exactly one entry (a single SubscriptionModifyChangeItem)",
                found: changes == 0 ? "none" : "\(changes)")
        }
        guard request.addItems == nil else {
            throw .invalid(path: "\(path).addItems", expected: "no addItems, only one changeItems entry", found: "some")
        }
        guard request.removeItems == nil else {
            throw .invalid(
                path: "\(path).removeItems", expected: "no removeItems, only one changeItems entry", found: "some")
        }
    }
}
