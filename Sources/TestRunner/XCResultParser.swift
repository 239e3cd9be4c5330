import Foundation

/// Reads the JSON of `xcrun xcresulttool get test-results tests --path R.xcresult --compact` (Xcode 16)
/// into per-target results. Pure.
///
/// The document is a tree of `testNodes`, each `{name, nodeType, nodeIdentifier?, result?, duration?,
/// durationInSeconds?, children?}`: a "Test Plan" holds "Unit test bundle" / "UI test bundle" nodes (named
/// after the test target), those hold "Test Suite" nodes (possibly nested), and those "Test Case" nodes
/// with `result` "Passed", "Failed", "Skipped" or "Expected Failure". A failed case has "Failure Message"
/// children (`File.swift:12: message`); repeated or parameterised cases have "Repetition" / "Arguments"
/// children of their own. `xcrun xcresulttool help get test-results tests` prints the schema.
public enum XCResultParser {
  public struct Malformed: Error, Sendable, Hashable {
    public var reason: String
  }

  /// Every test bundle of the document, each with its tests sorted by suite and name; `ResultAssembler`
  /// keeps the selected targets.
  public static func parse(_ data: Data) throws(Malformed) -> [TargetResult] {
    let root: Any
    do {
      root = try JSONSerialization.jsonObject(with: data)
    } catch {
      throw Malformed(reason: "not JSON (\(Self.describe(error)))")
    }
    guard let document = root as? [String: Any], let nodes = document["testNodes"] as? [[String: Any]] else {
      throw Malformed(reason: "no `testNodes` list at the top level")
    }
    var byTarget: [String: [TestCaseResult]] = [:]
    var durations: [String: Double] = [:]
    func walk(_ node: [String: Any], target: String?, suites: [String]) throws(Malformed) {
      guard let type = node["nodeType"] as? String, let name = node["name"] as? String else {
        throw Malformed(reason: "a test node without `nodeType` or `name`")
      }
      let children = node["children"] as? [[String: Any]] ?? []
      switch type {
      case "Unit test bundle", "UI test bundle":
        durations[name, default: 0] += duration(of: node) ?? 0
        byTarget[name, default: []] += []
        for child in children { try walk(child, target: name, suites: []) }
      case "Test Suite":
        for child in children { try walk(child, target: target, suites: suites + [name]) }
      case "Test Case":
        guard let target else { throw Malformed(reason: "the test case `\(name)` is outside any test bundle") }
        byTarget[target, default: []].append(try testCase(node, name: name, suites: suites, children: children))
      default:
        // "Test Plan", devices and configurations: containers of the nodes above.
        for child in children { try walk(child, target: target, suites: suites) }
      }
    }
    for node in nodes { try walk(node, target: nil, suites: []) }
    return byTarget.map { name, tests in
      let sorted = tests.sorted { ($0.suite, $0.name) < ($1.suite, $1.name) }
      return TargetResult(name: name, tests: sorted, duration: durations[name].flatMap { $0 > 0 ? $0 : nil })
    }.sorted { $0.name < $1.name }
  }

  private static func testCase(_ node: [String: Any], name: String, suites: [String], children: [[String: Any]])
    throws(Malformed) -> TestCaseResult
  {
    guard let result = node["result"] as? String else {
      throw Malformed(reason: "the test case `\(name)` has no `result`")
    }
    let status: TestCaseResult.Status
    switch result {
    case "Passed", "Expected Failure": status = .passed
    case "Failed": status = .failed
    case "Skipped": status = .skipped
    default: throw Malformed(reason: "the test case `\(name)` has the unknown result `\(result)`")
    }
    let messages = Self.messages(in: children)
    return TestCaseResult(
      suite: suites.joined(separator: "."), name: name, framework: name.hasSuffix(")") ? .swiftTesting : .xctest,
      status: status, duration: duration(of: node) ?? 0,
      failures: status == .failed ? messages.map(failure) : [],
      skipReason: status == .skipped ? messages.first : nil)
  }

  /// The "Failure Message" texts under a node (repetitions and arguments included).
  private static func messages(in children: [[String: Any]]) -> [String] {
    children.flatMap { child -> [String] in
      let nested = messages(in: child["children"] as? [[String: Any]] ?? [])
      guard child["nodeType"] as? String == "Failure Message", let text = child["name"] as? String else {
        return nested
      }
      return [text] + nested
    }
  }

  /// `AppTests.swift:12: XCTAssertEqual failed…` → file, line and message; otherwise the message alone.
  static func failure(_ text: String) -> TestFailure {
    let parts = text.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
    if parts.count == 3, let line = Int(parts[1]), !parts[0].isEmpty, !parts[0].contains(" ") {
      return TestFailure(
        message: parts[2].trimmingCharacters(in: .whitespaces), file: String(parts[0]), line: line)
    }
    return TestFailure(message: text)
  }

  /// `durationInSeconds`, else `duration` as xcresulttool writes it ("0.12s", "1m 3s").
  static func duration(of node: [String: Any]) -> Double? {
    if let seconds = node["durationInSeconds"] as? Double { return seconds }
    guard let text = node["duration"] as? String else { return nil }
    var total = 0.0
    var any = false
    for part in text.split(separator: " ") {
      let unit = part.last
      let number = Double(part.dropLast()) ?? Double(part.dropLast(2))
      guard let number else { continue }
      switch unit {
      case "s": total += part.hasSuffix("ms") ? number / 1000 : number
      case "m": total += number * 60
      case "h": total += number * 3600
      default: continue
      }
      any = true
    }
    return any ? total : nil
  }

  private static func describe(_ error: Error) -> String {
    let ns = error as NSError
    return (ns.userInfo[NSDebugDescriptionErrorKey] as? String) ?? ns.localizedDescription
  }
}
