import HTTPTypes

/// Reads a request's `Transfer-Encoding`: the service takes a body framed by `Content-Length` or by
/// `Transfer-Encoding: chunked` alone, and refuses every other coding.
///
/// RFC 9112 §6.1 lets a server read `gzip, chunked` (or `identity, chunked`, or the field twice) as
/// chunked, but a proxy in front of it may read the same bytes another way (request smuggling), and
/// the service decodes no coding: such a request is a 400 `bad-request` and its connection is closed
/// without reading its body.
enum TransferEncoding {
    /// Whether `fields` frame the body in a way the service takes: no `Transfer-Encoding`, or one such
    /// field whose value is `chunked` (in any case, with blanks around it).
    static func isAcceptable(_ fields: HTTPFields) -> Bool {
        var found = 0
        var chunked = false
        for field in fields where field.name == .transferEncoding {
            found += 1
            chunked = ASCIIText.equalIgnoringCase(ASCIIText.trimmingBlanks(Array(field.value.utf8)[...]), "chunked")
        }
        return found == 0 || (found == 1 && chunked)
    }

    /// Whether `fields`, already found acceptable, frame a chunked body.
    static func isChunked(_ fields: HTTPFields) -> Bool {
        fields.contains { $0.name == .transferEncoding }
    }
}
