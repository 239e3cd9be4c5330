import Foundation
import Prometheus
import RunModel

/// Counters and histograms since the daemon started, rendered with the store's current gauges as the Prometheus
/// text exposition format (version 0.0.4) for `/metrics`.
///
/// Every family is always listed with `# HELP` and `# TYPE`, also before its first sample. Families come in a fixed
/// order and the series of a family are sorted, so two renders of the same values are the same bytes.
public final class DaemonMetrics: Sendable {
  /// The content type of `render`'s output.
  public static let contentType = "text/plain; version=0.0.4; charset=utf-8"
  /// Upper bounds of `rippled_run_duration_seconds`: 1 s to 1 h.
  public static let durationBuckets: [Double] = [1, 5, 10, 30, 60, 120, 300, 600, 900, 1800, 3600]
  /// The webhook results counted from the start, at zero.
  public static let webhookResults = ["accepted", "rejected", "duplicate"]

  /// A metric family: `rippled_<metric>[_<unit>]`, its help and its type.
  private struct Family: Sendable {
    var metric: String
    var unit: String
    var help: String
    var type: String

    /// `rippled` for every family but the selection misses, which issue 15 names `ripple_selection_misses_total`.
    var namespace = "rippled"

    var name: String { descriptor.name }
    var descriptor: MetricNameDescriptor {
      MetricNameDescriptor(namespace: namespace, metricName: metric, unitName: unit, helpText: help)
    }

    static let runs = Family(metric: "runs", unit: "", help: "Runs in the store, by state.", type: "gauge")
    static let queueLength = Family(
      metric: "queue_length", unit: "", help: "Runs waiting in the queue.", type: "gauge")
    static let running = Family(metric: "running_runs", unit: "", help: "Runs running now.", type: "gauge")
    static let ready = Family(
      metric: "ready", unit: "", help: "1 once the store is open and every source had its first scan.", type: "gauge")
    static let healthy = Family(
      metric: "healthy", unit: "", help: "1 unless something needs an operator (see /api/status).", type: "gauge")
    static let finished = Family(
      metric: "runs_finished", unit: "total", help: "Runs that reached a final state since the daemon started.",
      type: "counter")
    static let duration = Family(
      metric: "run_duration", unit: "seconds",
      help: "Time from start to finish of the runs finished since the daemon started.", type: "histogram")
    static let selected = Family(
      metric: "test_targets_selected", unit: "total",
      help: "Test targets selected by the runs finished since the daemon started.", type: "counter")
    static let available = Family(
      metric: "test_targets_available", unit: "total",
      help: "Test targets in the head graphs of the runs finished since the daemon started.", type: "counter")
    static let fetches = Family(
      metric: "fetches", unit: "total", help: "Fetches of remote repositories since the daemon started.",
      type: "counter")
    static let fetchErrors = Family(
      metric: "fetch_errors", unit: "total", help: "Fetches that failed since the daemon started.", type: "counter")
    static let misses = Family(
      metric: "selection_misses", unit: "total",
      help: "Selection misses found by canary runs since the daemon started: a test target a passed selective run "
        + "left out and the next canary saw fail.", type: "counter", namespace: "ripple")
    static let flaky = Family(
      metric: "flaky_tests", unit: "total",
      help: "Flaky tests (failed, then passed on a retry) in the runs finished since the daemon started.",
      type: "counter", namespace: "ripple")
    static let fullSuite = Family(
      metric: "full_suite_wall", unit: "seconds",
      help: "The whole suite's wall-clock time, builds included, as the repository's last canary (a full run) "
        + "measured it.", type: "gauge")
    static let wallSaved = Family(
      metric: "wall_clock_saved", unit: "seconds",
      help: "Time the repository's runs of the last 30 days saved against the whole suite: wall-clock against the "
        + "last canary (basis=\"measured\"), or recorded test time before the first canary (basis=\"estimate\").",
      type: "gauge")
    static let lineCoverage = Family(
      metric: "line_coverage", unit: "ratio",
      help: "Covered lines of the suite's measured files (0 to 1), from the repository's newest run that recorded "
        + "coverage (coverage: true in rippled.yml); absent before the first.", type: "gauge")
    static let webhooks = Family(
      metric: "webhook_deliveries", unit: "total", help: "Webhook deliveries since the daemon started, by result.",
      type: "counter")
  }

