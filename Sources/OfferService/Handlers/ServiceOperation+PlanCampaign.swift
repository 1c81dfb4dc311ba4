import Foundation
import OfferCodes
import OfferJSON
import OfferServiceContract
import OfferSigning

extension ServiceOperation {
    /// `POST /v1/campaigns/plan`: the App Store Connect requests that create a campaign.
    static let planCampaign = ServiceOperation(.planCampaign, body: PlanCampaignBody.self) { body, request in
        try CampaignSchemas.authorizeApp(of: body.campaign, request)
        let today = CampaignSchemas.today(body.today, request)
        let report = try CampaignValidator(today: today).validate(json: CampaignSchemas.campaignBytes(body.campaign))
        guard report.isValid, let campaign = report.campaign else {
            throw CampaignSchemas.invalidCampaign(report.problems)
        }
        let supplied = try SuppliedCustomCodes(body.customCodes, campaign: campaign, today: today)
        var requests: [PlannedRequest] = []
        do {
            // The planner stops with CancellationError when the request times out.
            try RequestPlanner().forEachCampaignRequest(in: campaign, customCodes: supplied.codes) {
                requests.append($0)
            }
        } catch let error as RequestPlanningError {
            // A validated campaign with checked codes gets here only for a customer price, whose price
            // point the service does not look up; say what the library found.
            throw ServiceProblem(
                .invalidField, detail: error.errorDescription ?? "the campaign cannot be planned",
                field: error.isAboutSuppliedCodes ? "customCodes" : "campaign")
        }
        return OperationResponse(body: RequestPlanner.document(campaign: campaign, requests: requests))
    }
}

extension RequestPlanningError {
    /// Whether the error is about codes the caller supplied rather than the campaign.
    fileprivate var isAboutSuppliedCodes: Bool {
        if case .generatedCodeCount = self { return true }
        return false
    }
}

/// The codes a plan request supplies for the campaign's generated custom-code batches.
///
/// The service keeps no ledger, so the caller sends the codes `offerkit codes generate` recorded.
/// Each batch's codes must fit its `generate` spec; then the campaign is validated again with the
/// supplied codes in place of the specs, so that the library's custom-code rules (format, no
/// duplicate in the campaign, ignoring case) apply to them as to given codes.
struct SuppliedCustomCodes {
    /// A custom-code batch: the offer's index in the campaign and the batch's in the offer's `customCodes`.
    private struct Batch: Hashable {
        var offer: Int
        var batch: Int

        /// The batch's JSON path in the campaign.
        var path: String { "$.offers[\(offer)].customCodes[\(batch)]" }
        /// The batch's number, from 1, as requests and messages give it.
        var number: Int { batch + 1 }
    }

    private var codesByBatch: [Batch: [String]] = [:]
    /// The request field of each batch's entry, such as `customCodes[0]`.
    private var fieldsByBatch: [Batch: String] = [:]

    /// Checks the `customCodes` entries against a validated campaign.
    /// - Throws: an `invalid-field` problem naming the entry, code or batch at fault.
    init(_ entries: [PlanCampaignBody.SuppliedCodesEntry], campaign: Campaign, today: CalendarDate) throws {
        for entry in entries { try add(entry, campaign: campaign) }
        try checkEveryGeneratedBatch(campaign)
        try checkAgainstCampaign(campaign, today: today)
    }

    /// The codes of a generated batch, for ``RequestPlanner``.
    func codes(offerIndex: Int, batchIndex: Int) throws -> [String] {
        guard let codes = codesByBatch[Batch(offer: offerIndex, batch: batchIndex)] else {
            throw ServiceProblem(
                .invalidField,
                detail: "customCodes: no codes for offers[\(offerIndex)], custom-code batch \(batchIndex + 1)",
                field: "customCodes")
        }
        return codes
    }

