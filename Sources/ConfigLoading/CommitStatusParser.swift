import Foundation
import RippleConfig

/// Validates a repository's `status:` in `rippled.yml`.
enum CommitStatusParser {
  static let keys = ["provider", "api", "repository", "tokenFile", "context"]

  static func parse(_ value: YAMLValue) throws -> CommitStatusSettings {
    let entries = try value.entries(allowed: keys, required: ["provider", "api", "repository", "tokenFile"])
    let providerText = try entries["provider"]!.string()
    guard let provider = ForgeProvider(rawValue: providerText) else {
      throw entries["provider"]!.error(
        "`\(providerText)` is not a supported forge",
        hint: "expected one of: " + ForgeProvider.allCases.map(\.rawValue).joined(separator: ", "))
    }
    let api = try entries["api"]!.webURL(allowLoopbackHTTP: true).trimmingSuffix("/")
    let repository = try entries["repository"]!.scalarText()
    if provider != .gitlab {
      let parts = repository.split(separator: "/", omittingEmptySubsequences: false)
      guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty }) else {
        throw entries["repository"]!.error(
          "`\(repository)` is not an owner/name", hint: "write it as on the forge, e.g. pointfreeco/isowords")
      }
    } else if repository.isEmpty {
      throw entries["repository"]!.error("the GitLab project is empty", hint: "a project id or group/project path")
    }
    var settings = CommitStatusSettings(
      provider: provider, api: api, repository: repository, tokenFile: try entries["tokenFile"]!.path())
    if let context = entries["context"] {
      settings.context = try context.string()
      guard !settings.context.isEmpty else { throw context.error("the status context cannot be empty") }
    }
    return settings
  }
}

extension YAMLValue {
  /// An absolute `https://` URL, or `http://` to a loopback host (a stand-in on this machine).
  func webURL(allowLoopbackHTTP: Bool) throws -> String {
    let text = try string()
    guard let url = URLComponents(string: text), let scheme = url.scheme?.lowercased(), let host = url.host,
      !host.isEmpty
    else {
      throw error("`\(text)` is not a URL", hint: "write an absolute URL such as https://api.github.com")
    }
    let loopback = ["127.0.0.1", "localhost", "::1", "[::1]"].contains(host.lowercased())
    guard scheme == "https" || (scheme == "http" && allowLoopbackHTTP && loopback) else {
      throw error(
        "`\(text)` must use https", hint: "plain http is only allowed to a loopback address (127.0.0.1, ::1)")
    }
    return text
  }
}

extension String {
  func trimmingSuffix(_ suffix: String) -> String {
    var text = self
    while text.hasSuffix(suffix) { text.removeLast(suffix.count) }
    return text
  }
}
