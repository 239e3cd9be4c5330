import Foundation
import RippleCore
import SystemClients
import TestSupport
import Testing

@testable import CoverageMapping
@testable import SourceChanges
@testable import TestImpact

/// Issue 51's mutation differential (`make mutation-proof`): a real package from the mirror is built with coverage
/// and mapped; then one body-only mutation at a time (found with swift-syntax, confirmed by SourceChanges) is built,
/// the tests the selection would skip are run, and any that fails is a missed failing test. The tests it selects are
/// run too, to count the mutations that make some test fail. The figures go to `<folder>/mutation-proof-<name>.json`.
///
/// RIPPLE_MUTATION_PROOF=1 runs it; RIPPLE_MUTATIONS (default 12) bounds the mutations tried per package,
/// RIPPLE_MUTATION_FROM skips the first body-only ones (a later run goes on where one stopped), RIPPLE_MUTATION_MATCH
/// keeps only the sites whose description holds it (`Node.Scalar.swift:107`),
/// RIPPLE_MUTATION_PACKAGES (default `Yams`) names the packages (`Yams,swift-collections`), RIPPLE_MUTATION_DIR
/// keeps the clones and their builds between runs (default `$TMPDIR/ripple-mutation-proof`).
@Suite(.serialized) struct MutationProofTests {
  struct Subject: Sendable {
    var name: String
    var mirror: String
    var tag: String
    /// The test target whose tests are mapped and selected.
    var target: String
    /// The module whose sources are mutated, relative to the package root.
    var sources: String
  }

  static let subjects = [
    Subject(
      name: "Yams", mirror: "/opt/swift-packages/jpsim/Yams.git", tag: "6.2.2", target: "YamsTests",
      sources: "Sources/Yams"),
    Subject(
      name: "swift-collections", mirror: "/opt/swift-packages/apple/swift-collections.git", tag: "1.6.0",
      target: "BitCollectionsTests", sources: "Sources/BitCollections"),
  ]

  static var environment: [String: String] { ProcessInfo.processInfo.environment }

  struct Figures: Codable {
    var package: String
    var target: String
    var tests = 0
    var unmappedAtBase: [String: String] = [:]
    var sitesFound = 0
    var tried = 0
    var notBodyOnly = 0
    /// Body-only mutations found in the shuffled order, the `from` skipped ones included.
    var bodyOnlyFound = 0
    /// The first body-only mutations skipped (RIPPLE_MUTATION_FROM): a later run goes on where one stopped.
    var skipped = 0
    var didNotCompile = 0
    var survived = 0
    /// Body-only mutations that made at least one test fail.
    var killing = 0
    var wholeTarget = 0
    var selectedTests = 0
    var missedFailingTests: [String] = []
    var mutations: [String] = []
  }

  @Test(.enabled(if: environment["RIPPLE_MUTATION_PROOF"] == "1"))
  func noFailingTestIsMissedBelowTheTarget() async throws {
    let names = (Self.environment["RIPPLE_MUTATION_PACKAGES"] ?? "Yams").split(separator: ",").map(String.init)
    for subject in Self.subjects where names.contains(subject.name) {
      let figures = try await prove(
        subject, limit: Int(Self.environment["RIPPLE_MUTATIONS"] ?? "") ?? 12,
        from: Int(Self.environment["RIPPLE_MUTATION_FROM"] ?? "") ?? 0)
      #expect(figures.missedFailingTests.isEmpty, "\(subject.name): \(figures.missedFailingTests)")
    }
  }

