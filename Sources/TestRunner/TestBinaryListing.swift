import Foundation
import SystemClients

/// The tests of a built product, listed by its test binary itself (issue 50): what `swift test list
/// --skip-build` prints, without a second SwiftPM invocation (which loads the package graph again: ~1 s on
/// a small package against ~40 ms for the binary). Linux only, and only where the binary's folder is known:
/// the default configuration, no other triple or SDK. Anything unexpected falls back to `swift test list`.
public struct TestBinaryListing: Sendable, Hashable {
  /// The build's products folder (`<scratch>/debug`), where SwiftPM puts `<Package>PackageTests.xctest`.
  public var productsFolder: String
  public var environment: [String: String?]

  public init(productsFolder: String, environment: [String: String?]) {
    self.productsFolder = productsFolder
    self.environment = environment
  }

  /// Arguments that put the products elsewhere, build them otherwise or choose which testing library SwiftPM
  /// runs (the binary lists both): with any of them, `swift test list`.
  static let relocating: [String] = [
    "-c", "--configuration", "--triple", "--swift-sdk", "--experimental-swift-sdk", "--sdk", "--arch",
    "--toolchain", "--destination", "--scratch-path", "--build-path", "--enable-swift-testing",
    "--disable-swift-testing", "--enable-xctest", "--disable-xctest",
  ]

  /// The listing for a package built into `scratch` (nil: SwiftPM's default, `<package>/.build`) with
  /// `extraArguments`; nil where the binary's place is not known.
  static func forPackage(
    directory: String, scratch: String?, extraArguments: [String], environment: [String: String?]
  ) -> TestBinaryListing? {
    #if os(Linux)
      let relocated = extraArguments.contains { argument in
        relocating.contains { argument == $0 || argument.hasPrefix($0 + "=") }
      }
      guard !relocated else { return nil }
      let base = scratch ?? (directory as NSString).appendingPathComponent(".build")
      return TestBinaryListing(productsFolder: base + "/debug", environment: environment)
    #else
      return nil
    #endif
  }

  /// The one test binary in the products folder; nil when there is none or more than one.
  func binary() -> String? {
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: productsFolder) else { return nil }
    let binaries = names.filter { $0.hasSuffix("PackageTests.xctest") }
    guard binaries.count == 1 else { return nil }
    let path = productsFolder + "/" + binaries[0]
    return FileManager.default.isExecutableFile(atPath: path) ? path : nil
  }

  /// XCTest's listing (`--dump-tests-json`) and Swift Testing's (`--list-tests`), run by the binary.
  func requests(binary: String) -> (xctest: ProcessRequest, swiftTesting: ProcessRequest) {
    (
      ProcessRequest(binary, ["--dump-tests-json"], environment: environment),
      ProcessRequest(binary, ["--testing-library", "swift-testing", "--list-tests"], environment: environment)
    )
  }
}

/// Reads XCTest's `--dump-tests-json` (pure): `All tests` → bundles → test cases (`Module.Class`) → tests,
/// as `swift test list` prints them: `Module.Class/test`.
public enum XCTestListParser {
  private struct Node: Decodable {
    var name: String
    var tests: [Node]?
  }

  /// The tests' identifiers, or nil when `data` is not such a listing.
  public static func parse(_ data: [UInt8]) -> [String]? {
    guard let root = try? JSONDecoder().decode(Node.self, from: Data(data)), let bundles = root.tests else {
      return nil
    }
    var identifiers: [String] = []
    for bundle in bundles {
      for testCase in bundle.tests ?? [] {
        for test in testCase.tests ?? [] { identifiers.append(testCase.name + "/" + test.name) }
      }
    }
    return identifiers
  }
}
