import Foundation
import InteropSupport
import Testing

/// A PostgreSQL server of one test's own (`.ci/postgres` in a folder of its own, beside the shared
/// test server), which the test halts and resumes: for what a ledger does while its server is away.
struct PrivatePostgres {
    /// The server's folder (`OFFERKIT_POSTGRES_DIR`).
    let folder: String
    /// Its URL, without the password (runs get it in `PGPASSWORD`, ``environment``).
    let url: String
    let password: String

    /// What a run against this server needs in its environment: the password.
    var environment: [String: String] { ["PGPASSWORD": password] }

    /// Starts a server, runs `body` with it, then stops it and removes its folder (also when `body`
    /// throws).
    static func with<T>(_ body: (PrivatePostgres) async throws -> T) async throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "offerkit-pg-\(UUID().uuidString.prefix(8))"
        ).path
        let started = try await script("start", folder: folder)
        let line = String(decoding: started.stdout, as: UTF8.self).split(separator: "\n")
            .first { $0.hasPrefix("export OFFERKIT_TEST_POSTGRES_URL='") }
        guard started.status == 0, let line,
            var components = URLComponents(string: String(line.split(separator: "'")[1])),
            let password = components.password
        else {
            _ = try? await script("stop", folder: folder)
            throw CLIRunnerError(description: ".ci/postgres start failed\n\(started)")
        }
        components.password = nil
        let server = PrivatePostgres(folder: folder, url: components.string ?? "", password: password)
        do {
            let result = try await body(server)
            try await server.run("stop")
            return result
        } catch {
            _ = try? await script("stop", folder: folder)
            throw error
        }
    }

    /// Stops the server and keeps its data (`.ci/postgres halt`; a fast shutdown: open
    /// connections are closed).
    func halt() async throws { try await run("halt") }

    /// Starts the halted server again, on the same port, and returns once it takes connections.
    func resume() async throws { try await run("resume") }

    private func run(_ command: String) async throws {
        let result = try await Self.script(command, folder: folder)
        guard result.status == 0 else { throw CLIRunnerError(description: ".ci/postgres \(command) failed\n\(result)") }
    }

    private static func script(_ command: String, folder: String) async throws -> AwaitedProcess.Result {
        let child = try ChildProcess(
            URL(fileURLWithPath: "/bin/bash"), [CLI.packageRoot.appendingPathComponent(".ci/postgres").path, command],
            environment: ProcessInfo.processInfo.environment.merging(["OFFERKIT_POSTGRES_DIR": folder]) { $1 },
            watchdog: 180)
        let ending = await child.ending()
        return AwaitedProcess.Result(status: ending.rawStatus, stdout: child.stdoutData, stderr: child.stderr)
    }
}
