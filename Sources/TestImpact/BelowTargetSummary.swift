/// The sentences `ripple test` prints for a target selected below the target (pure).
public enum BelowTargetSummary {
  /// "3 of 214 tests of CoreTests: they executed Sources/Core/Parser.swift's `Parser.parse(_:)`", or
  /// "CoreTests runs whole: <reason>".
  public static func line(target: String, outcome: BelowTargetSelection.Outcome) -> String {
    switch outcome {
    case .wholeTarget(let reason):
      return "\(target) runs whole: \(reason)"
    case .tests(let run, let notRun):
      let total = run.count + notRun.count
      guard !run.isEmpty else { return "0 of \(total) tests of \(target): no test executed what changed" }
      var counts: [String: Int] = [:]
      var order: [String] = []
      for reason in run.values.flatMap({ $0 }) {
        let phrase = phrase(reason)
        if counts[phrase] == nil { order.append(phrase) }
        counts[phrase, default: 0] += 1
      }
      let parts = order.sorted().map { phrase in
        order.count == 1 ? "they \(phrase)" : "\(counts[phrase]!) \(phrase)"
      }
      return "\(run.count) of \(total) \(total == 1 ? "test" : "tests") of \(target): " + parts.joined(separator: "; ")
    }
  }

  /// The tests not run, one per line, for the report.
  public static func notRun(_ outcome: BelowTargetSelection.Outcome) -> [String] {
    guard case .tests(_, let notRun) = outcome else { return [] }
    return notRun.map { "not run: \($0.id)" }
  }

  public static func phrase(_ reason: BelowTargetSelection.Reason) -> String {
    switch reason {
    case .executed(let file, let functions):
      functions.isEmpty
        ? "executed \(file)" : "executed \(file)'s " + functions.map { "`\($0)`" }.joined(separator: ", ")
    case .inChangedTestFile(let file): "are in the changed test file \(file)"
    case .notInMap: "are not in the coverage map (new or renamed)"
    case .alwaysRun: "always run"
    }
  }
}
