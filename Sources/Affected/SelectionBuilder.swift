import PackageModel

/// Collects the direct reasons of each changed target, the reasons to run everything, and warnings,
/// keeping each list in insertion order without duplicates.
struct SelectionBuilder {
  /// Reasons kept per target: a change list of 10⁶ files (`--changed-files`) would otherwise give a target 10⁶
  /// reasons, and checking each new one against them took minutes.
  static let maxReasons = 50

  private var kept: [TargetRef: [String]] = [:]
  private var seen: [TargetRef: Set<String>] = [:]
  private var more: [TargetRef: Int] = [:]
  private var keptRunAll: [String] = []
  private var seenRunAll: Set<String> = []
  private var moreRunAll = 0
  private(set) var warnings: [String] = []
  private var seenWarnings: Set<String> = []

  /// The reasons to run everything in the order they came, the ones beyond `maxReasons` counted on a last line.
  var runAllReasons: [String] {
    moreRunAll == 0 ? keptRunAll : keptRunAll + ["… and \(moreRunAll) more"]
  }

  /// Each target's reasons in the order they came, the ones beyond `maxReasons` counted on a last line.
  var reasons: [TargetRef: [String]] {
    guard !more.isEmpty else { return kept }
    var out = kept
    for (target, count) in more { out[target, default: []].append("… and \(count) more") }
    return out
  }

  mutating func add(_ reason: String, to target: TargetRef) {
    guard seen[target, default: []].insert(reason).inserted else { return }
    if kept[target, default: []].count < Self.maxReasons {
      kept[target, default: []].append(reason)
    } else {
      more[target, default: 0] += 1
    }
  }

  mutating func add(_ reason: String, to targets: [TargetRef]) {
    for target in targets { add(reason, to: target) }
  }

  mutating func runAll(_ reason: String) {
    guard seenRunAll.insert(reason).inserted else { return }
    if keptRunAll.count < Self.maxReasons { keptRunAll.append(reason) } else { moreRunAll += 1 }
  }

  mutating func warn(_ warning: String) {
    if seenWarnings.insert(warning).inserted { warnings.append(warning) }
  }
}
