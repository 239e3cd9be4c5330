import Coverage
import Foundation
import RippleCore
import SystemClients

/// One test target's coverage from this run, or why there is none.
public struct TargetCoverageMeasurement: Sendable, Hashable {
  public enum Outcome: Sendable, Hashable {
    /// Line coverage of the files under the repository (paths relative to it; `.build` left out).
    case measured(LineCoverage)
    case notMeasured(String)
  }

  public var package: String
  public var run: String?
  public var target: String
  public var outcome: Outcome

  public init(package: String, run: String?, target: String, outcome: Outcome) {
    self.package = package
    self.run = run
    self.target = target
    self.outcome = outcome
  }
}

extension TestRunner {
  /// The coverage of the step's target, read right after its tests (a later step of the same package in
  /// another run may rebuild the binary): its profiles merged by `llvm-profdata`, exported as LCOV by
  /// `llvm-cov` against the test binary they came from. A target whose process crashed, or whose tests did
  /// not all report, is not measured (its profile is cut short or missing); so is one whose profiles
  /// llvm-cov finds do not match the binary (another build's), which is never merged.
  func measureCoverage(
    _ step: PackageStep, _ spec: StepCoverage, result: PackageResult, options: TestRunOptions,
    binFolders: BinFolders = BinFolders()
  ) async -> TargetCoverageMeasurement {
    func outcome(_ outcome: TargetCoverageMeasurement.Outcome) -> TargetCoverageMeasurement {
      TargetCoverageMeasurement(package: step.package, run: step.run?.name, target: spec.target, outcome: outcome)
    }
    switch result.status {
    case .buildFailed: return outcome(.notMeasured("the package did not build"))
    case .cancelled: return outcome(.notMeasured("the run was cancelled"))
    case .error: return outcome(.notMeasured("its tests could not be run or read"))
    case .noTestsRan: return outcome(.notMeasured("no test ran"))
    case .passed, .failed: break
    }
    guard let tools = options.coverage else { return outcome(.notMeasured("coverage is off")) }
    if let partial = spec.partial { return outcome(.notMeasured(partial)) }
    let target = result.targets.first { $0.name == spec.target }
    if let cut = target?.tests.first(where: { $0.unreported != nil }) {
      let what = cut.unreported == .crashed ? "crashed" : "ended early"
      return outcome(
        .notMeasured(
          "its test process \(what) (\(cut.suite.isEmpty ? cut.name : cut.suite + "/" + cut.name)): its profile is incomplete"
        ))
    }
    let profiles = ((try? FileManager.default.contentsOfDirectory(atPath: spec.profiles)) ?? [])
      .filter { $0.hasSuffix(".profraw") }.sorted().map { spec.profiles + "/" + $0 }
    guard !profiles.isEmpty else { return outcome(.notMeasured("its test process wrote no profile")) }
    do {
      let bin: String
      if let known = binFolders.folder(for: spec.binPath) {
        bin = known
      } else {
        guard let binPath = try await execute(spec.binPath), binPath.succeeded else {
          return outcome(.notMeasured("`swift build --show-bin-path` failed"))
        }
        bin = binPath.outputString.trimmingCharacters(in: .whitespacesAndNewlines)
        binFolders.set(bin, for: spec.binPath)
      }
      let binaries = ((try? FileManager.default.contentsOfDirectory(atPath: bin)) ?? [])
        .filter { $0.hasSuffix("PackageTests.xctest") }
      guard binaries.count == 1, let binary = binaries.first.map({ bin + "/" + $0 }) else {
        return outcome(.notMeasured("no single test binary (…PackageTests.xctest) in \(bin)"))
      }
      let merged = spec.profiles + "/merged.profdata"
      guard
        let merge = try await execute(
          ProcessRequest(
            tools.profdata, ["merge", "-sparse", "-o", merged] + profiles, environment: step.test.environment)),
        merge.succeeded
      else { return outcome(.notMeasured("llvm-profdata could not merge its profiles")) }
      guard
        let export = try await execute(
          ProcessRequest(
            tools.cov,
            ["export", "-format=lcov", "-instr-profile", merged, binary, "-ignore-filename-regex=/\\.build/"],
            environment: step.test.environment)),
        export.succeeded
      else { return outcome(.notMeasured("llvm-cov could not export its coverage")) }
      if Self.profilesMismatch(export.errorString) {
        return outcome(
          .notMeasured("its profiles do not match the test binary (from another build): not merged"))
      }
      let coverage = try LCOV.parse(export.outputString)
      return outcome(.measured(coverage.relativized(to: options.repositoryRoot)))
    } catch {
      return outcome(.notMeasured("its coverage could not be read: \(error)"))
    }
  }

  /// llvm-cov's warnings for a profile of another build of the binary: `N functions have mismatched data`, and
  /// `profile data may be out of date - object is newer` (the binary was rebuilt after the profile was written).
  /// Either way llvm-cov leaves the functions it cannot match out of its export without failing: the coverage
  /// would be silently short, so it is not used.
  static func profilesMismatch(_ stderr: String) -> Bool {
    stderr.contains("mismatched data") || stderr.contains("profile data may be out of date")
  }

  /// Two per-target steps of one package and run as one package result: what a run without coverage reports.
  static func joined(_ first: PackageResult, _ next: PackageResult, filter: String?) -> PackageResult {
    var joined = first
    let statuses = [first.status, next.status]
    let order: [PackageResult.Status] = [.cancelled, .error, .buildFailed, .failed, .passed, .noTestsRan]
    joined.status = order.first { statuses.contains($0) } ?? first.status
    joined.filter = filter
    joined.targets = first.targets + next.targets
    joined.buildErrors = first.buildErrors + next.buildErrors
    joined.message = first.message ?? next.message
    joined.buildDuration = first.buildDuration + next.buildDuration
    return joined
  }
}

/// `swift build --show-bin-path`'s answers within one run: the same command names the same folder, so the targets
/// of a package ask once.
final class BinFolders: Sendable {
  private let folders = Locked<[ProcessRequest: String]>([:])

  func folder(for request: ProcessRequest) -> String? { folders.withLock { $0[request] } }
  func set(_ folder: String, for request: ProcessRequest) { folders.withLock { $0[request] = folder } }
}

/// `--coverage-min`: the suite's measured coverage is under the minimum (exit 1).
public struct CoverageGateError: RippleError, Equatable {
  public var failure: CoverageGate.Failure

  public init(_ failure: CoverageGate.Failure) { self.failure = failure }

  public var category: ErrorCategory { .checkFailed }

  public var description: String {
    let files = failure.files.prefix(20).map(TerminalText.quoted).joined(separator: ", ")
    let more = failure.files.count > 20 ? " and \(failure.files.count - 20) more" : ""
    return String(format: "coverage %.2f%% is under --coverage-min %.2f%%", failure.percent, failure.minimum)
      + (failure.files.isEmpty ? "" : "; files under it, lowest first: \(files)\(more)")
  }
}

extension TestReportWriter {
  /// `--coverage-lcov` and `--coverage-xml`, each written atomically; nothing without coverage.
  public static func writeCoverage(_ result: TestRunResult, lcovPath: String?, xmlPath: String?, now: Date = Date())
    throws
  {
    guard let coverage = result.coverage?.lineCoverage else { return }
    if let lcovPath { try writeAtomically(LCOV.render(coverage), to: lcovPath) }
    if let xmlPath {
      try writeAtomically(Cobertura.render(coverage, timestamp: Int(now.timeIntervalSince1970)), to: xmlPath)
    }
  }
}
