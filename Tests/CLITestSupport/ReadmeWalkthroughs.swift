import Foundation

/// The shell blocks of README.md and of every guide in docs/ (``documents``) and what to do with each, as
/// the document says in an HTML comment on the line before the block:
///
/// - `<!-- walkthrough: NAME -->`, or `<!-- walkthrough: NAME; given: FILE, FILE -->`: run it.
///   `stand-in: app-store-connect` runs it against the local App Store Connect stand-in (its URL
///   in `OFFERKIT_CONNECT_API_URL`), `stand-in: app-store-server` against the App Store Server API
///   stand-in (`OFFERKIT_SERVER_API_URL`; it approves uploads at once, as Apple's sandbox does), as a
///   reader's commands would run against Apple. `serve: FILE` (with `stand-in: app-store-server`) also
///   starts `offerkit serve --config FILE` (a file of the folder, e.g. `keys-example/service.json`) with
///   the stand-in's test root added as `retention.rootCertificates`, and has the stand-in deliver its
///   performance test to it: Apple's performance test runs as written against the real endpoint.
///   `serve: FILE` without a stand-in starts `offerkit serve --config FILE` with a fresh API key (every scope)
///   and gives the blocks its address and key in `OFFERKIT_URL` and `OFFERKIT_API_KEY`, as a reader who
///   followed "Run it" has them. `python: DIR` copies the Python package DIR (such as `clients/python`)
///   into the folder and puts the interop venv (`OFFERKIT_PYTHON`'s, which `.ci/run` makes) first on
///   `PATH`, so `pip` and `python3` are its own; pip installs offline from what the venv holds
///   (`PIP_NO_INDEX`, no build isolation), so the block needs no network.
///   Blocks with the same name run in document order in one folder (a copy of `keys-example/`,
///   `templates/` and `examples/`, plus each given file from `Tests/Fixtures/readme-walkthrough/`:
///   files a reader gets from elsewhere, such as App Store Connect's CSV of codes).
/// - `<!-- not run: REASON -->`: skipped, for the reason given (it needs a server, a key of your
///   own, or is a synopsis).
/// - `<!-- snippet: … -->`: a service snippet (it needs the running service); `SnippetCommandTests`
///   keep it equal to its template.
/// - `<!-- example: FILE -->` before a block of any language: the block is FILE of the repository, as it is
///   (``Example``); the file is built and run elsewhere (the Swift client's example, by clients/tests).
///
/// Any other shell block is unclassified: the test fails until its document says which it is. A walk-through
/// lives in one document: blocks of one name in two documents are a problem.
struct ReadmeWalkthroughs {
    /// One fenced shell block.
    struct Block: Sendable {
        /// The document it is in, relative to the package root (`README.md`, `docs/service.md`).
        let document: String
        /// The line of its opening fence (1-based).
        let line: Int
        /// The marker line before it, or `nil`.
        let marker: String?
        /// The text between the fences.
        let script: String
        /// Where it is, for messages: `docs/service.md:58`.
        var place: String { "\(document):\(line)" }
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
        /// The Python package it installs (`python: DIR`), or `nil`.
        var python: String?
    }

    /// The stand-ins a walk-through may name.
    static let knownStandIns: Set<String> = ["app-store-connect", "app-store-server"]

    static let shellLanguages: Set<String> = ["sh", "bash", "shell", "zsh", "console"]

    /// A code block that is a file of the repository as it is (`<!-- example: FILE -->` before it), such as the
    /// Swift client's example, which CI builds and runs: the block must be the file's text.
    struct Example: Sendable {
        let document: String
        let line: Int
        let file: String
        let text: String
    }

    /// Every walk-through, by name in document order.
    var walkthroughs: [Walkthrough] = []
    /// The examples, in document order.
    var examples: [Example] = []
    /// The skipped blocks, with their reason.
    var notRun: [(block: Block, reason: String)] = []
    /// What is wrong with the documents' markers: unclassified blocks, markers without a block.
    var problems: [String] = []
    /// The documents read, relative to the package root, in the order read.
    var documentsRead: [String] = []

