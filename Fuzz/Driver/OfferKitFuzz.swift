#if !FUZZING
    import Foundation
    import FuzzTargets

    /// The replay tool (the normal build): `offerkit-fuzz TARGET PATH…` runs each file, and each file
    /// in each folder, through the target, naming every input before it runs, so that the last name
    /// printed before a crash is the input that crashed. The libFuzzer build is
    /// `LibFuzzerEntryPoints.swift`.
    @main
    enum OfferKitFuzz {
        static func main() {
            let arguments = Array(CommandLine.arguments.dropFirst())
            guard let name = arguments.first, !name.hasPrefix("-") || name == "--list" else { usage() }
            if name == "--list" {
                for target in FuzzTarget.allCases { print(target.rawValue) }
                return
            }
            guard let target = FuzzTarget(rawValue: name) else { usage("unknown target \"\(name)\"") }
            guard arguments.count > 1 else { usage("give the files or folders to replay") }
            target.prepare()
            var count = 0
            for path in arguments.dropFirst() {
                for file in files(at: path) {
                    guard let data = FileManager.default.contents(atPath: file) else {
                        FileHandle.standardError.write(Data("offerkit-fuzz: cannot read \(file)\n".utf8))
                        exit(5)
                    }
                    FileHandle.standardOutput.write(Data((file + "\n").utf8))
                    target.run(Array(data))
                    count += 1
                }
            }
            print("\(target.rawValue): \(count) inputs replayed, none crashed")
        }

        /// `path` when it is a file; the regular files under it, sorted, when it is a folder.
        private static func files(at path: String) -> [String] {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                FileHandle.standardError.write(Data("offerkit-fuzz: no such file or folder: \(path)\n".utf8))
                exit(5)
            }
            guard isDirectory.boolValue else { return [path] }
            let names = (try? FileManager.default.subpathsOfDirectory(atPath: path)) ?? []
            return names.sorted().map { path + "/" + $0 }.filter { file in
                var isFolder: ObjCBool = false
                return FileManager.default.fileExists(atPath: file, isDirectory: &isFolder) && !isFolder.boolValue
            }
        }

        private static func usage(_ problem: String? = nil) -> Never {
            let targets = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
            FileHandle.standardError.write(
                Data(
                    ((problem.map { "offerkit-fuzz: \($0)\n" } ?? "")
                        + "usage: offerkit-fuzz TARGET FILE_OR_FOLDER…  (replays inputs; targets: \(targets))\n"
                        + "       offerkit-fuzz --list\n"
                        + "The libFuzzer build is Fuzz/run's; see docs/testing.md, Fuzzing.\n").utf8))
            exit(2)
        }
    }
#endif
