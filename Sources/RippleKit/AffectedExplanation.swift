import Affected
import ConfigLoading

extension AffectedOutcome {
  /// `ripple affected --explain TARGET` (and the MCP tool `explain`): the chain from a changed file to `target`
  /// (`package:Name` or a bare name). A target no change reaches, or one neither graph has (with the closest
  /// name), is an error naming it.
  public func explain(_ target: String) throws(RippleKitError) -> [String] {
    let (package, name) = Self.splitTargetName(target)
    if let lines = result.explanation(for: name, package: package) { return lines }
    let known =
      (headGraph ?? baseGraph)?.packages.flatMap { package in package.targets.map { (package.path, $0.name) } } ?? []
    if known.contains(where: { $0.1 == name && (package == nil || $0.0 == package) }) {
      throw .notAffected(target, changedFiles: report.changedFiles.count)
    }
    throw .unknownTarget(target, suggestion: KeySuggestion.closest(to: name, in: Array(Set(known.map(\.1))).sorted()))
  }

  /// `--explain --all`: every affected test target's chain under its qualified name; nil when none is affected.
  public func explainAll() -> String? {
    let chains = report.testTargets.compactMap { target -> String? in
      guard let lines = result.explanation(for: target.name, package: target.package) else { return nil }
      return "\(target.package):\(target.name)\n" + lines.map { "  " + $0 }.joined(separator: "\n")
    }
    return chains.isEmpty ? nil : chains.joined(separator: "\n\n")
  }

  /// "pkg/dir:Target" → ("pkg/dir", "Target"); "Target" → (nil, "Target").
  static func splitTargetName(_ text: String) -> (String?, String) {
    guard let colon = text.lastIndex(of: ":") else { return (nil, text) }
    return (String(text[..<colon]), String(text[text.index(after: colon)...]))
  }
}
