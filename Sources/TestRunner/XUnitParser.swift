import Foundation

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// Reads the xunit file `swift test --xunit-output X` writes for Swift Testing (`X-swift-testing.xml`):
/// `<testcase classname="Module.Suite" name="test()" time="0.001">` with `<failure message>` or
/// `<skipped>`. (SwiftPM writes XCTest's own xunit file only with `--parallel`, so XCTest results come
/// from the console.)
public enum XUnitParser {
  /// nil when the data is not well-formed XML.
  public static func parse(_ data: Data, framework: TestFramework = .swiftTesting) -> [ParsedTest]? {
    let delegate = Delegate(framework: framework)
    let parser = XMLParser(data: data)
    parser.delegate = delegate
    guard parser.parse(), !delegate.failed else { return nil }
    return delegate.tests
  }

  private final class Delegate: NSObject, XMLParserDelegate {
    let framework: TestFramework
    var tests: [ParsedTest] = []
    var current: ParsedTest?
    var text = ""
    var inSkipped = false
    var failed = false
    var depth = 0

    init(framework: TestFramework) { self.framework = framework }

    func parser(
      _ parser: XMLParser, didStartElement element: String, namespaceURI: String?, qualifiedName: String?,
      attributes: [String: String] = [:]
    ) {
      depth += 1
      switch element {
      case "testcase":
        let classname = attributes["classname"] ?? ""
        let module: String?
        let suite: String
        if let dot = classname.firstIndex(of: ".") {
          module = String(classname[..<dot])
          suite = String(classname[classname.index(after: dot)...])
        } else {
          module = classname.isEmpty ? nil : classname
          suite = ""
        }
        current = ParsedTest(
          framework: framework, module: module, suite: suite, name: attributes["name"] ?? "", status: .passed,
          duration: attributes["time"].flatMap(Double.init) ?? 0)
      case "failure", "error":
        current?.status = .failed
        current?.failures.append(TestFailure(message: attributes["message"] ?? "failed"))
      case "skipped":
        current?.status = .skipped
        inSkipped = true
        text = ""
        if let message = attributes["message"], !message.isEmpty { current?.skipReason = message }
      default:
        break
      }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
      if inSkipped { text += string }
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
      failed = true
    }

    func parserDidEndDocument(_ parser: XMLParser) {
      if depth != 0 { failed = true }  // truncated: some elements were never closed
    }

    func parser(_ parser: XMLParser, didEndElement element: String, namespaceURI: String?, qualifiedName: String?) {
      depth -= 1
      switch element {
      case "skipped":
        inSkipped = false
        let reason = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if !reason.isEmpty { current?.skipReason = reason }
      case "testcase":
        if let current { tests.append(current) }
        current = nil
      default:
        break
      }
    }
  }
}

/// Reads the `error:` lines of a failed `swift build` (compiler and SwiftPM errors).
public enum BuildLog {
  public static func errorLines(_ output: String, limit: Int = 50) -> [String] {
    var collector = BuildErrorCollector(limit: limit)
    output.enumerateLinesCompat { collector.consume($0) }
    return collector.lines
  }
}

/// The compiler's distinct `error:` lines, picked out of a build's output one line at a time (at most `limit`).
public struct BuildErrorCollector: Sendable {
  public let limit: Int
  public private(set) var lines: [String] = []
  private var seen = Set<String>()

  public init(limit: Int = 50) { self.limit = limit }

  public mutating func consume(_ raw: String) {
    let line = raw.trimmingCharacters(in: .whitespaces)
    guard line.contains(": error: ") || line.hasPrefix("error: "), lines.count < limit else { return }
    if seen.insert(line).inserted { lines.append(line) }
  }
}
