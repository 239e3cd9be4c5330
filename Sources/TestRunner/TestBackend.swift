import Foundation
import SystemClients

/// What builds and runs one step's tests. Every backend goes through the same flow in `TestRunner`:
/// build, test with each console line reported live, results through `ResultAssembler`, a crashed process
/// as a failing `(test process)` entry, then up to `--retry-failed` re-runs of just the failed tests. A
/// case holds only what differs: how to attribute and read results, and how to name failed tests again.
public enum TestBackend: Sendable, Hashable {
  /// `swift build --build-tests`, `swift test --filter … --xunit-output X`.
  case swiftPM(SwiftPMTests)
  /// `xcodebuild build-for-testing`, `test-without-building -only-testing:… -resultBundlePath R`,
  /// `xcrun xcresulttool` reading the bundle (a `runner: xcodebuild` run).
  case xcodebuild(XcodebuildTests)

  /// Where the first attempt writes its results: the xunit file, or the result bundle.
  public var output: String {
    switch self {
    case .swiftPM(let swiftPM): swiftPM.xunitPath
    case .xcodebuild(let xcodebuild): xcodebuild.resultBundle
    }
  }

  /// Re-run `attempt` (2, 3, …) of the `failing` tests (target, test) of `step`. Pure.
  func retry(_ step: PackageStep, failing: [(target: String, test: TestCaseResult)], attempt: Int) -> TestAttempt {
    let base = (output as NSString).deletingPathExtension
    switch self {
    case .swiftPM:
      let xunit = base + "-retry\(attempt).xml"
      var request = step.test
      let filter = TestFilter.tests(failing.map { $0.test.identifier(target: $0.target) })
      request.arguments = SwiftPMTests.replacing(filter: filter, xunit: xunit, in: request.arguments)
      return TestAttempt(number: attempt, request: request, output: xunit)
    case .xcodebuild(let xcodebuild):
      let bundle = base + "-retry\(attempt).xcresult"
      let onlyTesting = failing.map { XcodebuildCommands.onlyTesting($0.test, target: $0.target) }
      return TestAttempt(number: attempt, request: xcodebuild.commands.test(onlyTesting, bundle), output: bundle)
    }
  }

  /// Files a previous run may have left where `output` goes, removed before the attempt: SwiftPM's Swift
  /// Testing file (it is only written when there are Swift Testing tests), the result bundle (xcodebuild
  /// refuses to write one where one exists).
  func staleOutput(_ output: String) -> String {
    switch self {
    case .swiftPM: SwiftPMTests.swiftTestingPath(output)
    case .xcodebuild: output
    }
  }
}

/// One run of a step's test command: the first (`number` 1), or a retry of the tests that failed.
struct TestAttempt: Sendable, Hashable {
  var number: Int
  var request: ProcessRequest
  /// The xunit file or result bundle it writes.
  var output: String
}

/// The SwiftPM backend's part of a step.
public struct SwiftPMTests: Sendable, Hashable {
  /// `swift test list`: maps XCTest class names (printed without their module on Linux) to targets.
  public var list: ProcessRequest
  /// The same list from the built test binary, without a second SwiftPM invocation; `list` where it fails.
  public var binaryListing: TestBinaryListing?
  /// `swift test --xunit-output`; Swift Testing's results go next to it, as `<name>-swift-testing.xml`.
  public var xunitPath: String

  public init(list: ProcessRequest, binaryListing: TestBinaryListing? = nil, xunitPath: String) {
    self.list = list
    self.binaryListing = binaryListing
    self.xunitPath = xunitPath
  }

  /// The Swift Testing xunit file SwiftPM derives from `xunitPath`.
  public var swiftTestingXunitPath: String { Self.swiftTestingPath(xunitPath) }

  static func swiftTestingPath(_ path: String) -> String {
    let ns = path as NSString
    let ext = ns.pathExtension
    let base = ns.deletingPathExtension
    return ext.isEmpty ? base + "-swift-testing" : base + "-swift-testing." + ext
  }

  /// `arguments` with the `--filter` and `--xunit-output` values replaced (a `--filter` added before
  /// `--xunit-output` when there was none: a run-all package).
  static func replacing(filter: String, xunit: String, in arguments: [String]) -> [String] {
    var out: [String] = []
    var index = 0
    var sawFilter = false
    while index < arguments.count {
      let argument = arguments[index]
      if argument == "--filter" || argument == "--xunit-output", index + 1 < arguments.count {
        if argument == "--filter" { sawFilter = true }
        out += [argument, argument == "--filter" ? filter : xunit]
        index += 2
        continue
      }
      out.append(argument)
      index += 1
    }
    if !sawFilter, let at = out.firstIndex(of: "--xunit-output") {
      out.insert(contentsOf: ["--filter", filter], at: at)
    }
    return out
  }
}

/// The xcodebuild backend's part of a step.
public struct XcodebuildTests: Sendable, Hashable {
  var commands: XcodebuildCommands
  /// `-resultBundlePath` of the first attempt; `xcresulttool` reads each attempt's bundle.
  public var resultBundle: String
}
