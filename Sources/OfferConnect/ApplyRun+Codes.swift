import Foundation
import OfferCodes
import OfferConnectAPI
import OfferLedger

extension ApplyRun {
    /// The largest `values` answer read: 1,000,000 codes of up to 32 characters.
    static let valuesLimit = 40 << 20

    /// Fetches and imports the codes of every created one-time-use batch whose codes the ledger
    /// lacks. Codes App Store Connect has not produced yet are asked for again, after 1, 2, 4, …
    /// seconds, until ``valuesWait`` has passed; batches still without codes are listed in
    /// ``ApplySummary/codesPending``.
    func fetchCodes(book: ResourceBook) async throws {
        let name = campaign.name
        let day = today
        let status = try await ledger.status(campaign: name, today: day)
        for offer in campaign.offers {
            let api = OfferCodeAPI(offer.product.type)
            for (batchIndex, batch) in offer.oneTimeUseCodes.enumerated() {
                guard !stopped else { return }
                let key = ConnectResource.key(kind: .oneTimeUse, batchIndex: batchIndex)
                guard let resource = await book.recorded(offer: offer.referenceName, kind: .oneTimeUse, key: key),
                    resource.state == .created, let id = resource.id
                else { continue }
                let stored =
                    status.offers.first { $0.name == offer.referenceName }?.batches.first {
                        $0.batch.kind == .oneTimeUse && $0.batch.index == batchIndex
                    }?.storedCodes ?? 0
                guard stored == 0 else { continue }
                let label = "\(resource.label)"
                let codes: [String]?
                do {
                    codes = try await values(path: api.valuesPath(batchId: id), label: label)
                } catch let error as ConnectError {
                    stop(error)
                    return
                }
                guard let codes else {
                    counters.withLockedValue { $0.summary.codesPending.append(label) }
                    continue
                }
                guard codes.count == batch.count else {
                    counters.withLockedValue {
                        $0.summary.importProblems.append(
                            "\(label): App Store Connect gave \(codes.count) codes, the batch asked for \(batch.count); "
                                + "nothing was imported (check the batch in App Store Connect, then `offerkit codes "
                                + "import --allow-count-mismatch` with its CSV)")
                    }
                    continue
                }
                let record = LedgerBatch(
                    campaign: campaign.name, offer: offer.referenceName, kind: .oneTimeUse, index: batchIndex,
                    quarter: today.quarter, redemptionLimit: 1, codeCount: batch.count,
                    expirationDate: batch.expirationDate, environment: batch.effectiveEnvironment)
                let campaign = campaign
                let taken = try await ledger.importOneTimeUseCodes(codes, batch: record, campaign: campaign)
                if let taken {
                    counters.withLockedValue {
                        $0.summary.importProblems.append(
                            "\(label): \(taken.count) of Apple's codes are already in the ledger for app "
                                + "\(campaign.app.appAppleId); nothing was imported")
                    }
                    continue
                }
                counters.withLockedValue { $0.summary.imported.append((label, codes.count)) }
                events(.note("\(label): imported \(codes.count) one-time-use codes"))
            }
        }
    }

    /// The codes of a batch, or `nil` when App Store Connect has not produced them within
    /// ``valuesWait``. "Not ready" is a `404` or an answer without codes.
    private func values(path: String, label: String) async throws -> [String]? {
        let started = ContinuousClock.now
        var pause = Duration.seconds(1)
        while true {
            let answer = try await transport.get(path, accept: "text/csv", answerLimit: Self.valuesLimit)
            switch answer.status {
            case 200:
                let csv = AppleCodeCSV.parse(answer.body)
                guard csv.problems.isEmpty else {
                    counters.withLockedValue {
                        $0.summary.importProblems.append(
                            "\(label): App Store Connect's codes CSV has \(csv.problems.count) problem(s), the first: "
                                + "\(csv.problems[0]); nothing was imported")
                    }
                    return nil
                }
                if !csv.codes.isEmpty { return csv.codes }
            case 404, 409:
                break
            default:
                let errors = AppleErrorDetail.parse(status: answer.status, body: answer.body)
                throw ConnectError.unexpectedAnswer(
                    request: "GET \(path) (\(label))", what: errors.map(\.summary).joined(separator: "; "))
            }
            let waited = ContinuousClock.now - started
            guard waited + pause <= valuesWait else { return nil }
            events(.note("\(label): App Store Connect has not produced the codes yet; asking again in \(pause)"))
            try await Task.sleep(for: pause)
            pause = min(pause * 2, .seconds(30))
        }
    }
}
