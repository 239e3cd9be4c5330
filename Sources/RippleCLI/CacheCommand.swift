import ArgumentParser

/// `ripple cache key|path|prune|stats`: the manifest cache, for CI caches (docs/DESIGN.md, section 7).
struct CacheCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "cache",
    abstract: "The manifest cache: its key for CI caches, its path, its size, and pruning.",
    subcommands: [CacheKeyCommand.self, CachePathCommand.self, CachePruneCommand.self, CacheStatsCommand.self]
  )
}
