import CLIUnderTestShim
import Foundation
import OfferKitCLI
import OfferKitSigningCLI

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
    public static let executable: URL = link(named: String(cString: offerkit_tests_cli_name()))

    /// `offerkit` built with its sign commands only (OfferKitSigningCLI's tree, what the package builds
    /// without its trait AllCommands): a link to this test binary under another name, beside
    /// ``executable``. On systems without `/proc/self/exe`, none (`nil`): the package's own build
    /// of that `offerkit` is a build of its own.
    public static let signingOnlyExecutable: URL? = {
        #if os(Linux)
            return link(named: String(cString: offerkit_tests_signing_cli_name()))
        #else
            return nil
        #endif
    }()

    /// A link named `name` to this test binary, in the folder of this process's links.
    private static func link(named name: String) -> URL {
        #if os(Linux)
            let binary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            let link = URL(fileURLWithPath: linkFolder).appendingPathComponent(name)
            do {
                try FileManager.default.createSymbolicLink(at: link, withDestinationURL: binary)
            } catch {
                fatalError("cannot link \(link.path) to the test binary \(binary.path): \(error)")
            }
            return link
        #else
            return Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent(name)
        #endif
    }

    /// The folder of the links, made once and removed at exit.
    private static let linkFolder: String = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "offerkit-tests-cli-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            fatalError("cannot create \(folder.path) for the links to the test binary: \(error)")
        }
        atexit { try? FileManager.default.removeItem(atPath: CLIUnderTest.linkFolder) }
        return folder.path
    }()
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

/// Called by the C initializer when this process was started as `offerkit` built with its sign commands
/// only: that `offerkit`'s `main`, run as ``offerkitTestsRunAsOfferkit()`` runs the full one.
@_cdecl("offerkit_tests_run_as_offerkit_signing_only")
public func offerkitTestsRunAsOfferkitSigningOnly() -> Never {
    SigningEntryPoint.start()
    while true { pause() }
}
