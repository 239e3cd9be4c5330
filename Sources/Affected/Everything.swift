import PackageModel

extension AffectedResult {
  /// Every test target of `graph`, each with `reasons`: the one "select everything" (`--fallback all` when
  /// the analysis cannot run, `ripple test --all`, rippled's runs without a base). Pure.
  public static func everything(in graph: PackageGraph, reasons: [String]) -> AffectedResult {
    let tests = graph.testTargets.map {
      AffectedTarget(package: $0.package, name: $0.name, kind: .test, reasons: reasons)
    }
    return AffectedResult(targets: tests, testTargets: tests, runAll: true, runAllReasons: reasons)
  }
}
