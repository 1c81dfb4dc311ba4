/// The error codes the Retention Messaging API answers with, by the names and meanings of Apple's
/// documentation (Retention Messaging, "Error codes"; the numbers are those of Apple's App Store
/// Server Library 3.1.2, and the HTTP status is the code's first three digits). The
/// `BadRequestTransactionId…` errors of the Retention Messaging documentation are the App Store
/// Server API's transaction identifier errors listed here under those names.
public enum RetentionErrorCode: Int64, Sendable, CaseIterable {
    case generalBadRequest = 4_000_000
    case invalidTransactionId = 4_000_006
    case invalidProductId = 4_000_023
    case appTransactionIdNotSupported = 4_000_048
    case invalidImage = 4_000_161
    case headerTooLong = 4_000_162
    case bodyTooLong = 4_000_163
    case invalidLocale = 4_000_164
    case altTextTooLong = 4_000_175
    case familyTransactionNotSupported = 4_000_185
    case transactionIdIsNotOriginalTransactionId = 4_000_187
    case invalidPerformanceTestRequest = 4_000_211
    case invalidRequestId = 4_000_212
    case existingPerformanceTestRun = 4_000_213
    case badRequestRealtimeUrl = 4_000_215
    case badRequestImageSize = 4_000_216
    case badRequestTooManyBulletPoints = 4_000_218
    case badRequestBulletPointTextTooLong = 4_000_219
    case badRequestAboveImageRequiresAnImage = 4_000_224
    case maximumNumberOfImagesReached = 4_030_014
    case maximumNumberOfMessagesReached = 4_030_016
    case messageNotApproved = 4_030_017
    case imageNotApproved = 4_030_018
    case imageInUse = 4_030_019
    case forbiddenNoPassingTest = 4_030_026
    case imageNotFound = 4_040_014
    case messageNotFound = 4_040_015
    case performanceTestRunNotFound = 4_040_018
    case defaultMessageNotFound = 4_040_020
    case realtimeUrlNotFound = 4_040_021
    case imageAlreadyExists = 4_090_000
    case messageAlreadyExists = 4_090_001
    case rateLimitExceeded = 4_290_000
    case generalInternal = 5_000_000
    case generalInternalRetryable = 5_000_001

    /// The HTTP status Apple answers this code with.
    public var status: Int { Int(rawValue / 10_000) }

    /// Apple's name of the error object.
    public var name: String {
        switch self {
        case .generalBadRequest: "GeneralBadRequestError"
        case .invalidTransactionId: "InvalidTransactionIdError"
        case .invalidProductId: "InvalidProductIdError"
        case .appTransactionIdNotSupported: "AppTransactionIdNotSupportedError"
        case .invalidImage: "InvalidImageError"
        case .headerTooLong: "HeaderTooLongError"
        case .bodyTooLong: "BodyTooLongError"
        case .invalidLocale: "InvalidLocaleError"
        case .altTextTooLong: "AltTextTooLongError"
        case .familyTransactionNotSupported: "FamilyTransactionNotSupportedError"
        case .transactionIdIsNotOriginalTransactionId: "TransactionIdIsNotOriginalTransactionIdError"
        case .invalidPerformanceTestRequest: "InvalidPerformanceTestRequestError"
        case .invalidRequestId: "InvalidRequestIdError"
        case .existingPerformanceTestRun: "ExistingPerformanceTestRunError"
        case .badRequestRealtimeUrl: "BadRequestRealtimeUrlError"
        case .badRequestImageSize: "BadRequestImageSizeError"
        case .badRequestTooManyBulletPoints: "BadRequestTooManyBulletPointsError"
        case .badRequestBulletPointTextTooLong: "BadRequestBulletPointTextTooLongError"
        case .badRequestAboveImageRequiresAnImage: "BadRequestAboveImageRequiresAnImageError"
        case .maximumNumberOfImagesReached: "MaximumNumberOfImagesReachedError"
        case .maximumNumberOfMessagesReached: "MaximumNumberOfMessagesReachedError"
        case .messageNotApproved: "MessageNotApprovedError"
        case .imageNotApproved: "ImageNotApprovedError"
        case .imageInUse: "ImageInUseError"
        case .forbiddenNoPassingTest: "ForbiddenNoPassingTestError"
        case .imageNotFound: "ImageNotFoundError"
        case .messageNotFound: "MessageNotFoundError"
        case .performanceTestRunNotFound: "PerformanceTestRunNotFoundError"
        case .defaultMessageNotFound: "DefaultMessageNotFoundError"
        case .realtimeUrlNotFound: "RealtimeUrlNotFoundError"
        case .imageAlreadyExists: "ImageAlreadyExistsError"
        case .messageAlreadyExists: "MessageAlreadyExistsError"
        case .rateLimitExceeded: "RateLimitExceededError"
        case .generalInternal: "GeneralInternalError"
        case .generalInternalRetryable: "GeneralInternalRetryableError"
        }
    }