    private mutating func add(
        _ entry: PlanCampaignBody.SuppliedCodesEntry, campaign: Campaign
    ) throws(ServiceProblem) {
        let field = entry.field
        let name = entry.offer
        guard let offerIndex = campaign.offers.firstIndex(where: { $0.referenceName == name }) else {
            let names = campaign.offers.map { "\"\($0.referenceName)\"" }.joined(separator: ", ")
            throw ServiceProblem(
                .invalidField, detail: "\(field).offer: the campaign has no offer named \"\(name)\" (it has \(names))",
                field: "\(field).offer")
        }
        let offer = campaign.offers[offerIndex]
        // Batches are numbered from 1, as on every surface of OfferKit; the index is one less.
        guard entry.batch <= offer.customCodes.count else {
            let count = offer.customCodes.count
            let has =
                count == 0
                ? "no custom-code batches"
                : count == 1 ? "one custom-code batch, 1" : "custom-code batches 1 to \(count)"
            throw ServiceProblem(
                .invalidField,
                detail:
                    "\(field).batch: offer \"\(name)\" has \(has) (its customCodes, numbered from 1), not \(entry.batch)",
                field: "\(field).batch")
        }
        let batch = Batch(offer: offerIndex, batch: Int(entry.batch) - 1)
        guard case .generated(let spec) = offer.customCodes[batch.batch].source else {
            throw ServiceProblem(
                .invalidField,
                detail:
                    "\(field).batch: offer \"\(name)\", custom-code batch \(batch.number) (customCodes[\(batch.batch)]) "
                    + "lists its codes in the campaign; supply codes only for batches with \"generate\"",
                field: "\(field).batch")
        }
        if let earlier = fieldsByBatch[batch] {
            throw ServiceProblem(
                .invalidField,
                detail: "\(field): \(earlier) already supplies the codes of offer \"\(name)\", custom-code batch "
                    + "\(batch.number); send each batch once", field: field)
        }
        let codes = entry.codes
        guard codes.count == spec.count else {
            throw ServiceProblem(
                .invalidField,
                detail:
                    "\(field).codes: \(codes.count) codes, but offer \"\(name)\", custom-code batch \(batch.number) "
                    + "generates \(spec.count) (generate.count)", field: "\(field).codes")
        }
        for (index, code) in codes.enumerated() {
            if let problem = spec.problem(with: code) {
                throw ServiceProblem(
                    .invalidField, detail: "\(field).codes[\(index)]: \(problem)", field: "\(field).codes[\(index)]")
            }
        }
        codesByBatch[batch] = codes
        fieldsByBatch[batch] = field
    }

    /// Refuses a plan while a generated batch has no codes: only the caller's ledger has them.
    private func checkEveryGeneratedBatch(_ campaign: Campaign) throws(ServiceProblem) {
        for (offerIndex, offer) in campaign.offers.enumerated() {
            for (batchIndex, batch) in offer.customCodes.enumerated() {
                guard case .generated = batch.source, codesByBatch[Batch(offer: offerIndex, batch: batchIndex)] == nil
                else { continue }
                let name = offer.referenceName
                throw ServiceProblem(
                    .invalidField,
                    detail: "customCodes: offer \"\(name)\" (offers[\(offerIndex)]), custom-code batch "
                        + "\(batchIndex + 1) (customCodes[\(batchIndex)]) generates its codes, and this service keeps no "
                        + "ledger: run `offerkit codes generate` on the campaign with your ledger, then send the "
                        + "batch's codes as {\"offer\": \"\(name)\", \"batch\": \(batchIndex + 1), \"codes\": [...]} "
                        + "(or plan with `offerkit codes plan` and the ledger)", field: "customCodes")
            }
        }
    }

    /// Validates the campaign again with the supplied codes as given codes, and reports the first
    /// problem of a supplied code (a malformed one, or one that repeats a code of the campaign).
    private func checkAgainstCampaign(_ campaign: Campaign, today: CalendarDate) throws {
        guard !codesByBatch.isEmpty else { return }
        var substituted = campaign
        var givenCodes: [String: String] = [:]  // campaign path → code, for duplicates found at a given code
        for (offerIndex, offer) in campaign.offers.enumerated() {
            for (batchIndex, batch) in offer.customCodes.enumerated() {
                let position = Batch(offer: offerIndex, batch: batchIndex)
                if let codes = codesByBatch[position] {
                    substituted.offers[offerIndex].customCodes[batchIndex].source = .given(codes)
                } else if case .given(let codes) = batch.source {
                    for (index, code) in codes.enumerated() { givenCodes["\(position.path).codes[\(index)]"] = code }
                }
            }
        }
        for problem in try CampaignValidator(today: today).validate(substituted) {
            if let match = fieldsByBatch.first(where: { problem.path.hasPrefix($0.key.path + ".codes[") }) {
                let path = match.value + problem.path.dropFirst(match.key.path.count)
                throw ServiceProblem(
                    .invalidField, detail: "\(path): \(requestPaths(in: problem.message))", field: path)
            }
            guard problem.rule == "duplicate-custom-code", let code = givenCodes[problem.path],
                let path = suppliedPath(of: code)
            else { continue }
            throw ServiceProblem(
                .invalidField,
                detail: "\(path): \(code.debugDescription) is also a code of the campaign, at \(problem.path) "
                    + "(relative to `campaign`; codes compare ignoring case); each code can exist only once",
                field: path)
        }
    }

    /// `text` with the campaign paths of supplied codes (`$.offers[1].customCodes[1].codes[3]`)
    /// written as request paths (`customCodes[0].codes[3]`).
    private func requestPaths(in text: String) -> String {
        fieldsByBatch.reduce(text) { text, entry in
            text.replacingOccurrences(of: entry.key.path + ".codes[", with: entry.value + ".codes[")
        }
    }

    /// The request path (`customCodes[0].codes[3]`) of the first supplied code equal to `code`, ignoring case.
    private func suppliedPath(of code: String) -> String? {
        let key = code.uppercased()
        for (batch, field) in fieldsByBatch.sorted(by: { ($0.key.offer, $0.key.batch) < ($1.key.offer, $1.key.batch) })
        {
            if let index = codesByBatch[batch]?.firstIndex(where: { $0.uppercased() == key }) {
                return "\(field).codes[\(index)]"
            }
        }
        return nil
    }
}
