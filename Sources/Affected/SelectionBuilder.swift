import PackageModel

/// Collects the direct reasons of each changed target, the reasons to run everything, and warnings,
/// keeping each list in insertion order without duplicates.
struct SelectionBuilder {
  private(set) var reasons: [TargetRef: [String]] = [:]
  private(set) var runAllReasons: [String] = []
  private(set) var warnings: [String] = []

  mutating func add(_ reason: String, to target: TargetRef) {
    if reasons[target]?.contains(reason) == true { return }
    reasons[target, default: []].append(reason)
  }

  mutating func add(_ reason: String, to targets: [TargetRef]) {
    for target in targets { add(reason, to: target) }
  }

  mutating func runAll(_ reason: String) {
    if !runAllReasons.contains(reason) { runAllReasons.append(reason) }
  }

  mutating func warn(_ warning: String) {
    if !warnings.contains(warning) { warnings.append(warning) }
  }
}
