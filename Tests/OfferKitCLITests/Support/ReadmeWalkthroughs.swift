import Foundation

/// The shell blocks of README.md and what to do with each, as the README says in an HTML comment
/// on the line before the block:
///
/// - `<!-- walkthrough: NAME -->`, or `<!-- walkthrough: NAME; given: FILE, FILE -->`: run it.
///   `stand-in: app-store-connect` runs it against the local App Store Connect stand-in (its URL
///   in `OFFERKIT_CONNECT_API_URL`), `stand-in: app-store-server` against the App Store Server API
///   stand-in (`OFFERKIT_SERVER_API_URL`; it approves uploads at once, as Apple's sandbox does), as a
///   reader's commands would run against Apple. `serve: FILE` (with `stand-in: app-store-server`) also
///   starts `offerkit serve --config FILE` (a file of the folder, e.g. `keys-example/service.json`) with
///   the stand-in's test root added as `retention.rootCertificates`, and has the stand-in deliver its
///   performance test to it: Apple's performance test runs as written against the real endpoint.
///   Blocks with the same name run in document order in one folder (a copy of `keys-example/`,
///   `templates/` and `examples/`, plus each given file from `Tests/Fixtures/readme-walkthrough/`:
///   files a reader gets from elsewhere, such as App Store Connect's CSV of codes).
/// - `<!-- not run: REASON -->`: skipped, for the reason given (it needs a server, a key of your
///   own, or is a synopsis).
/// - `<!-- snippet: … -->`: a service snippet (it needs the running service); `SnippetCommandTests`
///   keep it equal to its template.
///
/// Any other shell block is unclassified: the test fails until the README says which it is.
struct ReadmeWalkthroughs {
    /// One fenced shell block.
    struct Block: Sendable {
        /// The line of its opening fence (1-based).
        let line: Int
        /// The marker line before it, or `nil`.
        let marker: String?
        /// The text between the fences.
        let script: String
    }

    /// A walk-through: the blocks of one name, in document order.
    struct Walkthrough: Sendable {
        let name: String
        var blocks: [Block] = []
        var given: [String] = []
        /// Local stand-ins the walk-through runs against (`stand-in: app-store-connect`).
        var standIns: [String] = []
        /// The service configuration of `offerkit serve` to start for it (`serve: FILE`), or `nil`.
        var serve: String?
    }

    /// The stand-ins a walk-through may name.
    static let knownStandIns: Set<String> = ["app-store-connect", "app-store-server"]

    static let shellLanguages: Set<String> = ["sh", "bash", "shell", "zsh", "console"]

    /// Every walk-through, by name in document order.
    var walkthroughs: [Walkthrough] = []
    /// The skipped blocks, with their reason.
    var notRun: [(block: Block, reason: String)] = []
    /// What is wrong with the README's markers: unclassified blocks, markers without a block.
    var problems: [String] = []

    static let readme = CLI.packageRoot.appendingPathComponent("README.md")
    static let givenFolder = CLI.packageRoot.appendingPathComponent("Tests/Fixtures/readme-walkthrough")

    /// The README, read and classified (problems are collected, not thrown).
    static let current: ReadmeWalkthroughs = {
        let text = (try? String(contentsOf: readme, encoding: .utf8)) ?? ""
        var parsed = ReadmeWalkthroughs(text: text)
        if text.isEmpty { parsed.problems.append("README.md could not be read at \(readme.path)") }
        return parsed
    }()

    init(text: String) {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var index = 0
        var markersUsed: Set<Int> = []
        while index < lines.count {
            let line = lines[index]
            guard line.hasPrefix("```") else {
                index += 1
                continue
            }
            let language = line.dropFirst(3).trimmingCharacters(in: .whitespaces)
            var end = index + 1
            while end < lines.count, !lines[end].hasPrefix("```") { end += 1 }
            if Self.shellLanguages.contains(language) {
                var markerIndex = index - 1
                while markerIndex >= 0, lines[markerIndex].trimmingCharacters(in: .whitespaces).isEmpty {
                    markerIndex -= 1
                }
                let marker = markerIndex >= 0 && lines[markerIndex].hasPrefix("<!--") ? lines[markerIndex] : nil
                if marker != nil { markersUsed.insert(markerIndex) }
                let block = Block(
                    line: index + 1, marker: marker,
                    script: lines[(index + 1)..<min(end, lines.count)].joined(separator: "\n"))
                classify(block)
            }
            index = end + 1
        }
        for (number, line) in lines.enumerated()
        where (line.hasPrefix("<!-- walkthrough:") || line.hasPrefix("<!-- not run:")) && !markersUsed.contains(number)
        {
            problems.append("README.md:\(number + 1): \(line) is not right before a shell block")
        }
    }

    private mutating func classify(_ block: Block) {
        let place = "README.md:\(block.line)"
        guard let marker = block.marker, marker.hasSuffix("-->") else {
            problems.append(
                "\(place): a shell block without <!-- walkthrough: NAME --> or <!-- not run: REASON --> before it")
            return
        }
        let body = marker.dropFirst(4).dropLast(3).trimmingCharacters(in: .whitespaces)
        if body.hasPrefix("walkthrough:") {
            let parts = body.dropFirst("walkthrough:".count).split(separator: ";").map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            guard let name = parts.first, !name.isEmpty, !name.contains(" ") else {
                problems.append("\(place): \(marker) names no walk-through")
                return
            }
            var given: [String] = []
            var standIns: [String] = []
            var serve: String?
            for part in parts.dropFirst() {
                if part.hasPrefix("serve:") {
                    let file = part.dropFirst("serve:".count).trimmingCharacters(in: .whitespaces)
                    guard !file.isEmpty, !file.contains(" ") else {
                        problems.append("\(place): \(marker) has \"\(part)\"; expected serve: FILE")
                        return
                    }
                    serve = file
                    continue
                }
                if part.hasPrefix("stand-in:") {
                    let name = part.dropFirst("stand-in:".count).trimmingCharacters(in: .whitespaces)
                    guard Self.knownStandIns.contains(name) else {
                        problems.append("\(place): \(marker) names the unknown stand-in \"\(name)\"")
                        return
                    }
                    standIns.append(name)
                    continue
                }
                guard part.hasPrefix("given:") else {
                    problems.append(
                        "\(place): \(marker) has \"\(part)\"; expected given: FILE, …, stand-in: NAME or serve: FILE")
                    return
                }
                given += part.dropFirst("given:".count).split(separator: ",").map {
                    $0.trimmingCharacters(in: .whitespaces)
                }
            }
            if let position = walkthroughs.firstIndex(where: { $0.name == name }) {
                walkthroughs[position].blocks.append(block)
                walkthroughs[position].given += given
                walkthroughs[position].standIns += standIns
                if let serve { walkthroughs[position].serve = serve }
            } else {
                walkthroughs.append(
                    Walkthrough(name: name, blocks: [block], given: given, standIns: standIns, serve: serve))
            }
            if serve != nil, !standIns.contains("app-store-server") {
                problems.append("\(place): \(marker) has serve: without stand-in: app-store-server")
            }
        } else if body.hasPrefix("not run:") {
            let reason = body.dropFirst("not run:".count).trimmingCharacters(in: .whitespaces)
            if reason.isEmpty {
                problems.append("\(place): \(marker) gives no reason")
            } else {
                notRun.append((block, reason))
            }
        } else if body.hasPrefix("snippet:") {
            notRun.append((block, "a service snippet: needs the running service"))
        } else {
            problems.append("\(place): \(marker) is neither walkthrough: nor not run: nor snippet:")
        }
    }
}
