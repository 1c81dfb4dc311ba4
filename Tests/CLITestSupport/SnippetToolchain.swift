import Foundation
import InteropSupport
import Testing

/// The toolchain that runs one server language's snippets: whether it is on this machine, and how
/// a rendered snippet is saved and run (with the API key in its environment).
struct SnippetToolchain: Sendable {
    let language: String
    /// The command that shows the toolchain is there.
    let probe: [String]
    let install: String

    static let curl = SnippetToolchain(language: "curl", probe: ["curl", "--version"], install: "apt-get install curl")
    static let python = SnippetToolchain(
        language: "python", probe: ["python3", "--version"], install: "apt-get install python3")
    static let node = SnippetToolchain(
        language: "node", probe: ["node", "--version"], install: "apt-get install nodejs")
    static let java = SnippetToolchain(
        language: "java", probe: ["javac", "-version"], install: "apt-get install default-jdk-headless")
    static let swift = SnippetToolchain(
        language: "swift", probe: ["swiftc", "--version"], install: "install a Swift toolchain")
    static let all = [curl, python, node, java, swift]

    var isAvailable: Bool {
        get async { await ExternalProcess.succeeds(probe[0], Array(probe.dropFirst())) }
    }

    var skipReason: Comment {
        Comment(
            rawValue: "SKIPPED LOUDLY: \(probe[0]) is not on PATH, so the \(language) snippets are not run "
                + "against the service here (\(install); CI never skips this)")
    }

    /// Saves `source` in `folder` under the name the language needs and runs it with
    /// `apiKeyVariable=apiKey` (and `environment`) in its environment.
    func run(
        _ source: String, in folder: TempDir, apiKey: String, environment: [String: String] = [:]
    ) async throws -> Independent.Result {
        switch try await prepare(source, in: folder) {
        case .failure(let failure): return failure.result
        case .success(let command): return try await Self.run(command, apiKey: apiKey, environment: environment)
        }
    }

    /// Runs `command` (from ``prepare(_:in:)``) with the API key and `environment`, through `env`.
    static func run(_ command: [String], apiKey: String, environment: [String: String] = [:]) async throws
        -> Independent.Result
    {
        let variables = ["OFFERKIT_API_KEY=\(apiKey)"] + environment.sorted { $0.key < $1.key }.map { "\($0)=\($1)" }
        return try await Independent.run("env", variables + command)
    }

    /// Saves `source` in `folder` under the name the language needs, compiles it where the language
    /// compiles ahead (Java, Swift), and returns the command that runs it, or the failed compilation.
    func prepare(_ source: String, in folder: TempDir) async throws -> Result<[String], CompileFailure> {
        switch language {
        case "curl":
            return .success(["sh", try folder.write(source, to: "s.sh")])
        case "python":
            return .success(["python3", try folder.write(source, to: "s.py")])
        case "node":
            return .success(["node", try folder.write(source, to: "s.mjs")])
        case "java":
            // Compiled ahead with javac, like Swift: `java File.java` would compile at launch, which
            // takes seconds on a loaded machine (7 s seen in CI) and lets a rate limit refill
            // before the snippet's first request. The public class names the file.
            let name = try #require(
                source.firstMatch(of: /public class (\w+)/).map { String($0.1) }, "no public class in:\n\(source)")
            let classes = folder.file("classes")
            let compiled = try await Independent.run(
                "javac", ["-d", classes, try folder.write(source, to: "\(name).java")])
            guard compiled.status == 0 else { return .failure(CompileFailure(result: compiled)) }
            return .success(["java", "-XX:TieredStopAtLevel=1", "-cp", classes, name])
        case "swift":
            let path = try folder.write(source, to: "main.swift")
            let binary = folder.file("snippet")
            let compiled = try await Independent.run("swiftc", ["-o", binary, path])
            guard compiled.status == 0 else { return .failure(CompileFailure(result: compiled)) }
            return .success([binary])
        default:
            throw CLIRunnerError(description: "no way to run \(language) snippets")
        }
    }

    /// A snippet that did not compile: the compiler's result.
    struct CompileFailure: Error {
        let result: Independent.Result
    }
}
