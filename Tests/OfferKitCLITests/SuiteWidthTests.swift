import Foundation
import SuiteWidth
import Testing

/// The suite runs a bounded number of test cases at once (Tests/SuiteWidth), so that the tests racing a
/// clock are not starved by hundreds of child processes started together.
@Suite("the suite's width")
struct SuiteWidthTests {
    @Test("Swift Testing's cap is set in this process, to a positive number")
    func capIsSet() throws {
        let variable = String(cString: offerkit_tests_suite_width_variable())
        let value = try #require(ProcessInfo.processInfo.environment[variable], "\(variable) is not set")
        let width = try #require(Int(value), "\(variable)=\(value) is not a number")
        #expect(width > 0)
        #expect(value == String(cString: offerkit_tests_suite_width()))
    }
}
