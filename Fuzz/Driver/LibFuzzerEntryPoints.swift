#if FUZZING
    import Foundation
    import FuzzTargets

    // The libFuzzer build (OFFERKIT_FUZZ=1: `-sanitize=fuzzer,address -DFUZZING`, see Fuzz/run). The target is named
    // by OFFERKIT_FUZZ_TARGET, which the processes libFuzzer starts (-fork, -jobs) inherit.
    //
    // SwiftPM links an executable target's entry point as `main` by `--defsym main=offerkit_fuzz_main`
    // (so that tests can link the module), which replaces libFuzzer's own `main`: this build defines
    // that entry point as libFuzzer's driver. Without the renaming, libFuzzer's `main` runs the same
    // driver.

    /// The target OFFERKIT_FUZZ_TARGET names; exits 2 with the list of targets when it names none.
    let selectedTarget: FuzzTarget = {
        let targets = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
        guard let name = ProcessInfo.processInfo.environment["OFFERKIT_FUZZ_TARGET"] else {
            FileHandle.standardError.write(Data("offerkit-fuzz: set OFFERKIT_FUZZ_TARGET to one of \(targets)\n".utf8))
            exit(2)
        }
        guard let target = FuzzTarget(rawValue: name) else {
            FileHandle.standardError.write(
                Data("offerkit-fuzz: OFFERKIT_FUZZ_TARGET=\(name) is unknown: expected one of \(targets)\n".utf8))
            exit(2)
        }
        return target
    }()

    @_cdecl("LLVMFuzzerInitialize")
    func fuzzerInitialize(
        _ argc: UnsafeMutablePointer<Int32>,
        _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>
    ) -> Int32 {
        selectedTarget.prepare()
        return 0
    }

    /// libFuzzer's driver (`libclang_rt.fuzzer`): parses the flags, then fuzzes or replays `callback`.
    @_silgen_name("LLVMFuzzerRunDriver")
    func runLibFuzzerDriver(
        _ argc: UnsafeMutablePointer<Int32>,
        _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
        _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
    ) -> Int32

    @_cdecl("offerkit_fuzz_main")
    func fuzzerMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
        var count = argc
        var arguments = argv
        return runLibFuzzerDriver(&count, &arguments) { data, size in fuzzerTestOneInput(data, size) }
    }

    @_cdecl("LLVMFuzzerTestOneInput")
    func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
        let input = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
        selectedTarget.run(input)
        return 0
    }
#endif
