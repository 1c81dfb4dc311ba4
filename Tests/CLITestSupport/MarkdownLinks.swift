import Foundation

/// The relative links of Markdown documents, checked as GitHub renders them: each names a file or folder
/// of the repository, and a `#anchor` into a Markdown file names one of its headings. Links in fenced code
/// blocks, code spans and HTML comments are not links; links with a scheme (`https:`) are not checked.
struct MarkdownLinks {
    /// One link as written.
    struct Link: Sendable {
        /// The document it is in, relative to the root (`docs/service.md`).
        let document: String
        /// Its line (1-based).
        let line: Int
        /// The target as written: `formats.md#3-advanced-commerce`, `#run-it`, `../keys-example`.
        let target: String
    }

    /// Every link checked.
    var links: [Link] = []
    /// What is wrong: `docs/service.md:12: ../nowhere.md names no file of the repository`.
    var problems: [String] = []

    /// Checks the links of `documents` (paths relative to `root`).
    init(documents: [String], root: URL) {
        let root = root.standardizedFileURL
        var anchorsByFile: [String: Set<String>] = [:]
        func anchors(of path: String) -> Set<String>? {
            if let known = anchorsByFile[path] { return known }
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
            let found = Self.anchors(in: text)
            anchorsByFile[path] = found
            return found
        }
        for document in documents {
            let url = root.appendingPathComponent(document)
            guard let text = try? String(contentsOf: url, encoding: .utf8) else {
                problems.append("\(document) could not be read")
                continue
            }
            for link in Self.links(in: text, document: document) {
                links.append(link)
                let place = "\(document):\(link.line): \(link.target)"
                let parts = link.target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
                let path = String(parts[0])
                let anchor = parts.count > 1 ? String(parts[1]) : nil
                let target =
                    path.isEmpty
                    ? url : URL(fileURLWithPath: path, relativeTo: url.deletingLastPathComponent()).standardizedFileURL
                guard target.path == root.path || target.path.hasPrefix(root.path + "/") else {
                    problems.append("\(place) points outside the repository")
                    continue
                }
                var isFolder: ObjCBool = false
                guard FileManager.default.fileExists(atPath: target.path, isDirectory: &isFolder) else {
                    problems.append("\(place) names no file of the repository")
                    continue
                }
                guard let anchor, target.pathExtension == "md", !isFolder.boolValue else { continue }
                let known = anchors(of: target.path) ?? []
                if !known.contains(anchor) {
                    problems.append("\(place): \(target.lastPathComponent) has no heading with the anchor #\(anchor)")
                }
            }
        }
    }

    /// The links of one document whose targets have no scheme, outside code and comments.
    static func links(in text: String, document: String) -> [Link] {
        var found: [Link] = []
        var inFence = false
        var inComment = false
        for (number, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if raw.hasPrefix("```") {
                inFence.toggle()
                continue
            }
            if inFence { continue }
            var line = String(raw)
            if inComment {
                guard let end = line.range(of: "-->") else { continue }
                line = String(line[end.upperBound...])
                inComment = false
            }
            line = line.replacing(/<!--.*?-->/, with: "")
            if let start = line.range(of: "<!--") {
                line = String(line[..<start.lowerBound])
                inComment = true
            }
            line = line.replacing(/`[^`]*`/, with: "")
            for match in line.matches(of: /\]\(([^)\s]+)(?:\s+"[^"]*")?\)/) {
                let target = String(match.1)
                if target.firstMatch(of: /^[A-Za-z][A-Za-z0-9+.\-]*:/) != nil { continue }
                found.append(Link(document: document, line: number + 1, target: target))
            }
        }
        return found
    }

    /// The anchors of a document's headings as GitHub makes them: lower case, without punctuation but `-`
    /// and `_`, spaces as `-`; a repeated one gets `-1`, `-2`, ….
    static func anchors(in text: String) -> Set<String> {
        var anchors: Set<String> = []
        var seen: [String: Int] = [:]
        var inFence = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") {
                inFence.toggle()
                continue
            }
            guard !inFence, let heading = line.firstMatch(of: /^#{1,6} (.*)$/) else { continue }
            let base = slug(String(heading.1))
            let count = seen[base, default: 0]
            seen[base] = count + 1
            anchors.insert(count == 0 ? base : "\(base)-\(count)")
        }
        return anchors
    }

    /// A heading's anchor: `Handing out codes: \`export --recipients\`` is `handing-out-codes-export---recipients`.
    static func slug(_ heading: String) -> String {
        let kept = heading.trimmingCharacters(in: .whitespaces).lowercased().unicodeScalars.filter {
            CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_" || $0 == " "
        }
        return String(String.UnicodeScalarView(kept)).replacingOccurrences(of: " ", with: "-")
    }
}
