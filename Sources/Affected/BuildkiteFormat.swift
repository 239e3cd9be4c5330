extension AffectedFormatter {
  /// `--format buildkite --shards N`: steps for `buildkite-agent pipeline upload`.
  ///
  /// One command step per shard of `shardJobs`, labelled `test I/K: targets…`, each printing why its
  /// targets run, then running the setup commands and `ripple test --targets IDS` with
  /// `settings.testArguments`, its JUnit file an artifact. `$` is written `$$`: the agent interpolates
  /// variables on upload, the shell should see the text as generated. With nothing selected, one
  /// `nothing to test` step.
  public static func buildkite(
    _ report: AffectedReport, shards: Int, durations: [String: Double],
    suiteDurations: [String: [String: Double]] = [:], settings: CIPipelineSettings, wholePackages: [String] = [],
    testDurations: [String: [String: [String: Double]]] = [:]
  ) -> String {
    let jobs = shardJobs(
      report, shards: shards, durations: durations, suiteDurations: suiteDurations, wholePackages: wholePackages,
      testDurations: testDurations)
    func text(_ value: String) -> PipelineYAML { .string(value.replacingOccurrences(of: "$", with: "$$")) }
    var steps: [PipelineYAML] = []
    if jobs.isEmpty {
      steps.append(.map([("label", text(CIPipeline.noOpTitle)), ("command", text(CIPipeline.noOpCommand(report)))]))
    }
    for job in jobs {
      steps.append(
        .map([
          ("label", text(CIPipeline.title(job))),
          ("commands", .list(CIPipeline.commands(job, report: report, settings: settings).map(text))),
          ("artifact_paths", text(CIPipeline.junitPath(job))),
        ]))
    }
    return PipelineYAML.map([("steps", .list(steps))])
      .render(comments: CIPipeline.header(format: "buildkite", report: report, jobs: jobs))
  }
}
