import ArgumentParser

/// `ripple shards check`: the shards of one sharded job (docs/DESIGN.md, "One plan per sharded job").
struct ShardsCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "shards",
    abstract: "Sharded jobs: prove that their shards ran every planned test exactly once.",
    subcommands: [ShardsCheckCommand.self]
  )
}
