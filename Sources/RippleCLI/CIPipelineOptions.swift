import Affected
import ArgumentParser
import Foundation
import RippleKit

/// `ripple affected --format gitlab|buildkite`: what the generated jobs run besides `ripple test`.
struct CIPipelineOptions: ParsableArguments {
  @Option(
    name: .customLong("job-setup"),
    help: ArgumentHelp(
      "With --format gitlab or buildkite: a shell command each job runs before `ripple test` (repeatable).",
      valueName: "COMMAND"))
  var setup: [String] = []

  @Option(
    name: .customLong("job-image"),
    help: ArgumentHelp("With --format gitlab: the container image of each test job.", valueName: "IMAGE"))
  var image: String?

  @Option(
    name: .customLong("job-artifacts-from"),
    help: ArgumentHelp(
      "With --format gitlab: each job takes the artifacts of this job of the parent pipeline (Ripple's release archive); the trigger job passes PARENT_PIPELINE_ID.",
      valueName: "JOB"))
  var artifactsFrom: String?

  func validate(format: AffectedFormat) throws {
    if !setup.isEmpty && !format.isPipeline {
      throw ValidationError("--job-setup goes with --format gitlab or buildkite (got --format \(format.rawValue)).")
    }
    if image != nil && format != .gitlab {
      throw ValidationError("--job-image goes with --format gitlab (got --format \(format.rawValue)).")
    }
    if artifactsFrom != nil && format != .gitlab {
      throw ValidationError("--job-artifacts-from goes with --format gitlab (got --format \(format.rawValue)).")
    }
  }

  /// The settings for the generated jobs: `ripple test` with the same base (the commit it resolved to),
  /// head, config and selection options as this analysis, so each job selects what the plan saw.
  func settings(report: AffectedReport, selection: SelectionOptions, repositoryRoot: String) -> CIPipelineSettings {
    var arguments = ["--base", report.base]
    if report.head != "worktree" { arguments += ["--head", report.head] }
    if selection.revisions.noMergeBase { arguments.append("--no-merge-base") }
    if selection.direct { arguments.append("--direct") }
    if selection.fallback == .all { arguments += ["--fallback", "all"] }
    if let config = selection.repository.config {
      arguments += ["--config", Self.jobPath(config, repositoryRoot: repositoryRoot)]
    }
    return CIPipelineSettings(testArguments: arguments, setup: setup, image: image, artifactsFrom: artifactsFrom)
  }

  /// A path as a job at the repository root sees it: relative to the root when it lies inside it.
  static func jobPath(_ path: String, repositoryRoot: String) -> String {
    let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    let standardized = URL(fileURLWithPath: absolute).standardizedFileURL.resolvingSymlinksInPath().path
    let root = URL(fileURLWithPath: repositoryRoot).standardizedFileURL.resolvingSymlinksInPath().path
    guard standardized.hasPrefix(root + "/") else { return standardized }
    return String(standardized.dropFirst(root.count + 1))
  }
}

extension AffectedFormat {
  /// The formats that split the test targets into `--shards N` jobs.
  var takesShards: Bool { self == .matrix || isPipeline }

  /// The formats that generate a whole CI pipeline.
  var isPipeline: Bool { self == .gitlab || self == .buildkite }
}
