import Foundation
import FuzzTargets
import Testing

/// Replays the committed fuzz inputs through the fuzz targets' entry points in the normal build:
/// the seed corpora (Fuzz/corpus/TARGET) and every input a fuzzer once crashed on
/// (Fuzz/regressions/TARGET), so that a crash found and fixed stays fixed.
@Suite("fuzz corpus replay")
struct FuzzCorpusTests {
    static let fuzzFolder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz")

    /// The files of `Fuzz/KIND/TARGET`, sorted; none when the folder does not exist.
    static func inputs(_ kind: String, _ target: FuzzTarget) throws -> [URL] {
        let folder = fuzzFolder.appendingPathComponent(kind).appendingPathComponent(target.rawValue)
        guard FileManager.default.fileExists(atPath: folder.path) else { return [] }
        return try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { !$0.hasDirectoryPath }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    /// The folders in `Fuzz/KIND`.
    static func folders(_ kind: String) throws -> [String] {
        let folder = fuzzFolder.appendingPathComponent(kind)
        guard FileManager.default.fileExists(atPath: folder.path) else { return [] }
        return try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    @Test(arguments: FuzzTarget.allCases)
    func replaysTheSeedsAndRegressions(target: FuzzTarget) throws {
        let seeds = try Self.inputs("corpus", target)
        #expect(!seeds.isEmpty, "Fuzz/corpus/\(target.rawValue) has no seeds (Fuzz/seeds.py writes them)")
        target.prepare()
        for file in try seeds + Self.inputs("regressions", target) {
            target.run(Array(try Data(contentsOf: file)))
        }
    }

    @Test func everyFolderNamesATarget() throws {
        let names = Set(FuzzTarget.allCases.map(\.rawValue))
        for kind in ["corpus", "regressions", "dictionaries"] {
            for folder in try Self.folders(kind) {
                let target = kind == "dictionaries" ? String(folder.dropLast(".dict".count)) : folder
                #expect(names.contains(target), "Fuzz/\(kind)/\(folder) names no fuzz target")
            }
        }
        #expect(try Self.folders("corpus") == names.sorted(), "Fuzz/run takes its list of targets from Fuzz/corpus")
    }
}
