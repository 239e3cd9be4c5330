import ArgumentParser

/// `ripple results keygen`: pass records' signing keys (docs/DESIGN.md, "Pass records").
struct ResultsCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "results",
    abstract: "Pass records: make the signing key of trusted writers.",
    subcommands: [ResultsKeygenCommand.self]
  )
}
