import BuildInfo
import Foundation
import RippleCore
import TestRunner

/// Where a sharded job's one plan is kept and when a shard reuses it (docs/DESIGN.md, "One plan per sharded
/// job"). The first shard of a job plans from the timings as they are and writes the plan; every later shard of
/// the job reads it instead of planning again from timings the earlier shards have since updated.
///
/// - `--plan FILE`: that file, for every shard that is given it (CI: made once, handed to each shard's job). A
///   file made for another selection or shard count is an error.
/// - Otherwise `<repo>/.build/ripple/shards/<job>.json`, the job named by `RIPPLE_JOB_ID` or the CI's run id
///   (GitHub Actions, GitLab, Buildkite, CircleCI); with no job id, `local.json`, which a shard reuses until
///   it is run a second time (then a new job has begun) or the selection or shard count changes.
public enum ShardPlanSnapshot {
  /// The job id the environment gives, if any.
  public static func jobID(_ environment: [String: String]) -> String? {
    func value(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
    if let id = value("RIPPLE_JOB_ID") { return id }
    if let run = value("GITHUB_RUN_ID") { return "github-\(run)-\(value("GITHUB_RUN_ATTEMPT") ?? "1")" }
    if let pipeline = value("CI_PIPELINE_ID") { return "gitlab-\(pipeline)" }
    if let build = value("BUILDKITE_BUILD_ID") { return "buildkite-\(build)" }
    if let workflow = value("CIRCLE_WORKFLOW_ID") { return "circleci-\(workflow)" }
    return nil
  }

  /// `<repo>/.build/ripple/shards/<job or "local">.json`.
  public static func defaultPath(repositoryRoot: String, job: String?) -> String {
    repositoryRoot + "/.build/ripple/shards/" + PathComponent.escaped(job ?? "local") + ".json"
  }

  /// The plan shard `shard` runs its part of, and the file it is kept in (written here when new).
  static func resolve(
    _ selection: TestSelection, shard: Shard, history: TimingHistory, explicitPath: String?, repositoryRoot: String,
    environment: [String: String], version: String = BuildInfo.version
  ) throws(ShardPlanError) -> (plan: ShardPlan, path: String) {
    let job = jobID(environment)
    let path = explicitPath ?? defaultPath(repositoryRoot: repositoryRoot, job: job)
    if let kept = ShardPlan.read(from: path) {
      if kept.splits(selection, count: shard.count) {
        // Without a job id, a shard run a second time begins a new job.
        if explicitPath != nil || job != nil || !kept.ran.contains(shard.index) {
          // Stamped with this Ripple's version: shards of one job run by different versions get different ids.
          let plan = ShardPlan(
            rippleVersion: version, count: kept.count, units: kept.units, shards: kept.shards, job: kept.job,
            ran: kept.ran)
          return (plan, path)
        }
      } else if explicitPath != nil {
        throw ShardPlanError(path: path, reason: kept.difference(from: selection, count: shard.count))
      }
    } else if let explicitPath, FileManager.default.fileExists(atPath: explicitPath) {
      throw ShardPlanError(path: explicitPath, reason: "it is not a shard plan Ripple wrote")
    }
    let plan = ShardPlan.make(selection, count: shard.count, history: history, rippleVersion: version, job: job)
    do { try plan.write(to: path) } catch { throw ShardPlanError(path: path, reason: "it cannot be written: \(error)") }
    return (plan, path)
  }

  /// Notes in the plan's file that `shard` ran from it; a failed write costs only the next local job's reuse.
  static func markRan(_ shard: Shard, path: String) {
    guard var plan = ShardPlan.read(from: path), !plan.ran.contains(shard.index) else { return }
    plan.ran = (plan.ran + [shard.index]).sorted()
    try? plan.write(to: path)
  }
}

extension ShardPlan {
  /// Why it does not split `selection` into `count` shards.
  func difference(from selection: TestSelection, count: Int) -> String {
    if self.count != count { return "it splits the tests into \(self.count) shards, not \(count)" }
    let now = Set(selection.units.map(\.id))
    let planned = Set(units)
    let added = now.subtracting(planned).sorted()
    let gone = planned.subtracting(now).sorted()
    var parts: [String] = []
    if !added.isEmpty { parts.append("it does not plan \(added.joined(separator: ", "))") }
    if !gone.isEmpty { parts.append("it plans \(gone.joined(separator: ", ")), which this run does not select") }
    return "it was made for another selection: " + parts.joined(separator: "; ")
  }
}

/// `--plan FILE` cannot be used: a usage error naming the file.
public struct ShardPlanError: RippleError, Equatable {
  public var path: String
  public var reason: String

  public var category: ErrorCategory { .usage }
  public var description: String {
    "--plan \(path): \(reason). Make one plan per job (the first shard writes it) and give it to every shard of "
      + "that job."
  }
}
