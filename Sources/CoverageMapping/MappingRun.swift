import Foundation
import RippleCore
import SystemClients
import TestImpact

/// The mapping run of one test target: every test alone in its own process with its own `LLVM_PROFILE_FILE`, each
/// profile read with the toolchain's `llvm-profdata` and `llvm-cov` into the functions it executed.
///
/// The test binary must have been built with coverage (`swift build --build-tests --enable-code-coverage`). A test
/// that crashes, writes no profile, does not run, or whose profile is not the binary's own build is recorded as
/// unmapped with why: such a map is partial, and its target runs whole.
public struct MappingRun: Sendable {
  public var process: ProcessClient
  /// The folder holding `llvm-profdata` and `llvm-cov` (the toolchain's `usr/bin`).
  public var toolDirectory: String

  public init(process: ProcessClient, toolDirectory: String) {
    self.process = process
    self.toolDirectory = toolDirectory
  }

  public struct Request: Sendable {
    /// The built `<Package>PackageTests.xctest`.
    public var binary: String
    /// The test target (its module name): only its tests are mapped.
    public var target: String
    /// The target's content key, recorded in the map.
    public var key: String
    public var repositoryRoot: String
    /// Where the profiles go; emptied of them as it goes.
    public var workDirectory: String
    public var timeoutPerTest: Duration
    /// The test run's variables (`test.runs`), set (or removed: nil) for every test process.
    public var environment: [String: String?] = [:]

    public init(
      binary: String, target: String, key: String, repositoryRoot: String, workDirectory: String,
      timeoutPerTest: Duration = .seconds(600), environment: [String: String?] = [:]
    ) {
      self.environment = environment
      self.binary = binary
      self.target = target
      self.key = key
      self.repositoryRoot = repositoryRoot
      self.workDirectory = workDirectory
      self.timeoutPerTest = timeoutPerTest
    }
  }

  public func map(_ request: Request) async throws(MappingError) -> CoverageMap {
    // Mapped, not read: the id is in a note near the start of a binary of hundreds of megabytes.
    let buildID = (try? Data(contentsOf: URL(fileURLWithPath: request.binary), options: .alwaysMapped))
      .flatMap(BinaryIdentity.elfBuildID)
    var tests: [(TestID, TestLibrary)] = []
    for library in [TestLibrary.xctest, .swiftTesting] {
      // An instrumented binary writes a profile wherever it runs: the listing's goes to the work folder.
      let listing = try await execute(
        ProcessRequest(
          request.binary, library.listArguments, workingDirectory: request.workDirectory,
          environment: request.environment.merging(["LLVM_PROFILE_FILE": request.workDirectory + "/listing.profraw"]) {
            _, profile in profile
          }, timeout: .seconds(300)))
      try? FileManager.default.removeItem(atPath: request.workDirectory + "/listing.profraw")
      // A binary without Swift Testing answers its listing with EX_UNAVAILABLE and no output: it has none.
      if library == .swiftTesting && listing.exitStatus == 69 && listing.standardOutput.isEmpty { continue }
      guard listing.succeeded else {
        throw .cannotList(binary: request.binary, library: library, detail: Self.tail(listing))
      }
      tests += TestListing.tests(in: listing.outputString, module: request.target).map { ($0, library) }
    }
    guard !tests.isEmpty else { throw .noTests(binary: request.binary, target: request.target) }
    var covered: [TestID: Set<CoveredRegion>] = [:]
    var unmapped: [TestID: String] = [:]
    for (index, (test, library)) in tests.enumerated() {
      switch try await mapOne(test, library, index: index, buildID: buildID, request) {
      case .success(let regions): covered[test] = regions
      case .failure(let why): unmapped[test] = why.reason
      }
    }
    return CoverageMap(target: request.target, key: request.key, tests: covered, unmapped: unmapped)
  }

  struct Unmapped: Error {
    var reason: String
  }

