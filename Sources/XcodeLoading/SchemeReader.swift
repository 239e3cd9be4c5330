import Foundation
import XcodeModel

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// Reads a shared scheme's test action with Foundation's `XMLParser` (libxml2 underneath; no dependency
/// beyond Foundation): its testables (skipped ones marked) and test plan references.
public enum SchemeReader {
  /// `path` is the repo-relative `.xcscheme`, `container` the project or workspace holding it.
  public static func scheme(_ bytes: [UInt8], path: String, container: String, revision: String) throws(XcodeError)
    -> XcodeScheme
  {
    let delegate = Delegate(base: XcodeScheme.referenceBase(ofContainer: container))
    let parser = XMLParser(data: Data(bytes))
    parser.delegate = delegate
    guard parser.parse(), delegate.sawScheme, delegate.depth == 0 else {
      let reason =
        parser.parserError.map { "not valid XML: \(($0 as NSError).localizedDescription), line \(parser.lineNumber)" }
        ?? (delegate.sawScheme ? "it ends inside an element (truncated?)" : "no <Scheme> element")
      throw .malformedScheme(path: path, revision: revision, reason: reason)
    }
    let file = path.split(separator: "/").last.map(String.init) ?? path
    let name = file.hasSuffix(".xcscheme") ? String(file.dropLast(9)) : file
    var scheme = XcodeScheme(
      name: name, path: path, container: container, testables: delegate.testables, testPlans: delegate.plans)
    scheme.buildEntries = delegate.buildEntries
    scheme.buildsImplicitDependencies = delegate.buildsImplicitDependencies
    return scheme
  }

  private final class Delegate: NSObject, XMLParserDelegate {
    let base: String
    var sawScheme = false
    /// Open elements: not 0 at the end when the file is truncated (libxml2 may not report it on Linux).
    var depth = 0
    var inTestAction = false
    var testableSkipped: Bool?
    var testables: [TestEntry] = []
    var plans: [XcodeScheme.TestPlanReference] = []
    var inBuildEntry = false
    var buildEntries: [TestEntry] = []
    var buildsImplicitDependencies = true

    init(base: String) { self.base = base }

    func parser(
      _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
      attributes: [String: String] = [:]
    ) {
      depth += 1
      switch name {
      case "Scheme": sawScheme = true
      case "TestAction": inTestAction = true
      case "BuildAction": buildsImplicitDependencies = attributes["buildImplicitDependencies"] != "NO"
      case "BuildActionEntry": inBuildEntry = true
      case "BuildableReference" where inBuildEntry:
        guard
          let container = attributes["ReferencedContainer"].flatMap({ XcodeScheme.resolveReference($0, base: base) })
        else { return }
        let name = attributes["BlueprintName"] ?? ""
        buildEntries.append(
          TestEntry(
            container: container, identifier: attributes["BlueprintIdentifier"] ?? name, name: name, enabled: true))
      case "TestableReference" where inTestAction: testableSkipped = attributes["skipped"] == "YES"
      case "BuildableReference" where inTestAction:
        // The first BuildableReference of a TestableReference names the test target.
        guard let skipped = testableSkipped,
          let container = attributes["ReferencedContainer"].flatMap({ XcodeScheme.resolveReference($0, base: base) })
        else { return }
        let name = attributes["BlueprintName"] ?? ""
        testables.append(
          TestEntry(
            container: container, identifier: attributes["BlueprintIdentifier"] ?? name, name: name,
            enabled: !skipped))
        testableSkipped = nil
      case "TestPlanReference" where inTestAction:
        guard let path = attributes["reference"].flatMap({ XcodeScheme.resolveReference($0, base: base) }) else {
          return
        }
        plans.append(XcodeScheme.TestPlanReference(path: path, isDefault: attributes["default"] == "YES"))
      default: break
      }
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
      depth -= 1
      if name == "TestAction" { inTestAction = false }
      if name == "TestableReference" { testableSkipped = nil }
      if name == "BuildActionEntry" { inBuildEntry = false }
    }
  }
}
