import Foundation
import PassRecords
import ResultStore
import RippleCore
import TestRunner
import TestSupport
import Testing

@testable import RippleKit

/// A record planted in the store with control characters, a workflow command and ANSI codes in its fields: what
/// the plan, its warnings and the run's reports print holds none of them raw (docs/DESIGN.md, "Untrusted
/// text").
@Suite struct UntrustedRecordTests {
  static let hostile = "\n::error title=x::owned\u{1B}[2J\u{1B}[1;1H\u{202E}\r\u{7}"

  static func expectNoneRaw(_ text: String, _ what: String) {
    #expect(
      !text.unicodeScalars.contains { ["\u{1B}", "\u{202E}", "\r", "\u{7}"].contains($0) }, "\(what): \(text)")
    for line in text.split(separator: "\n") { #expect(!line.contains("::"), "\(what): \(line)") }
  }

  @Test func aPlantedRecordsFieldsArePrintedQuoted() async throws {
    let repository = try WorkspaceTests.twoModulePackage()
    let cache = try TemporaryDirectory(prefix: "ripple-kit-cache")
    var services = WorkspaceTests.services(WorkspaceTests.toolchain().client, cache: cache)
    services.environment["RIPPLE_BRANCH"] = "feature"
    services.environment["RIPPLE_NO_CACHE_RESULTS"] = nil
    let store = ResultStoreClient.memory()
    services.makeResultStore = { _, _, _ in store }
    let workspace = try Workspace.open(directory: repository.root, services: services)
    let first = try await workspace.planTests(TestRequest(scope: .everything))
    let keys = try #require(first.passRecording?.keys)
    let core = try #require(keys.first { $0.target == "CoreTests" })
    let other = try #require(keys.first { $0.target == "OtherTests" })

    // CoreTests: believed (this branch's, unsigned), every free-text field hostile.
    let believed = PassRecord(
      key: core.key, package: core.package, target: core.target, commit: "c0ffee" + Self.hostile, branch: "feature",
      run: "run" + Self.hostile, writer: "w" + Self.hostile, time: Date(), duration: 1, tests: ["t": 1])
    try await store.save(core.key, try RecordEnvelope.seal(believed, signingKey: nil))
    // OtherTests: another branch's, named in the warning that ignores it.
    let ignored = PassRecord(
      key: other.key, package: other.package, target: other.target, commit: "c", branch: "b" + Self.hostile,
      run: "r", writer: "w", time: Date(), duration: 1, tests: ["t": 1])
    try await store.save(other.key, try RecordEnvelope.seal(ignored, signingKey: nil))

    let plan = try await Workspace.open(directory: repository.root, services: services)
      .planTests(TestRequest(scope: .everything))
    #expect(plan.cached.map(\.name) == ["CoreTests"], "\(plan.warnings)")
    Self.expectNoneRaw(plan.renderedPlan, "the dry run")
    #expect(plan.renderedPlan.contains("\\u{1B}[2J"), "shown, escaped: \(plan.renderedPlan)")
    #expect(plan.warnings.contains { $0.contains("another branch") }, "\(plan.warnings)")
    for warning in plan.warnings { Self.expectNoneRaw(warning, "a warning") }

    var result = TestRunResult(packages: [])
    result.cached = plan.cached
    Self.expectNoneRaw(SummaryRenderer.render(result), "the summary")
    Self.expectNoneRaw(MarkdownSummary.render(result), "the markdown summary")
  }
}
