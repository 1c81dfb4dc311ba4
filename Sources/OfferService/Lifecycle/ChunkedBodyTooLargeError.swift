/// A chunked request body whose chunk sizes announce more than the body limit
/// (``ChunkSizeWatcher``): answered at once as a 413 `body-too-large`, before the chunks arrive.
struct ChunkedBodyTooLargeError: Error, Sendable {
    /// The body limit, in bytes.
    let limit: Int
}
