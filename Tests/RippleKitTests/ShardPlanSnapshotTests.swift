import Foundation
import RippleCore
import TestRunner
import Testing

@testable import RippleKit

/// One plan per sharded job: later shards read the first shard's plan, whatever the timings say by then.
@Suite struct ShardPlanSnapshotTests {
  static let selection = TestSelection(packages: [
    PackageSelection(path: ".", testTargets: ["ATests", "BTests", "CTests"])
  ])
  static let before = TimingHistory(packages: [".": ["ATests": 3, "BTests": 2, "CTests": 1]])
  /// What shard 1 wrote: ATests ran fast, so a new plan would move it.
  static let after = TimingHistory(packages: [".": ["ATests": 0.1, "BTests": 2, "CTests": 1]])

  func root() -> String {
    let path = FileManager.default.temporaryDirectory.path + "/shard-plan-\(UUID().uuidString)"
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }

  func resolve(
    _ index: Int, of count: Int = 2, history: TimingHistory, root: String, plan: String? = nil,
    environment: [String: String] = [:], version: String = "1.0.0"
  ) throws -> (plan: ShardPlan, path: String) {
    try ShardPlanSnapshot.resolve(
      Self.selection, shard: Shard(index: index, count: count), history: history, explicitPath: plan,
      repositoryRoot: root, environment: environment, version: version)
  }

  @Test func sequentialShardsOnOneMachineSplitOnePlan() throws {
    let root = root()
    let first = try resolve(1, history: Self.before, root: root)
    #expect(first.path == root + "/.build/ripple/shards/local.json")
    ShardPlanSnapshot.markRan(try Shard(index: 1, count: 2), path: first.path)
    let second = try resolve(2, history: Self.after, root: root)
    #expect(second.plan.id == first.plan.id)
    #expect(second.plan.shards == first.plan.shards)
    #expect(ShardPlan.make(Self.selection, count: 2, history: Self.after, rippleVersion: "1.0.0").id != first.plan.id)
  }

  @Test func aShardRunAgainWithoutAJobIDBeginsANewJob() throws {
    let root = root()
    let first = try resolve(1, history: Self.before, root: root)
    ShardPlanSnapshot.markRan(try Shard(index: 1, count: 2), path: first.path)
    let again = try resolve(1, history: Self.after, root: root)
    #expect(again.plan.id != first.plan.id)
    let other = try resolve(1, of: 3, history: Self.before, root: root)
    #expect(other.plan.count == 3, "another shard count is another job")
  }

  @Test func aJobIDKeepsThePlanForEveryShardOfTheJob() throws {
    let root = root()
    let environment = ["GITHUB_RUN_ID": "77", "GITHUB_RUN_ATTEMPT": "2"]
    #expect(ShardPlanSnapshot.jobID(environment) == "github-77-2")
    #expect(ShardPlanSnapshot.jobID(["RIPPLE_JOB_ID": "mine", "CI_PIPELINE_ID": "5"]) == "mine")
    let first = try resolve(1, history: Self.before, root: root, environment: environment)
    #expect(first.path.hasSuffix("/shards/github-77-2.json"))
    ShardPlanSnapshot.markRan(try Shard(index: 1, count: 2), path: first.path)
    let rerun = try resolve(1, history: Self.after, root: root, environment: environment)
    #expect(rerun.plan.id == first.plan.id, "a shard of the job re-run splits the job's plan")
  }

  @Test func anotherRippleVersionStampsAnotherID() throws {
    let root = root()
    let first = try resolve(1, history: Self.before, root: root)
    let second = try resolve(2, history: Self.before, root: root, version: "2.0.0")
    #expect(second.plan.shards == first.plan.shards)
    #expect(second.plan.id != first.plan.id)
  }

  @Test func anExplicitPlanForAnotherSelectionIsAUsageError() throws {
    let root = root()
    let file = root + "/plan.json"
    _ = try resolve(1, history: Self.before, root: root, plan: file)
    #expect(FileManager.default.fileExists(atPath: file))
    #expect {
      try resolve(1, of: 3, history: Self.before, root: root, plan: file)
    } throws: { error in
      guard let error = error as? ShardPlanError else { return false }
      return error.category == .usage && error.description.contains("3") && error.description.contains(file)
    }
    try Data("{}".utf8).write(to: URL(fileURLWithPath: file))
    #expect(throws: ShardPlanError.self) { try resolve(1, history: Self.before, root: root, plan: file) }
  }
}
