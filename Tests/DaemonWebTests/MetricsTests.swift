import Foundation
import RunModel
import ServiceMetrics
import Testing

@testable import DaemonWeb

@Suite struct MetricsTests {
  static let families: [(String, String)] = [
    ("rippled_runs", "gauge"), ("rippled_queue_length", "gauge"), ("rippled_running_runs", "gauge"),
    ("rippled_ready", "gauge"), ("rippled_healthy", "gauge"), ("rippled_runs_finished_total", "counter"),
    ("rippled_run_duration_seconds", "histogram"), ("rippled_test_targets_selected_total", "counter"),
    ("rippled_test_targets_available_total", "counter"), ("rippled_fetches_total", "counter"),
    ("rippled_fetch_errors_total", "counter"), ("rippled_webhook_deliveries_total", "counter"),
    ("ripple_selection_misses_total", "counter"), ("ripple_flaky_tests_total", "counter"),
    ("rippled_full_suite_wall_seconds", "gauge"), ("rippled_wall_clock_saved_seconds", "gauge"),
    ("rippled_line_coverage_ratio", "gauge"),
  ]

  static func render(_ metrics: DaemonMetrics) -> String {
    metrics.render(
      runsByState: [.passed: 12, .failed: 3, .queued: 2], queueLength: 2, running: 1, ready: true, healthy: false)
  }

  /// The value of the sample written exactly as `series` (name and labels).
  static func value(_ text: String, _ series: String) -> Double? {
    for line in text.split(separator: "\n") where line.hasPrefix(series + " ") {
      return Double(line.dropFirst(series.count + 1))
    }
    return nil
  }

  @Test func wallClockSavedSaysWhetherACanaryMeasuredIt() {
    let text = DaemonMetrics().render(
      runsByState: [:], queueLength: 0, running: 0, ready: true, healthy: true,
      savings: [
        .init(repository: "app", savedSeconds: 1234, fullSuiteSeconds: 300),
        .init(repository: "new", savedSeconds: 12, fullSuiteSeconds: nil),
      ])
    #expect(Self.value(text, "rippled_full_suite_wall_seconds{repository=\"app\"}") == 300)
    #expect(Self.value(text, "rippled_wall_clock_saved_seconds{basis=\"measured\",repository=\"app\"}") == 1234)
    #expect(Self.value(text, "rippled_wall_clock_saved_seconds{basis=\"estimate\",repository=\"new\"}") == 12)
    #expect(!text.contains("rippled_full_suite_wall_seconds{repository=\"new\"}"))
  }

  @Test func everyFamilyHasHelpAndTypeEvenBeforeItsFirstSample() {
    let text = Self.render(DaemonMetrics())
    for (name, type) in Self.families {
      #expect(text.contains("\n# HELP \(name) ") || text.hasPrefix("# HELP \(name) "), "HELP of \(name)")
      #expect(text.contains("# TYPE \(name) \(type)\n"), "TYPE of \(name)")
    }
    #expect(text.hasSuffix("\n"))
  }

  @Test func gaugesComeFromTheArgumentsAndEveryStateIsPresent() {
    let text = Self.render(DaemonMetrics())
    for state in RunState.allCases {
      #expect(Self.value(text, "rippled_runs{state=\"\(state.rawValue)\"}") != nil, "state \(state)")
    }
    #expect(Self.value(text, "rippled_runs{state=\"passed\"}") == 12)
    #expect(Self.value(text, "rippled_runs{state=\"error\"}") == 0)
    #expect(Self.value(text, "rippled_queue_length") == 2)
    #expect(Self.value(text, "rippled_running_runs") == 1)
    #expect(Self.value(text, "rippled_ready") == 1)
    #expect(Self.value(text, "rippled_healthy") == 0)
    #expect(Self.value(text, "rippled_webhook_deliveries_total{result=\"duplicate\"}") == 0)
  }

