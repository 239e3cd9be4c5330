import PackageModel

extension AffectedFormatter {
  /// What `--format xcodebuild` prints for a scheme: an `-only-testing:NAME` argument per selected test
  /// target the scheme tests (`tested`, in the scheme's order; every one of them when everything runs), and
  /// the selected test targets it does not test, as `package:Name`, for a warning. Pure.
  public static func xcodebuild(_ report: AffectedReport, tested: [TargetRef]) -> (
    onlyTesting: [String], untested: [String]
  ) {
    let selected = report.testTargets.map { TargetRef(package: $0.package, name: $0.name) }
    let selectedSet = Set(selected)
    let testedSet = Set(tested)
    var seen: Set<String> = []
    let names = tested.filter { report.runAll || selectedSet.contains($0) }.map(\.name).filter {
      seen.insert($0).inserted
    }
    return (names.map { "-only-testing:" + $0 }, selected.filter { !testedSet.contains($0) }.map(\.description))
  }
}