    /// Apple's meaning, from its documentation of the error.
    public var meaning: String {
        switch self {
        case .generalBadRequest: "the request is invalid and cannot be processed"
        case .invalidTransactionId: "the transaction identifier is invalid"
        case .invalidProductId: "the product ID is invalid"
        case .appTransactionIdNotSupported: "the endpoint does not support an app transaction ID"
        case .invalidImage: "the image that is uploading is invalid (PNG, sizes, no transparency)"
        case .headerTooLong: "the header text is too long (at most 66 characters)"
        case .bodyTooLong: "the body text is too long (at most 144 characters)"
        case .invalidLocale: "the locale is invalid"
        case .altTextTooLong: "the alternative text for an image is too long (at most 150 characters)"
        case .familyTransactionNotSupported:
            "the transaction is for a product the customer obtains through Family Sharing, which the endpoint does not support"
        case .transactionIdIsNotOriginalTransactionId: "the transaction ID is not an original transaction ID"
        case .invalidPerformanceTestRequest: "the performance test request is invalid"
        case .invalidRequestId: "the request ID is invalid"
        case .existingPerformanceTestRun: "a performance test is already running"
        case .badRequestRealtimeUrl: "the URL is invalid (https://, at most 256 characters)"
        case .badRequestImageSize: "the image size provided is invalid"
        case .badRequestTooManyBulletPoints: "there are too many bullet points (at most 5)"
        case .badRequestBulletPointTextTooLong: "the text for a bullet point is too long (at most 66 characters)"
        case .badRequestAboveImageRequiresAnImage:
            "the header is to be placed above the image, but no image is included"
        case .maximumNumberOfImagesReached: "the maximum number of uploaded images (2000) is reached"
        case .maximumNumberOfMessagesReached: "the maximum number of uploaded messages (2000) is reached"
        case .messageNotApproved: "the message is not APPROVED, so it cannot be a default message"
        case .imageNotApproved: "the message's image is not APPROVED, so it cannot be part of a default message"
        case .imageInUse: "the image is in use by a message, so it cannot be deleted (delete the message first)"
        case .forbiddenNoPassingTest:
            "a passed performance test is required before a URL can be set for the production environment"
        case .imageNotFound: "the system cannot find the image identifier"
        case .messageNotFound: "the system cannot find the message identifier"
        case .performanceTestRunNotFound: "the service cannot find the specified test run"
        case .defaultMessageNotFound: "no default message is configured"
        case .realtimeUrlNotFound: "the URL for the endpoint is not configured"
        case .imageAlreadyExists: "the image identifier already exists"
        case .messageAlreadyExists: "the message identifier already exists"
        case .rateLimitExceeded: "the request exceeded the rate limit"
        case .generalInternal: "a general internal error"
        case .generalInternalRetryable: "an unknown error occurred, but you can try again"
        }
    }
}