  func prove(_ subject: Subject, limit: Int, from: Int) async throws -> Figures {
    let folder =
      Self.environment["RIPPLE_MUTATION_DIR"]
      ?? FileManager.default.temporaryDirectory.appendingPathComponent("ripple-mutation-proof").path
    let root = folder + "/" + subject.name
    let process = ProcessClient.live
    if !FileManager.default.fileExists(atPath: root + "/Package.swift") {
      try await run(process, "git", ["clone", "-q", subject.mirror, root], in: folder)
    }
    try await run(process, "git", ["-c", "advice.detachedHead=false", "checkout", "-q", "-f", subject.tag], in: root)
    let tools = try MappingIntegrationTests.toolDirectory()
    let temporary = root + "/.build/proof-tmp"
    try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
    let swift = { (arguments: [String], timeout: Duration) in
      try await process.run(
        ProcessRequest(
          tools + "/swift", arguments, workingDirectory: root, environment: ["TMPDIR": temporary], timeout: timeout))
    }
    let buildArguments = ["build", "--build-tests", "--enable-code-coverage"] + SharedModuleCache.swiftArguments
    let build = try await swift(buildArguments, .seconds(3600))
    try #require(build.succeeded, "\(subject.name) does not build: \(build.errorString.suffix(2000))")

    var figures = Figures(package: subject.name, target: subject.target, skipped: from)
    let bin = try await swift(["build", "--show-bin-path"], .seconds(120)).outputString
      .trimmingCharacters(in: .whitespacesAndNewlines)
    let binary = try #require(
      try FileManager.default.contentsOfDirectory(atPath: bin).first { $0.hasSuffix("PackageTests.xctest") }
        .map { bin + "/" + $0 })
    let profiles = root + "/.build/proof-profiles"
    try FileManager.default.createDirectory(atPath: profiles, withIntermediateDirectories: true)
    let map = try await MappingRun(process: process, toolDirectory: tools).map(
      MappingRun.Request(
        binary: binary, target: subject.target, key: subject.tag, repositoryRoot: root, workDirectory: profiles))
    let current = Array(map.tests.keys) + Array(map.unmapped.keys)
    figures.tests = current.count
    figures.unmappedAtBase = Dictionary(uniqueKeysWithValues: map.unmapped.map { ($0.id, $1) })

    // Every site of the module, in an order spread over its files (a fixed shuffle), tried until `limit`.
    var sites: [Mutation] = []
    let files = try FileManager.default.subpathsOfDirectory(atPath: root + "/" + subject.sources)
      .filter { $0.hasSuffix(".swift") }.sorted()
    var texts: [String: String] = [:]
    for file in files {
      let path = subject.sources + "/" + file
      let text = try String(contentsOfFile: root + "/" + path, encoding: .utf8)
      texts[path] = text
      sites += MutationSites.find(in: text, file: path)
    }
    if let only = Self.environment["RIPPLE_MUTATION_MATCH"] { sites = sites.filter { $0.description.contains(only) } }
    figures.sitesFound = sites.count
    var generator = SplitMix64(seed: 51)
    sites.shuffle(using: &generator)