  // One registry per family: a registry lists its families in hash order, the page lists them in this order.
  private let finished = PrometheusCollectorRegistry()
  private let duration = PrometheusCollectorRegistry()
  private let selected = PrometheusCollectorRegistry()
  private let available = PrometheusCollectorRegistry()
  private let fetches = PrometheusCollectorRegistry()
  private let fetchErrors = PrometheusCollectorRegistry()
  private let webhooks = PrometheusCollectorRegistry()
  private let misses = PrometheusCollectorRegistry()
  private let flaky = PrometheusCollectorRegistry()

  /// - Parameter repositories: the configured repositories, whose fetch counters start at zero (so `rate()` and
  ///   `increase()` see the first fetch).
  public init(repositories: [String] = []) {
    for repository in repositories {
      _ = fetches.makeCounter(descriptor: Family.fetches.descriptor, labels: [("repository", repository)])
      _ = fetchErrors.makeCounter(descriptor: Family.fetchErrors.descriptor, labels: [("repository", repository)])
      _ = misses.makeCounter(descriptor: Family.misses.descriptor, labels: [("repository", repository)])
      _ = flaky.makeCounter(descriptor: Family.flaky.descriptor, labels: [("repository", repository)])
    }
    for result in Self.webhookResults {
      _ = webhooks.makeCounter(descriptor: Family.webhooks.descriptor, labels: [("result", result)])
    }
  }

  /// Counts a run that reached a final state.
  public func runFinished(
    repository: String, state: RunState, duration: Double?, selectedTestTargets: Int?, totalTestTargets: Int?
  ) {
    finished.makeCounter(
      descriptor: Family.finished.descriptor, labels: [("repository", repository), ("state", state.rawValue)]
    ).increment()
    if let duration, duration.isFinite, duration >= 0 {
      self.duration.makeValueHistogram(
        descriptor: Family.duration.descriptor, labels: [("state", state.rawValue)], buckets: Self.durationBuckets
      ).record(duration)
    }
    if let selectedTestTargets, selectedTestTargets >= 0 {
      selected.makeCounter(descriptor: Family.selected.descriptor, labels: [("repository", repository)])
        .increment(by: Int64(selectedTestTargets))
    }
    if let totalTestTargets, totalTestTargets >= 0 {
      available.makeCounter(descriptor: Family.available.descriptor, labels: [("repository", repository)])
        .increment(by: Int64(totalTestTargets))
    }
  }

  public func fetchCompleted(repository: String, failed: Bool) {
    fetches.makeCounter(descriptor: Family.fetches.descriptor, labels: [("repository", repository)])
      .increment()
    let errors = fetchErrors.makeCounter(
      descriptor: Family.fetchErrors.descriptor, labels: [("repository", repository)])
    if failed { errors.increment() }
  }

  /// Counts the misses a canary of `repository` found.
  public func selectionMisses(repository: String, count: Int) {
    misses.makeCounter(descriptor: Family.misses.descriptor, labels: [("repository", repository)])
      .increment(by: Int64(max(0, count)))
  }

  /// Counts the flaky tests of a finished run of `repository`.
  public func flakyTests(repository: String, count: Int) {
    flaky.makeCounter(descriptor: Family.flaky.descriptor, labels: [("repository", repository)])
      .increment(by: Int64(max(0, count)))
  }

  /// `result`: "accepted", "rejected" or "duplicate".
  public func webhookDelivery(result: String) {
    webhooks.makeCounter(descriptor: Family.webhooks.descriptor, labels: [("result", result)]).increment()
  }

  /// A repository's savings for `/metrics`: the last 30 days' time saved, and the measured full suite if any.
  public struct Savings: Sendable, Hashable {
    public var repository: String
    public var savedSeconds: Double
    /// nil: no canary yet, `savedSeconds` is an estimate from recorded test times.
    public var fullSuiteSeconds: Double?

