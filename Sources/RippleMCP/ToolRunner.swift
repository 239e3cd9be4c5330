import Affected
import Foundation
import PackageModel
import RippleKit
import TestRunner

/// Runs a checked `RippleToolCall` on a workspace, through the jobs the CLI's commands call, and gives the text
/// those commands print (their JSON forms where they have one). A job's error is the tool's error text.
public enum ToolRunner {
  /// What a call answered: its text, warnings as further texts, and whether it failed.
  public struct Output: Sendable, Equatable {
    public var text: String
    public var warnings: [String] = []
    public var isError = false
  }

  public static func run(_ call: RippleToolCall, open: @Sendable () throws -> Workspace) async -> Output {
    do {
      return try await answer(call, in: try open())
    } catch {
      return Output(text: "error: \(error)", isError: true)
    }
  }

  static func answer(_ call: RippleToolCall, in workspace: Workspace) async throws -> Output {
    switch call {
    case .affected(let revisions):
      let report = try await workspace.affected(revisions.request).report
      return Output(text: AffectedFormatter.json(report))
    case .explain(let target, let revisions):
      let outcome = try await workspace.affected(revisions.request)
      return Output(text: try outcome.explain(target).joined(separator: "\n"), warnings: outcome.report.warnings)
    case .testPlan(let revisions, let all):
      let plan = try await workspace.planTests(TestRequest(scope: all ? .everything : .affected(revisions.request)))
      return Output(text: plan.planJSON(), warnings: plan.warnings)
    case .flaky(let since):
      let window: FlakyWindow
      do { window = try FlakyWindow.parse(since) } catch { return Output(text: "error: \(error)", isError: true) }
      let (tests, warnings) = await workspace.flakyTests(within: window)
      return Output(text: FlakyReport.json(tests, since: since), warnings: warnings)
    case .dependencies(let target, let transitive):
      return try await neighbours(of: target, .dependencies, transitive: transitive, in: workspace)
    case .dependents(let target, let transitive):
      return try await neighbours(of: target, .dependents, transitive: transitive, in: workspace)
    }
  }

  /// `{"direction": "dependents", "target": "pkg:Name", "targets": ["pkg:Other", …], "transitive": false}`, over
  /// the graph `ripple graph` prints.
  static func neighbours(
    of target: String, _ direction: GraphNeighbours.Direction, transitive: Bool, in workspace: Workspace
  ) async throws -> Output {
    let graph = try await workspace.graphWithXcodeProjects()
    let ref = try TargetLookup.resolve(target, in: graph)
    let found = GraphNeighbours.of(ref, in: graph, direction: direction, transitive: transitive)
    struct Document: Encodable {
      var direction: String
      var target: String
      var targets: [String]
      var transitive: Bool
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    let document = Document(
      direction: direction.rawValue, target: ref.description, targets: found.map(\.description), transitive: transitive)
    return Output(text: String(decoding: try encoder.encode(document), as: UTF8.self))
  }
}

extension RippleToolCall.Revisions {
  /// The request `ripple affected --base … --head …` makes.
  var request: AffectedRequest {
    AffectedRequest(changes: ChangeRequest(base: base, head: head, noMergeBase: noMergeBase), directOnly: direct)
  }
}