    static let givenFolder = CLI.packageRoot.appendingPathComponent("Tests/Fixtures/readme-walkthrough")

    /// The documents whose shell blocks are walk-throughs: README.md, then every `docs/*.md` by name.
    static var documents: [String] {
        let docs = CLI.packageRoot.appendingPathComponent("docs")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: docs.path)) ?? []
        return ["README.md"] + names.filter { $0.hasSuffix(".md") }.sorted().map { "docs/\($0)" }
    }

    /// Every document, read and classified (problems are collected, not thrown).
    static let current: ReadmeWalkthroughs = {
        var parsed = ReadmeWalkthroughs()
        for document in documents {
            let url = CLI.packageRoot.appendingPathComponent(document)
            guard let text = try? String(contentsOf: url, encoding: .utf8), !text.isEmpty else {
                parsed.problems.append("\(document) could not be read at \(url.path)")
                continue
            }
            parsed.read(text, document: document)
        }
        return parsed
    }()

    init() {}

    /// One document's text, as if it were the only one.
    init(text: String, document: String = "README.md") {
        read(text, document: document)
    }

    /// Reads the shell blocks and markers of `document` and adds them to what was read before.
    mutating func read(_ text: String, document: String) {
        documentsRead.append(document)
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
            var markerIndex = index - 1
            while markerIndex >= 0, lines[markerIndex].trimmingCharacters(in: .whitespaces).isEmpty {
                markerIndex -= 1
            }
            let marker = markerIndex >= 0 && lines[markerIndex].hasPrefix("<!--") ? lines[markerIndex] : nil
            let text = lines[(index + 1)..<min(end, lines.count)].joined(separator: "\n")
            if let marker, marker.hasPrefix("<!-- example:"), marker.hasSuffix("-->") {
                markersUsed.insert(markerIndex)
                let file = marker.dropFirst("<!-- example:".count).dropLast(3).trimmingCharacters(in: .whitespaces)
                examples.append(Example(document: document, line: index + 1, file: file, text: text))
            } else if Self.shellLanguages.contains(language) {
                if marker != nil { markersUsed.insert(markerIndex) }
                classify(Block(document: document, line: index + 1, marker: marker, script: text))
            }
            index = end + 1
        }
        for (number, line) in lines.enumerated()
        where
            (line.hasPrefix("<!-- walkthrough:") || line.hasPrefix("<!-- not run:") || line.hasPrefix("<!-- example:"))
            && !markersUsed.contains(number)
        {
            problems.append("\(document):\(number + 1): \(line) is not right before a shell block")
        }
    }

    private mutating func classify(_ block: Block) {
        let place = block.place
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
            var python: String?
            for part in parts.dropFirst() {
                if part.hasPrefix("python:") {
                    let folder = part.dropFirst("python:".count).trimmingCharacters(in: .whitespaces)
                    guard !folder.isEmpty, !folder.contains(" "), !folder.hasPrefix("/"), !folder.contains("..") else {
                        problems.append(
                            "\(place): \(marker) has \"\(part)\"; expected python: DIR (a folder of the package)")
                        return
                    }
                    python = folder
                    continue
                }
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
                        "\(place): \(marker) has \"\(part)\"; expected given: FILE, …, stand-in: NAME, serve: FILE or python: DIR"
                    )
                    return
                }
                given += part.dropFirst("given:".count).split(separator: ",").map {
                    $0.trimmingCharacters(in: .whitespaces)
                }
            }
            if let position = walkthroughs.firstIndex(where: { $0.name == name }) {
                let first = walkthroughs[position].blocks[0]
                guard first.document == block.document else {
                    problems.append(
                        "\(place): walk-through \(name) began at \(first.place); a walk-through lives in one document")
                    return
                }
                walkthroughs[position].blocks.append(block)
                walkthroughs[position].given += given
                walkthroughs[position].standIns += standIns
                if let serve { walkthroughs[position].serve = serve }
                if let python { walkthroughs[position].python = python }
            } else {
                walkthroughs.append(
                    Walkthrough(
                        name: name, blocks: [block], given: given, standIns: standIns, serve: serve, python: python))
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
