extension AffectedFormatter {
  /// `--format gitlab --shards N`: a GitLab CI child pipeline (run it with `trigger: include: artifact:`).
  ///
  /// One job per shard of `shardJobs`, named `test I/K: targets…`, each printing why its targets run, then
  /// running the setup commands and `ripple test --targets IDS` with `settings.testArguments`, with its JUnit
  /// file as the job's test report. `GIT_DEPTH: "0"`: the jobs need the history back to the merge-base.
  /// With `settings.artifactsFrom`, each job needs that job of the parent pipeline (`$PARENT_PIPELINE_ID`,
  /// set by the trigger job) and so receives its artifacts: Ripple's release archive, made once.
  /// With nothing selected, one `nothing to test` job that skips the checkout (GitLab rejects a pipeline
  /// without jobs).
  public static func gitlab(
    _ report: AffectedReport, shards: Int, durations: [String: Double],
    suiteDurations: [String: [String: Double]] = [:], settings: CIPipelineSettings, wholePackages: [String] = [],
    testDurations: [String: [String: [String: Double]]] = [:]
  ) -> String {
    let jobs = shardJobs(
      report, shards: shards, durations: durations, suiteDurations: suiteDurations, wholePackages: wholePackages,
      testDurations: testDurations)
    var document: [(key: String, value: PipelineYAML)] = [("variables", .map([("GIT_DEPTH", .string("0"))]))]
    if jobs.isEmpty {
      document.append(
        (
          CIPipeline.noOpTitle,
          .map([
            ("variables", .map([("GIT_STRATEGY", .string("none"))])),
            ("script", .list([.string(CIPipeline.noOpCommand(report))])),
          ])
        ))
    }
    for job in jobs {
      var entries: [(key: String, value: PipelineYAML)] = []
      if let image = settings.image { entries.append(("image", .string(image))) }
      if let parentJob = settings.artifactsFrom {
        let need = PipelineYAML.map([("pipeline", .string("$PARENT_PIPELINE_ID")), ("job", .string(parentJob))])
        entries.append(("needs", .list([need])))
      }
      entries.append(
        ("script", .list(CIPipeline.commands(job, report: report, settings: settings).map(PipelineYAML.string))))
      entries.append(
        (
          "artifacts",
          .map([
            ("when", .string("always")),
            ("reports", .map([("junit", .string(CIPipeline.junitPath(job)))])),
          ])
        ))
      document.append((CIPipeline.title(job), .map(entries)))
    }
    return PipelineYAML.map(document).render(comments: CIPipeline.header(format: "gitlab", report: report, jobs: jobs))
  }
}
