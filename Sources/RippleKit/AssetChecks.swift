import Foundation
import RippleConfig

/// `ripple doctor`'s checks for what the `assets:` manifest needs: transform and `generate:` tools on PATH, and the
/// credentials it names (that they are set; whether the server accepts them is `ripple bootstrap`'s
/// access check).
enum AssetChecks {
  static func tools(_ config: AssetsConfig, environment: [String: String]) -> [DoctorCheck] {
    var seen: Set<String> = []
    // Transform tools, then the commands (and toolchain commands) of `generate:` entries found on PATH;
    // a repo-relative command (`Bootstrap/x.sh`) is checked by `ripple bootstrap` itself.
    let uses =
      config.assets.compactMap { asset in asset.transform.map { ($0.command[0], "asset \(asset.id) transforms") } }
      + config.assets.compactMap { asset in
        if case .lfs = asset.source { ("git-lfs", "asset \(asset.id) fetches Git LFS objects") } else { nil }
      }
      + config.generate.flatMap { entry in
        ([entry.command[0]] + (entry.toolchain.map { [$0[0]] } ?? [])).filter { !$0.contains("/") }.map {
          ($0, "generate \(entry.id) runs")
        }
      }
    return uses.compactMap { tool, user -> DoctorCheck? in
      guard seen.insert(tool).inserted else { return nil }
      if let path = which(tool, environment: environment) {
        return DoctorCheck(name: "tool \(tool)", ok: true, detail: "\(path) (\(user) with it)", fix: nil)
      }
      return DoctorCheck(
        name: "tool \(tool)", ok: false, detail: "`\(tool)` is not on PATH; \(user) with it",
        fix: "install it, e.g. `sudo apt-get install \(tool)` or `brew install \(tool)`")
    }
  }

  static func credentials(_ config: AssetsConfig, environment: [String: String]) -> [DoctorCheck] {
    config.assets.compactMap { asset -> DoctorCheck? in
      let name = "credentials \(asset.id)"
      // A run-time URL is the asset's credential: its variable set, or its command on PATH (never run here).
      switch asset.source {
      case .runtimeURL(.environment(let variable)):
        return variableCheck(name, [variable], environment)
      case .runtimeURL(.command(let argv)):
        if let path = which(argv[0], environment: environment) {
          return DoctorCheck(name: name, ok: true, detail: "urlCommand `\(argv[0])` at \(path)", fix: nil)
        }
        return DoctorCheck(
          name: name, ok: true,
          detail: "urlCommand `\(argv[0])` is not on PATH: `ripple bootstrap` installs placeholders instead",
          fix: "install `\(argv[0])` and log in, if you have access to the private assets", isWarning: true)
      default:
        break
      }
      switch asset.credentials {
      case .none:
        return nil
      case .bearerTokenEnvironment(let variable):
        return variableCheck(name, [variable], environment)
      case .awsEnvironment(let access, let secret, _):
        return variableCheck(name, [access, secret], environment)
      case .netrc(let path):
        let file = path ?? environment["NETRC"] ?? ((environment["HOME"] ?? NSHomeDirectory()) + "/.netrc")
        let exists = FileManager.default.isReadableFile(atPath: file)
        return DoctorCheck(
          name: name, ok: true, detail: exists ? "netrc \(file)" : "no readable netrc at \(file): placeholders instead",
          fix: exists ? nil : "create \(file) (mode 0600) with a `machine <host> login <user> password <token>` line",
          isWarning: !exists)
      }
    }
  }

  /// Names the variables, never their values.
  private static func variableCheck(_ name: String, _ variables: [String], _ environment: [String: String])
    -> DoctorCheck
  {
    let unset = variables.filter { (environment[$0] ?? "").isEmpty }
    if unset.isEmpty {
      return DoctorCheck(name: name, ok: true, detail: "\(variables.joined(separator: ", ")) set", fix: nil)
    }
    return DoctorCheck(
      name: name, ok: true,
      detail: "\(unset.joined(separator: ", ")) not set: `ripple bootstrap` installs placeholders instead",
      fix: "export \(unset.map { "\($0)=…" }.joined(separator: " ")) (ask whoever manages the assets)", isWarning: true)
  }

  static func which(_ tool: String, environment: [String: String]) -> String? {
    if tool.contains("/") { return FileManager.default.isExecutableFile(atPath: tool) ? tool : nil }
    for directory in (environment["PATH"] ?? "").split(separator: ":") {
      let candidate = "\(directory)/\(tool)"
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
  }
}