  func mapOne(
    _ test: TestID, _ library: TestLibrary, index: Int, buildID: String?, _ request: Request
  ) async throws(MappingError) -> Result<Set<CoveredRegion>, Unmapped> {
    let raw = request.workDirectory + "/test-\(index).profraw"
    let indexed = request.workDirectory + "/test-\(index).profdata"
    defer {
      try? FileManager.default.removeItem(atPath: raw)
      try? FileManager.default.removeItem(atPath: indexed)
    }
    let run = try await execute(
      ProcessRequest(
        request.binary, library.runArguments(test), workingDirectory: request.repositoryRoot,
        environment: request.environment.merging(["LLVM_PROFILE_FILE": raw]) { _, profile in profile },
        timeout: request.timeoutPerTest))
    if run.exitStatus > 128 { return .failure(Unmapped(reason: "it crashed (signal \(run.exitStatus - 128))")) }
    guard library.ranOneTest(run.outputString + run.errorString) else {
      return .failure(Unmapped(reason: "running it alone ran no test (exit status \(run.exitStatus))"))
    }
    guard FileManager.default.fileExists(atPath: raw) else {
      return .failure(Unmapped(reason: "it wrote no profile: was the binary built with coverage?"))
    }
    if let buildID, let refused = try await refusal(of: raw, buildID: buildID) {
      return .failure(Unmapped(reason: refused))
    }
    let merge = try await execute(ProcessRequest(tool("llvm-profdata"), ["merge", "-sparse", "-o", indexed, raw]))
    guard merge.succeeded else {
      return .failure(Unmapped(reason: "llvm-profdata could not merge its profile: \(Self.tail(merge))"))
    }
    let export = try await execute(
      ProcessRequest(tool("llvm-cov"), ["export", "-format=text", "-instr-profile", indexed, request.binary]))
    guard export.succeeded else {
      return .failure(Unmapped(reason: "llvm-cov could not export its coverage: \(Self.tail(export))"))
    }
    if export.errorString.contains("mismatched data") || export.errorString.contains("profile data may be out of date")
    {
      return .failure(Unmapped(reason: "its profile does not match the test binary (another build): not merged"))
    }
    do {
      return .success(
        try CoverageExport.executedRegions(export.standardOutput, repositoryRoot: request.repositoryRoot))
    } catch {
      return .failure(Unmapped(reason: error.description))
    }
  }

  /// Why a raw profile is not the binary's own (its binary ids, as llvm-profdata reads them, do not hold the
  /// binary's build id); nil when it is.
  public func refusal(of raw: String, buildID: String) async throws(MappingError) -> String? {
    let show = try await execute(ProcessRequest(tool("llvm-profdata"), ["show", "--binary-ids", raw]))
    let ids = BinaryIdentity.profileBinaryIDs(show.outputString)
    guard show.succeeded, ids.contains(buildID) else {
      return "its profile is from another build (binary ids \(ids.joined(separator: ", ")), the test binary's is "
        + "\(buildID)): not merged"
    }
    return nil
  }

  func tool(_ name: String) -> String { toolDirectory + "/" + name }

  func execute(_ request: ProcessRequest) async throws(MappingError) -> ProcessResult {
    do { return try await process.run(request) } catch let error as ProcessError {
      throw .process(error)
    } catch {
      throw .process(.couldNotStart(command: request.commandLine, reason: "\(error)"))
    }
  }

  static func tail(_ result: ProcessResult) -> String {
    let text = (result.errorString.isEmpty ? result.outputString : result.errorString)
      .trimmingCharacters(in: .whitespacesAndNewlines)
    let lines = text.split(separator: "\n").suffix(5).joined(separator: "\n")
    return "exit status \(result.exitStatus)" + (lines.isEmpty ? "" : ": " + lines)
  }
}

public enum MappingError: RippleError {
  case cannotList(binary: String, library: TestLibrary, detail: String)
  case noTests(binary: String, target: String)
  case process(ProcessError)

  public var category: ErrorCategory {
    switch self {
    case .cannotList, .noTests: .environment
    case .process(let error): error.category
    }
  }

  public var description: String {
    switch self {
    case .cannotList(let binary, let library, let detail):
      "the test binary \(binary) cannot list its \(library == .xctest ? "XCTest" : "Swift Testing") tests "
        + "(\(detail)): its target cannot be mapped and runs whole; rebuild it with `swift build --build-tests`"
    case .noTests(let binary, let target):
      "the test binary \(binary) lists no test of \(target): nothing to map; check the target's name"
    case .process(let error): "the mapping run failed: \(error.description)"
    }
  }
}
