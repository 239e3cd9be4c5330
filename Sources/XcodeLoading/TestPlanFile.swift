import Foundation
import XcodeModel

/// Reads and rewrites test plans (`*.xctestplan`, JSON) with Foundation's `JSONSerialization`.
public enum TestPlanFile {
  /// The plan's test targets; `base` is the folder its `container:` paths are relative to.
  public static func plan(_ bytes: [UInt8], path: String, base: String, revision: String) throws(XcodeError)
    -> XcodeTestPlan
  {
    let root = try object(bytes, path: path, revision: revision)
    var targets: [TestEntry] = []
    for entry in root["testTargets"] as? [Any] ?? [] {
      guard let entry = entry as? [String: Any], let target = entry["target"] as? [String: Any] else {
        throw .malformedTestPlan(path: path, revision: revision, reason: "a test target has no `target`")
      }
      let name = target["name"] as? String ?? ""
      guard
        let container = (target["containerPath"] as? String).flatMap({ XcodeScheme.resolveReference($0, base: base) })
      else { continue }
      targets.append(
        TestEntry(
          container: container, identifier: target["identifier"] as? String ?? name, name: name,
          enabled: (entry["enabled"] as? Bool) ?? true))
    }
    return XcodeTestPlan(path: path, targets: targets)
  }

  /// A copy of the plan with exactly the targets `keep` accepts enabled (`enabled` removed: Xcode's
  /// default) and every other one `"enabled": false`; keys Ripple does not know are kept as they are.
  /// `keep` sees each entry as it was, `enabled` included.
  public static func rewrite(
    _ bytes: [UInt8], path: String, base: String, revision: String, keep: (TestEntry) -> Bool
  ) throws(XcodeError) -> [UInt8] {
    var root = try object(bytes, path: path, revision: revision)
    var entries: [Any] = []
    for entry in root["testTargets"] as? [Any] ?? [] {
      guard var fields = entry as? [String: Any], let target = fields["target"] as? [String: Any] else {
        entries.append(entry)
        continue
      }
      let name = target["name"] as? String ?? ""
      let container =
        (target["containerPath"] as? String).flatMap { XcodeScheme.resolveReference($0, base: base) } ?? ""
      let test = TestEntry(
        container: container, identifier: target["identifier"] as? String ?? name, name: name,
        enabled: (fields["enabled"] as? Bool) ?? true)
      if keep(test) { fields["enabled"] = nil } else { fields["enabled"] = false }
      entries.append(fields)
    }
    root["testTargets"] = entries
    do {
      let data = try JSONSerialization.data(
        withJSONObject: root, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
      return [UInt8](data) + [UInt8(ascii: "\n")]
    } catch {
      throw .malformedTestPlan(path: path, revision: revision, reason: "it cannot be written back: \(error)")
    }
  }

  private static func object(_ bytes: [UInt8], path: String, revision: String) throws(XcodeError) -> [String: Any] {
    let parsed: Any
    do {
      parsed = try JSONSerialization.jsonObject(with: Data(bytes))
    } catch {
      throw .malformedTestPlan(path: path, revision: revision, reason: "it is not JSON")
    }
    guard let root = parsed as? [String: Any] else {
      throw .malformedTestPlan(path: path, revision: revision, reason: "it is not a JSON object")
    }
    return root
  }
}