  @Test func countersAndHistogramsIncrease() {
    let metrics = DaemonMetrics(repositories: ["isowords"])
    let before = Self.render(metrics)
    #expect(Self.value(before, "rippled_fetches_total{repository=\"isowords\"}") == 0)
    #expect(Self.value(before, "ripple_selection_misses_total{repository=\"isowords\"}") == 0)
    #expect(Self.value(before, "ripple_flaky_tests_total{repository=\"isowords\"}") == 0)
    metrics.runFinished(
      repository: "isowords", state: .passed, duration: 42, selectedTestTargets: 3, totalTestTargets: 25)
    metrics.runFinished(
      repository: "isowords", state: .passed, duration: 4000, selectedTestTargets: 5, totalTestTargets: 25)
    metrics.runFinished(
      repository: "isowords", state: .cancelled, duration: nil, selectedTestTargets: nil, totalTestTargets: nil)
    metrics.fetchCompleted(repository: "isowords", failed: false)
    metrics.fetchCompleted(repository: "isowords", failed: true)
    metrics.webhookDelivery(result: "accepted")
    metrics.webhookDelivery(result: "accepted")
    metrics.selectionMisses(repository: "isowords", count: 2)
    metrics.selectionMisses(repository: "isowords", count: 1)
    metrics.flakyTests(repository: "isowords", count: 2)
    metrics.flakyTests(repository: "isowords", count: 0)
    let after = Self.render(metrics)
    #expect(Self.value(after, "ripple_selection_misses_total{repository=\"isowords\"}") == 3)
    #expect(Self.value(after, "ripple_flaky_tests_total{repository=\"isowords\"}") == 2)
    #expect(Self.value(after, "rippled_runs_finished_total{repository=\"isowords\",state=\"passed\"}") == 2)
    #expect(Self.value(after, "rippled_runs_finished_total{repository=\"isowords\",state=\"cancelled\"}") == 1)
    #expect(Self.value(after, "rippled_test_targets_selected_total{repository=\"isowords\"}") == 8)
    #expect(Self.value(after, "rippled_test_targets_available_total{repository=\"isowords\"}") == 50)
    #expect(Self.value(after, "rippled_fetches_total{repository=\"isowords\"}") == 2)
    #expect(Self.value(after, "rippled_fetch_errors_total{repository=\"isowords\"}") == 1)
    #expect(Self.value(after, "rippled_webhook_deliveries_total{result=\"accepted\"}") == 2)
    #expect(Self.value(after, "rippled_run_duration_seconds_count{state=\"passed\"}") == 2)
    #expect(Self.value(after, "rippled_run_duration_seconds_sum{state=\"passed\"}") == 4042)
    #expect(Self.value(after, "rippled_run_duration_seconds_bucket{state=\"passed\",le=\"60.0\"}") == 1)
    #expect(Self.value(after, "rippled_run_duration_seconds_bucket{state=\"passed\",le=\"3600.0\"}") == 1)
    #expect(Self.value(after, "rippled_run_duration_seconds_bucket{state=\"passed\",le=\"+Inf\"}") == 2)
    // Same values, same bytes.
    #expect(Self.render(metrics) == after)
  }

  @Test func labelValuesAreEscaped() {
    let metrics = DaemonMetrics()
    metrics.fetchCompleted(repository: "we\"ird\\repo\nx", failed: false)
    let text = Self.render(metrics)
    #expect(Self.value(text, #"rippled_fetches_total{repository="we\"ird\\repo\nx"}"#) == 1)
    #expect(!text.contains("we\"ird\\repo\nx"))
  }

  /// The first python3 (on PATH, then the system's) that has `prometheus_client`.
  static let python: [String]? = {
    for command in [["/usr/bin/env", "python3"], ["/usr/bin/python3"], ["/usr/local/bin/python3"]] {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: command[0])
      process.arguments = Array(command.dropFirst()) + ["-c", "import prometheus_client.parser"]
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      guard (try? process.run()) != nil else { continue }
      process.waitUntilExit()
      if process.terminationStatus == 0 { return command }
    }
    return nil
  }()

  @Test(
    .enabled(
      if: python != nil,
      "skipped: needs python3 with prometheus_client (pip install prometheus-client, or apt install python3-prometheus-client)"
    ))
  func pythonPrometheusClientParsesTheExposition() throws {
    let metrics = DaemonMetrics(repositories: ["isowords", "tools"])
    metrics.runFinished(
      repository: "isowords", state: .failed, duration: 72, selectedTestTargets: 9, totalTestTargets: 25)
    metrics.fetchCompleted(repository: "we\"ird\\repo\nx", failed: true)
    metrics.webhookDelivery(result: "rejected")
    let text = Self.render(metrics)

    let script = """
      import json, sys
      from prometheus_client.parser import text_string_to_metric_families
      out = {}
      for family in text_string_to_metric_families(sys.stdin.read()):
          for sample in family.samples:
              out.setdefault(family.type + " " + sample.name, []).append([sample.labels, sample.value])
      print(json.dumps(out, sort_keys=True))
      """
    let process = Process()
    let python = try #require(Self.python)
    process.executableURL = URL(fileURLWithPath: python[0])
    process.arguments = Array(python.dropFirst()) + ["-c", script]
    let input = Pipe()
    let output = Pipe()
    let errors = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    input.fileHandleForWriting.write(Data(text.utf8))
    try input.fileHandleForWriting.close()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    let problem = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    try #require(process.terminationStatus == 0, "the parser rejected the exposition: \(problem)\n\(text)")

    let parsed = try #require(try JSONSerialization.jsonObject(with: data) as? [String: [[Any]]])
    #expect(parsed["gauge rippled_runs"]?.count == RunState.allCases.count)
    #expect(parsed["counter rippled_runs_finished_total"]?.count == 1)
    #expect(parsed["histogram rippled_run_duration_seconds_bucket"]?.count == DaemonMetrics.durationBuckets.count + 1)
    #expect(parsed["counter rippled_fetches_total"]?.count == 3)
    let repositories = (parsed["counter rippled_fetch_errors_total"] ?? []).compactMap {
      ($0.first as? [String: String])?["repository"]
    }
    #expect(Set(repositories) == ["isowords", "tools", "we\"ird\\repo\nx"])
    for name in ["rippled_queue_length", "rippled_running_runs", "rippled_ready", "rippled_healthy"] {
      #expect(parsed["gauge \(name)"]?.count == 1, "\(name)")
    }
    #expect(parsed["counter rippled_webhook_deliveries_total"]?.count == 3)
  }
}
