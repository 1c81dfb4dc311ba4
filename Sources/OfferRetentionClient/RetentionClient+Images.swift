import OfferRetentionAPI

extension RetentionClient {
    /// Upload Image (`PUT /inApps/v1/messaging/image/{imageIdentifier}[?imageSize=…]`, body the
    /// PNG, `Content-Type: image/png`), after ``PNGImage``'s checks for `size` (Apple's default,
    /// `FULL_SIZE`, when `nil`; `imageSize` is then not sent).
    ///
    /// The image list is asked first: an identifier already there is refused without sending
    /// (``RetentionAPIError/alreadyExists(operation:kind:identifier:)``). So after a lost answer,
    /// when the list is asked again before the upload is sent again, finding the image means this
    /// upload made it, not an earlier one.
    /// - Parameter field: names the image in errors (the file's path).
    /// - Returns: the PNG's header, as checked.
    @discardableResult
    public func uploadImage(_ imageIdentifier: String, png: [UInt8], size: ImageSize?, field: String = "image")
        async throws -> PNGImage
    {
        let id = try RetentionIdentifier.uuid(imageIdentifier, field: "imageIdentifier")
        let image = try PNGImage(bytes: png, field: field)
        try image.check(for: size ?? .fullSize, field: field)
        let listed: @Sendable () async throws -> Bool = { [self] in
            try await images().imageIdentifiers.contains { $0.imageIdentifier.lowercased() == id }
        }
        if try await listed() {
            throw RetentionAPIError.alreadyExists(operation: "Upload Image", kind: "image", identifier: id)
        }
        let query = size.map { "?imageSize=\($0.rawValue)" } ?? ""
        _ = try await send(
            RetentionRequest(
                operation: "Upload Image", method: "PUT", path: "/inApps/v1/messaging/image/\(id)\(query)",
                body: png, contentType: "image/png",
                afterUnknownOutcome: .lookUp(isDone: listed), doneWhenRefusedAgainWith: .imageAlreadyExists))
        return image
    }

    /// Get Image List (`GET /inApps/v1/messaging/image/list`).
    public func images() async throws -> GetImageListResponse {
        let operation = "Get Image List"
        let body = try await send(
            RetentionRequest(operation: operation, method: "GET", path: "/inApps/v1/messaging/image/list"))
        return try read(body, operation: operation, GetImageListResponse.parse)
    }

    /// Delete Image (`DELETE /inApps/v1/messaging/image/{imageIdentifier}`); Apple refuses an
    /// image a message uses (`ImageInUseError`). Sent again after a lost answer,
    /// `ImageNotFoundError` means the first one deleted it.
    public func deleteImage(_ imageIdentifier: String) async throws {
        let id = try RetentionIdentifier.uuid(imageIdentifier, field: "imageIdentifier")
        _ = try await send(
            RetentionRequest(
                operation: "Delete Image", method: "DELETE", path: "/inApps/v1/messaging/image/\(id)",
                doneWhenRefusedAgainWith: .imageNotFound))
    }
}
