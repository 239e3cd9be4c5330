import Affected
import ArgumentParser
import Foundation
import PackageModel
import RippleKit

enum GraphFormat: String, ExpressibleByArgument, CaseIterable {
  case dot, json
}

struct GraphCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "graph",
    abstract: "Print the package graph of the working tree (every package, target and edge)."
  )

  @OptionGroup var repository: RepositoryOptions

  @Option(help: "Output: dot (Graphviz) or json.")
  var format: GraphFormat = .dot

  func run() async throws {
    let graph = try await repository.openWorkspace().graphWithXcodeProjects()
    switch format {
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
