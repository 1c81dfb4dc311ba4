import CLIUnderTestShim
import Foundation
import OfferKitCLI

/// `offerkit` for the end-to-end tests: this test binary, which contains the CLI (OfferKitCLI), started
/// through a link named `offerkit`.
///
/// A C initializer of this target (`Shim/shim.c`) runs before the test runner's `main`: when the
/// process's argv[0] ends in `/offerkit`, it calls OfferKitCLI's ``EntryPoint`` with the process's own
/// arguments and environment, exactly as `Sources/offerkit/main.swift` does, and the process ends there.
/// So the tests always run the CLI built with them, never a separately built binary found by a guessed
/// path, and `swift test` needs nothing built beforehand.
public enum CLIUnderTest {
    /// A link named `offerkit` to this test binary, in a temporary folder of this process's (removed at
    /// exit). On systems without `/proc/self/exe`, the `offerkit` built next to the test bundle.
    public static let executable: URL = {
        let name = String(cString: offerkit_tests_cli_name())
        #if os(Linux)
            let binary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
                "offerkit-tests-cli-\(UUID().uuidString)")
            let link = folder.appendingPathComponent(name)
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                try FileManager.default.createSymbolicLink(at: link, withDestinationURL: binary)
            } catch {
                fatalError("cannot link \(link.path) to the test binary \(binary.path): \(error)")
            }
            linkFolder = folder.path
            atexit { try? FileManager.default.removeItem(atPath: CLIUnderTest.linkFolder) }
            return link
        #else
            return Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent(name)
        #endif
    }()

    /// The folder of ``executable``'s link, removed at exit.
    nonisolated(unsafe) private static var linkFolder = ""
}

/// Called by the C initializer when this process was started as `offerkit`: the CLI's `main`.
///
/// Not ``EntryPoint/main()``: its `dispatchMain()` ends the main thread with `pthread_exit`, whose
/// unwinding cannot pass the dynamic loader's frames that called the initializer (the child crashed
/// with SIGSEGV in `unwind_stop` whenever that unwinding ran before the command's task exited). The
/// command runs in its task (``EntryPoint/start()``), which exits the process; this thread of the CLI's
/// own process (not a test's, and not Swift's pool) waits for signals until then.
@_cdecl("offerkit_tests_run_as_offerkit")
public func offerkitTestsRunAsOfferkit() -> Never {
    EntryPoint.start()
    while true { pause() }
}
