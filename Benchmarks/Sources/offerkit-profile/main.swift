// Runs one benchmark workload in a loop, for a profiler:
//
//   swift build -c release --package-path Benchmarks
//   perf record -g Benchmarks/.build/release/offerkit-profile advanced-commerce-large 20000
//   valgrind --tool=callgrind Benchmarks/.build/release/offerkit-profile legacy 2000
import Foundation
import SigningWorkloads

let arguments = CommandLine.arguments.dropFirst()
guard let name = arguments.first, let workload = Workload(rawValue: name),
    let count = Int(arguments.dropFirst().first ?? "10000"), count > 0
else {
    let names = Workload.allCases.map(\.rawValue).joined(separator: ", ")
    FileHandle.standardError.write(Data("usage: offerkit-profile WORKLOAD [COUNT]\nworkloads: \(names)\n".utf8))
    exit(2)
}
let fixture = SigningFixture.shared
for _ in 0..<count { workload.run(on: fixture) }
