import RunModel

/// How a target is coloured and labelled in the graph.
enum GraphStyle {
  enum Kind: String {
    case changed, reached, passed, failed
    case notRun = "notrun"
    case pending
  }

  /// Directly changed: a changed file of its own, or a manifest / resolved-pins change.
  static func isDirect(_ target: RunTarget) -> Bool {
    target.reasons.contains { reason in
      reason.hasPrefix("changed ") || reason.contains("Package.swift") || reason.contains("Package.resolved")
    }
  }

  static func kind(_ target: RunTarget) -> Kind {
    guard target.isTest else { return isDirect(target) ? .changed : .reached }
    switch target.status {
    case .passed, .cached: return .passed
    case .failed: return .failed
    case .skipped, .notRun: return .notRun
    case nil: return .pending
    }
  }

  static func glyph(_ kind: Kind) -> String {
    switch kind {
    case .passed: "✓"
    case .failed: "✗"
    case .notRun: "–"
    case .pending: "…"
    case .changed, .reached: ""
    }
  }

  static func statusText(_ status: TargetStatus?) -> String {
    switch status {
    case .passed: "passed"
    case .failed: "failed"
    case .skipped: "skipped"
    case .notRun: "not run"
    case .cached: "passed before (cached)"
    case nil: "pending"
    }
  }

  static func label(_ name: String) -> String { truncate(name, to: GraphLayout.Metrics.nameLimit) }

  /// Keeps the end of a long package path, where the package's own name is.
  static func packageLabel(_ package: String) -> String {
    let limit = GraphLayout.Metrics.packageLimit
    return package.count <= limit ? package : "…" + package.suffix(limit - 1)
  }

  static func truncate(_ text: String, to limit: Int) -> String {
    text.count <= limit ? text : text.prefix(limit - 1) + "…"
  }
}
