import RippleConfig
import RippleCore
import Yams

/// `canary:` and `notify:` of a rippled.yml repository.
enum CanaryNotifyParser {
  /// `{every: 24h, branch?: main}`; without `branch`, the first plain (glob-free) name of `branches`.
  static func canary(_ value: YAMLValue, branches: [BranchRule]) throws -> CanarySettings {
    let entries = try value.entries(allowed: ["every", "branch"], required: ["every"])
    let every = try entries["every"]!.duration()
    if let branch = entries["branch"] {
      let name = try branch.string()
      guard !name.isEmpty else { throw branch.error("the canary branch cannot be empty") }
      return CanarySettings(every: every, branch: name)
    }
    guard let plain = branches.first(where: { !$0.pattern.contains(where: { "*?[{".contains($0) }) }) else {
      throw value.error(
        "no primary branch for the canary: every entry of `branches` is a pattern",
        hint: "name it: canary: {every: 24h, branch: main}")
    }
    return CanarySettings(every: every, branch: plain.pattern)
  }

  /// `{webhook: URL}`: https, or http to a loopback host.
  static func notify(_ value: YAMLValue) throws -> NotifySettings {
    let entries = try value.entries(allowed: ["webhook"], required: ["webhook"])
    return NotifySettings(webhook: try entries["webhook"]!.webURL(allowLoopbackHTTP: true))
  }
}
