import ConfigLoading
import PackageModel
import RippleCore
import TestRunner

/// Target names as people type them (`--targets CoreTests`, `--explain-key CoreTest`): a bare name is taken
/// where it is unique, and a name that matches nothing gets the closest ones.
public enum TargetLookup {
  /// `ids` with each bare `Name` (or `Name/Suite`) qualified as `package:Name` when exactly one of `known`
  /// (`package:Name`) has that name; an ambiguous one is an error listing the qualified candidates. Qualified
  /// ids are kept as they are (the caller reports those it does not select); a bare name no known id has is
  /// `targetsNotSelected`, with the closest name.
  public static func qualify(_ ids: [String], among known: [String]) throws(RippleKitError) -> [String] {
    var out: [String] = []
    var unknown: [String] = []
    for id in ids {
      guard !id.contains(":") else {
        out.append(id)
        continue
      }
      let name = id.split(separator: "/", maxSplits: 1).first.map(String.init) ?? id
      let matches = known.filter { $0.hasSuffix(":" + name) }
      if matches.count > 1 { throw .ambiguousTarget(name, candidates: matches.sorted()) }
      guard let match = matches.first else {
        unknown.append(id)
        continue
      }
      out.append(String(match.dropLast(name.count)) + id)
    }
    if !unknown.isEmpty { throw .targetsNotSelected(unknown, suggestions: suggestions(for: unknown, among: known)) }
    return out
  }

  /// The one target of `graph` that `text` names (`package:Name`, or a bare name that only one package has); one
  /// that none has is `unknownTarget` with the closest name, a bare name several have `ambiguousTarget`.
  public static func resolve(_ text: String, in graph: PackageGraph) throws(RippleKitError) -> TargetRef {
    let all = graph.packages.flatMap { package in
      package.targets.map { TargetRef(package: package.path, name: $0.name) }
    }
    let (package, name) = AffectedOutcome.splitTargetName(text)
    let matches = all.filter { $0.name == name && (package == nil || $0.package == package) }
    if matches.count > 1 { throw .ambiguousTarget(text, candidates: matches.map(\.description)) }
    guard let match = matches.first else {
      throw .unknownTarget(text, suggestion: KeySuggestion.closest(to: name, in: Array(Set(all.map(\.name))).sorted()))
    }
    return match
  }

  /// For each of `unmatched`, the closest known id (by the target's name), when one is close.
  public static func suggestions(for unmatched: [String], among known: [String]) -> [String: String] {
    var out: [String: String] = [:]
    for id in unmatched {
      let name =
        (id.split(separator: ":").last.map(String.init) ?? id).split(separator: "/").first.map(String.init) ?? id
      let names = known.map { String($0.split(separator: ":").last ?? "") }
      if let closest = KeySuggestion.closest(to: name, in: names),
        let match = known.first(where: { $0.hasSuffix(":" + closest) })
      {
        out[id] = match
      }
    }
    return out
  }
}

extension TestUnit {
  /// `package:Name`; nil for a package that runs whole.
  public var targetID: String? { target.map { "\(package):\($0)" } }
}
