import ArgumentParser
import RippleKit

struct DoctorCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "doctor",
    abstract: "Check what Ripple needs (libgit2, swift, the repository, config, cache) and say how to fix it."
  )

  @OptionGroup var repository: RepositoryOptions

  func run() async throws {
    let checks = await Doctor.run(
      directory: repository.resolvedDirectory, configPath: repository.config, services: .live)
    let color = Terminal.standardOutput.usesColor
    for check in checks {
      let (symbol, code) = !check.ok ? ("✗", "31") : check.isWarning ? ("!", "33") : ("✓", "32")
      print("\(color ? "\u{1B}[\(code)m\(symbol)\u{1B}[0m" : symbol) \(check.name): \(check.detail)")
      if let fix = check.fix, !check.ok || check.isWarning { print("    fix: \(fix)") }
    }
    let failed = checks.filter { !$0.ok }.count
    if failed > 0 {
      print("\(failed) check\(failed == 1 ? "" : "s") failed")
      throw ExitCode.failure
    }
  }
}
