import Foundation
import OfferRetentionAPI

extension FuzzTarget {
    /// What `offerkit retention` reads from outside, all from the same bytes: Apple's answers (lists,
    /// default message, realtime URL, performance test and its result; every text bounded and free of
    /// control characters), an error body (its summary bounded), `Retry-After` (never negative), a PNG
    /// (a parsed one has its size and its byte count), and a message body file (a valid one round-trips
    /// through the JSON OfferKit sends).
    static func fuzzRetentionAPI(_ input: [UInt8]) {
        func checkText(_ text: String?, _ maximum: Int, _ what: String) {
            guard let text else { return }
            check(text.unicodeScalars.count <= maximum, "\(what) is not bounded")
            check(!text.unicodeScalars.contains { $0.properties.generalCategory == .control }, "\(what) has a control")
        }
        if let list = try? GetMessageListResponse.parse(input) {
            for item in list.messageIdentifiers {
                checkText(item.messageIdentifier, 64, "messageIdentifier")
                checkText(item.messageState, 64, "messageState")
            }
        }
        if let list = try? GetImageListResponse.parse(input) {
            for item in list.imageIdentifiers {
                checkText(item.imageIdentifier, 64, "imageIdentifier")
                checkText(item.imageSize, 64, "imageSize")
            }
        }
        checkText((try? DefaultConfigurationResponse.parse(input))?.messageIdentifier, 64, "messageIdentifier")
        checkText((try? RealtimeUrlResponse.parse(input))?.realtimeURL, 2048, "realtimeURL")
        if let started = try? PerformanceTestResponse.parse(input) {
            check(started.config.totalRequests >= 0 && started.config.maxConcurrentRequests >= 0, "a negative count")
            checkText(started.requestId, 64, "requestId")
        }
        if let result = try? PerformanceTestResultResponse.parse(input) {
            checkText(result.target, 2048, "target")
            check(result.failures.count <= 1_000, "too many failure reasons")
            for failure in result.failures { checkText(failure.reason, 128, "a failure reason") }
            _ = result.json.serialized()
        }
        if let error = RetentionErrorBody.parse(input) {
            checkText(error.errorMessage, 501, "errorMessage")
            check(!error.summary.isEmpty, "an empty summary")
        }
        if let delay = ServerAPIRetryAfter.delay(String(decoding: input, as: UTF8.self)) {
            check(delay >= .zero, "a negative Retry-After was taken")
        }
        if let png = try? PNGImage(bytes: input, field: "input") {
            check(png.width >= 1 && png.height >= 1 && png.byteCount == input.count, "a PNG without its size")
            for size in ImageSize.allCases { _ = try? png.check(for: size, field: "input") }
        }
        if let body = try? UploadMessageRequestBody.read(json: input), let valid = try? body.validated() {
            check(valid.header.unicodeScalars.count <= UploadMessageRequestBody.maximumHeaderLength, "a long header")
            check((valid.bulletPoints?.count ?? 0) <= UploadMessageRequestBody.maximumBulletPoints, "too many bullets")
            let again = try? UploadMessageRequestBody.read(json: valid.jsonBytes())
            check(again == valid, "a valid message body does not read back from the JSON OfferKit sends")
        }
    }
}
