import PackageModel
import RippleCore

/// The pure analysis: changed paths × base and head graphs × selection config → affected targets, each
/// with its reasons (docs/DESIGN.md, rules 2–8 and 10).
public enum AffectedAnalysis {
  public static func analyze(_ input: AffectedInput) -> AffectedResult {
    // Base and head usually evaluate to the same graph (no manifest changed; the loader then hands out
    // one value, so this comparison is a pointer check): one index, and no manifest difference to find.
    let sameGraph = input.base == input.head
    let head = GraphIndex(input.head)
    let base = sameGraph ? head : GraphIndex(input.base)
    var selection = SelectionBuilder()
    ChangedPathRules(input: input).apply(to: &selection)
    let removed = sameGraph ? [] : ManifestRules(base: input.base, head: head).apply(to: &selection)
    PinRules(resolvedChanges: input.resolvedChanges, base: base, head: head).apply(to: &selection)

    let closure = Closure(changed: selection.reasons.keys, directOnly: input.directOnly) { target in
      head.targets[target] != nil ? head.dependents[target] ?? [] : base.dependents[target] ?? []
    }
    var reasons = selection.reasons
    func reason(_ dependent: TargetRef, _ dependency: TargetRef) -> String {
      // An Xcode target reached through an implicit dependency says which product it links.
      let implicit = (head.targets[dependent] ?? base.targets[dependent])?.implicitEdges?[dependency.description]
      return implicit ?? Closure.reason(dependent, dependsOn: dependency)
    }
    for (dependent, dependency) in closure.reachedVia {
      reasons[dependent, default: []].append(reason(dependent, dependency))
    }
    // Every other path into a target, after the first (which `--explain` follows): the JSON keeps them all.
    for (dependent, dependencies) in closure.dependencies {
      for dependency in dependencies where dependency != closure.reachedVia[dependent] {
        let text = reason(dependent, dependency)
        if reasons[dependent]?.contains(text) != true { reasons[dependent, default: []].append(text) }
      }
    }
    let runAll = !selection.runAllReasons.isEmpty
    if runAll {
      let runAllReasons = selection.runAllReasons
      for ref in head.allTargets where head.targets[ref]!.kind.isTest {
        let known = Set(reasons[ref] ?? [])
        for reason in runAllReasons where !known.contains(reason) { reasons[ref, default: []].append(reason) }
      }
    }
    for ref in removed {
      let fromProject = input.base.package(at: ref.package)?.isXcodeProject == true
      reasons[ref] =
        [fromProject ? ManifestRules.removedFromProjectReason : ManifestRules.removedReason] + (reasons[ref] ?? [])
    }

    var targets: [AffectedTarget] = []
    var removedTargets: [AffectedTarget] = []
    for (ref, targetReasons) in reasons.sorted(by: { $0.key < $1.key }) {
      if let target = head.targets[ref] {
        targets.append(affected(ref, target.kind, targetReasons, closure.reachedVia[ref]))
      } else if let target = base.targets[ref] {
        removedTargets.append(affected(ref, target.kind, targetReasons, closure.reachedVia[ref]))
      }
    }
    return AffectedResult(
      targets: targets, testTargets: targets.filter { $0.kind.isTest }, runAll: runAll,
      runAllReasons: selection.runAllReasons, warnings: selection.warnings, removedTargets: removedTargets)
  }

  private static func affected(_ ref: TargetRef, _ kind: TargetKind, _ reasons: [String], _ via: TargetRef?)
    -> AffectedTarget
  {
    AffectedTarget(package: ref.package, name: ref.name, kind: kind, reasons: reasons, via: via)
  }
}
