import Foundation

/// An HTTP/1.1 response as read off the socket by ``HTTPConnection``.
struct HTTPReply: CustomStringConvertible {
    let status: Int
    /// Header fields in order, names as sent.
    let headers: [(name: String, value: String)]
    let body: String

    /// The first field named `name` (case-insensitive).
    func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// The body as one JSON value.
    var json: JSON? { JSON.parse(body) }

    var description: String {
        "HTTP \(status)\n" + headers.map { "\($0.name): \($0.value)" }.joined(separator: "\n") + "\n\n\(body)"
    }

    /// Parses a complete response (status line, fields, body).
    static func parse(_ bytes: [UInt8]) -> HTTPReply? {
        guard let end = HTTPConnection.headerEnd(in: bytes) else { return nil }
        let head = String(decoding: bytes[..<end], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ", maxSplits: 2)
        guard statusLine.count >= 2, statusLine[0].hasPrefix("HTTP/1."), let status = Int(statusLine[1]) else {
            return nil
        }
        let headers = lines.compactMap { line -> (name: String, value: String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        return HTTPReply(
            status: status, headers: headers, body: String(decoding: bytes[(end + 4)...], as: UTF8.self))
    }
}
