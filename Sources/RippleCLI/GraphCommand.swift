import Affected
import ArgumentParser
import Foundation
import PackageModel
import RippleKit

enum GraphFormat: String, ExpressibleByArgument, CaseIterable {
  case tree, dot, json
}

struct GraphCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "graph",
    abstract: "Print the package graph of the working tree (every package, target and edge)."
  )

  @OptionGroup var repository: RepositoryOptions

  @Option(help: "Output: tree (the default on a terminal), dot (Graphviz; the default when piped) or json.")
  var format: GraphFormat?

  func run() async throws {
    let graph = try await repository.openWorkspace().graphWithXcodeProjects()
    switch format ?? (Terminal.standardOutput.isInteractive ? .tree : .dot) {
    case .tree:
      print(AffectedFormatter.tree(graph: graph), terminator: "")
    case .json:
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
      print(String(decoding: try encoder.encode(graph), as: UTF8.self))
    case .dot:
      let nothingAffected = AffectedReport(
        result: AffectedResult(), base: "", head: "worktree", mergeBase: nil, changedFiles: [])
      print(AffectedFormatter.dot(graph: graph, nothingAffected), terminator: "")
    }
  }
}