    public init(repository: String, savedSeconds: Double, fullSuiteSeconds: Double?) {
      self.repository = repository
      self.savedSeconds = savedSeconds
      self.fullSuiteSeconds = fullSuiteSeconds
    }
  }

  /// The exposition: gauges from the arguments, then the counters and histograms. `lineCoverage`: per repository,
  /// its newest run's covered share of lines (0 to 1).
  public func render(
    runsByState: [RunState: Int], queueLength: Int, running: Int, ready: Bool, healthy: Bool,
    savings: [Savings] = [], lineCoverage: [String: Double] = [:]
  ) -> String {
    var out = ""
    func gauge(_ family: Family, _ value: Int) {
      let registry = PrometheusCollectorRegistry()
      registry.makeGauge(descriptor: family.descriptor).set(Double(value))
      out += Self.emit(registry, family)
    }
    gauge(Family.ready, ready ? 1 : 0)
    gauge(Family.healthy, healthy ? 1 : 0)
    gauge(Family.queueLength, queueLength)
    gauge(Family.running, running)
    let runs = PrometheusCollectorRegistry()
    for state in RunState.allCases {
      runs.makeGauge(descriptor: Family.runs.descriptor, labels: [("state", state.rawValue)])
        .set(Double(runsByState[state] ?? 0))
    }
    out += Self.emit(runs, Family.runs)
    let full = PrometheusCollectorRegistry()
    let saved = PrometheusCollectorRegistry()
    for entry in savings {
      if let seconds = entry.fullSuiteSeconds {
        full.makeGauge(descriptor: Family.fullSuite.descriptor, labels: [("repository", entry.repository)]).set(seconds)
      }
      saved.makeGauge(
        descriptor: Family.wallSaved.descriptor,
        labels: [("basis", entry.fullSuiteSeconds == nil ? "estimate" : "measured"), ("repository", entry.repository)]
      ).set(entry.savedSeconds)
    }
    out += Self.emit(full, Family.fullSuite)
    out += Self.emit(saved, Family.wallSaved)
    let coverage = PrometheusCollectorRegistry()
    for (repository, ratio) in lineCoverage where ratio.isFinite {
      coverage.makeGauge(descriptor: Family.lineCoverage.descriptor, labels: [("repository", repository)])
        .set(min(1, max(0, ratio)))
    }
    out += Self.emit(coverage, Family.lineCoverage)
    out += Self.emit(finished, Family.finished)
    out += Self.emit(duration, Family.duration)
    out += Self.emit(selected, Family.selected)
    out += Self.emit(available, Family.available)
    out += Self.emit(fetches, Family.fetches)
    out += Self.emit(fetchErrors, Family.fetchErrors)
    out += Self.emit(webhooks, Family.webhooks)
    out += Self.emit(misses, Family.misses)
    out += Self.emit(flaky, Family.flaky)
    return out
  }

  /// One family: the registry's text with its series sorted, or only `# HELP` and `# TYPE` while it has no series.
  private static func emit(_ registry: PrometheusCollectorRegistry, _ family: Family) -> String {
    var buffer: [UInt8] = []
    registry.emit(into: &buffer)
    let lines = String(decoding: buffer, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: true)
    var header = lines.filter { $0.hasPrefix("#") }.map(String.init)
    if header.isEmpty { header = ["# HELP \(family.name) \(family.help)", "# TYPE \(family.name) \(family.type)"] }
    // A series is one line, or for a histogram the lines up to and including its `_count`.
    var series: [[Substring]] = []
    var current: [Substring] = []
    for line in lines where !line.hasPrefix("#") {
      current.append(line)
      if family.type != "histogram" || line.hasPrefix(family.name + "_count") {
        series.append(current)
        current = []
      }
    }
    if !current.isEmpty { series.append(current) }
    series.sort { $0[0] < $1[0] }
    return (header + series.flatMap { $0.map(String.init) }).joined(separator: "\n") + "\n"
  }
}
