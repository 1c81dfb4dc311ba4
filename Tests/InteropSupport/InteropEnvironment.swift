import Foundation

/// Where the interop tests find their tools, and whether they may skip them.
///
/// Missing on a developer machine, a tool's tests are skipped with a reason starting
/// "SKIPPED LOUDLY"; with ``isCI`` they run anyway and fail, so CI can never pass without them.
public enum InteropEnvironment {
    /// Whether `CI` is set to anything but empty, `false` or `0`.
    public static var isCI: Bool {
        let value = ProcessInfo.processInfo.environment["CI"]?.lowercased() ?? ""
        return !value.isEmpty && value != "false" && value != "0"
    }

    /// `OFFERKIT_PYTHON` (the venv `.ci/run` makes) or `python3` from `PATH`.
    public static var python: String { ProcessInfo.processInfo.environment["OFFERKIT_PYTHON"] ?? "python3" }
}