    for mutation in sites where figures.tried < limit {
      let old = texts[mutation.file]!
      let new = mutation.apply(to: old)
      guard case .bodiesOnly(let functions) = SourceChangeClassifier.classify(old: old, new: new), !functions.isEmpty
      else {
        figures.notBodyOnly += 1
        continue
      }
      figures.bodyOnlyFound += 1
      guard figures.bodyOnlyFound > from else { continue }
      figures.tried += 1
      try Data(new.utf8).write(to: URL(fileURLWithPath: root + "/" + mutation.file))
      defer { try? Data(old.utf8).write(to: URL(fileURLWithPath: root + "/" + mutation.file)) }
      guard try await swift(buildArguments, .seconds(1800)).succeeded else {
        figures.didNotCompile += 1
        figures.mutations.append("\(mutation.description): does not compile")
        continue
      }
      let outcome = BelowTargetSelection.select(
        map: .trusted(map), changes: [mutation.file: .swift(.bodiesOnly(functions))], testTargetFiles: [],
        currentTests: current)
      guard case .tests(let selected, let notRun) = outcome else {
        figures.wholeTarget += 1
        figures.mutations.append("\(mutation.description): whole target")
        continue
      }
      figures.selectedTests += selected.count
      let selectedFailures =
        selected.isEmpty
        ? [] : try await failures(swift, filter: alternation(Array(selected.keys)), skip: nil)
      let missed =
        notRun.isEmpty
        ? []
        : try await failures(
          swift, filter: "^" + escaped(subject.target) + "[./]",
          skip: selected.isEmpty ? nil : alternation(Array(selected.keys)))
      figures.missedFailingTests += missed.map { "\(mutation.description): \($0)" }
      if selectedFailures.isEmpty && missed.isEmpty {
        figures.survived += 1
      } else {
        figures.killing += 1
      }
      figures.mutations.append(
        "\(mutation.description): \(selected.count) of \(current.count) selected, "
          + "\(selectedFailures.count) of them failed, \(missed.count) missed")
      print("mutation \(figures.tried)/\(limit): \(figures.mutations.last!)")
      try save(figures, folder: folder)
    }
    try save(figures, folder: folder)
    print(
      "mutation proof \(subject.name) (\(subject.target), \(figures.tests) tests): \(figures.tried) body-only "
        + "mutations tried, \(figures.killing) made a test fail, \(figures.survived) survived, "
        + "\(figures.didNotCompile) did not compile, \(figures.wholeTarget) ran whole, "
        + "\(figures.missedFailingTests.count) missed failing tests")
    return figures
  }

  func save(_ figures: Figures, folder: String) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    let suffix = figures.skipped > 0 ? "-from-\(figures.skipped)" : ""
    try encoder.encode(figures).write(
      to: URL(fileURLWithPath: folder + "/mutation-proof-\(figures.package)\(suffix).json"))
  }

  /// The failing (or crashed, or hung) tests of one `swift test` run; empty when it passed.
  func failures(
    _ swift: ([String], Duration) async throws -> ProcessResult, filter: String, skip: String?
  ) async throws -> [String] {
    let result: ProcessResult
    do {
      result = try await swift(
        ["test", "--skip-build", "--filter", filter] + (skip.map { ["--skip", $0] } ?? []), .seconds(300))
    } catch ProcessError.timedOut {
      return ["the tests did not finish within 300 s (a mutation that loops)"]
    }
    guard !result.succeeded else { return [] }
    let output = result.outputString + result.errorString
    let failed = output.split(separator: "\n").filter { $0.contains("' failed (") || $0.contains(" failed after ") }
      .map { String($0.prefix(160)) }
    return failed.isEmpty ? ["the test process ended with status \(result.exitStatus)"] : failed
  }

  func alternation(_ tests: [TestID]) -> String {
    "^(" + tests.sorted().map { escaped($0.id) }.joined(separator: "|") + ")$"
  }

  func escaped(_ text: String) -> String {
    let special = Set("\\^$.|?*+()[]{}")
    return text.map { special.contains($0) ? "\\\($0)" : String($0) }.joined()
  }

  func run(_ process: ProcessClient, _ command: String, _ arguments: [String], in directory: String) async throws {
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    _ = try await process.runChecked(ProcessRequest(command, arguments, workingDirectory: directory))
  }
}

@Suite struct MutationSitesTests {
  @Test func sitesAreInBodiesOnlyAndApplyInPlace() {
    let text =
      "let limit = 1 + 2\nstruct S {\n  var x = 0\n  func f(_ a: Int) -> Bool {\n    g()\n    return a < 3\n  }\n}\n"
    let sites = MutationSites.find(in: text, file: "S.swift")
    #expect(sites.map(\.description) == ["S.swift:6: `<` → `<=`", "S.swift:6: 3 → 4", "S.swift:5: dropped `g()`"])
    #expect(sites[0].apply(to: text).contains("return a <= 3"))
    #expect(!sites[2].apply(to: text).contains("g()"))
    for site in sites {
      guard case .bodiesOnly(let functions) = SourceChangeClassifier.classify(old: text, new: site.apply(to: text))
      else {
        Issue.record("\(site.description) is not body-only")
        continue
      }
      #expect(functions.map(\.name) == ["S.f(_:)"])
    }
  }
}
