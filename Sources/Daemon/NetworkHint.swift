import Foundation
import RippleCore

/// One line in a run's log when a build fails to fetch a dependency in a network of its own
/// (`runs.network: isolated`): SwiftPM only says it could not resolve a host, which reads like an outage, not
/// like a setting of rippled's.
final class NetworkHint: Sendable {
  static let note =
    "note: runs.network is isolated: a run's processes have no network, so SwiftPM cannot fetch dependencies "
    + "here; give it local mirrors (git's url.<mirror>.insteadOf in /etc/gitconfig) or set runs.network: host "
    + "in rippled.yml (docs/DESIGN.md, \"Runs are isolated\", Network)"

  /// What SwiftPM and git print when a fetch finds no network.
  static let symptoms = [
    "Could not resolve host", "fetch updates from remote repositories", "Failed to clone repository",
    "Network is unreachable",
  ]

  private let isolated: Bool
  private let said = Locked(false)

  /// `isolated`: the run's processes are in a network namespace of their own (sandboxed, `runs.network:
  /// isolated`); otherwise no line is ever added.
  init(isolated: Bool) { self.isolated = isolated }

  /// The note, the first time an output line shows a fetch without network; nil otherwise.
  func note(after line: String) -> String? {
    guard isolated, Self.symptoms.contains(where: line.contains) else { return nil }
    return said.withLock { said in
      defer { said = true }
      return said ? nil : Self.note
    }
  }
}
