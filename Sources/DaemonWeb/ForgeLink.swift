import Foundation

/// Where a forge shows a commit, built from the repository's remote URL as rippled.yml names it. Pure.
///
/// GitHub (`github.com`, or a host whose first label is `github`): `https://HOST/ORG/REPO/commit/SHA`; GitLab
/// (`gitlab.com`, or a host whose first label is `gitlab`): `https://HOST/GROUP/…/REPO/-/commit/SHA`. The remote may
/// be `https://`, `ssh://`, `git://` or scp-like (`git@host:org/repo.git`); user names, passwords and tokens are
/// dropped, and so are an ssh port, a query and a fragment (an https port is kept). No link for a local path,
/// another host, a path with characters a forge does not use, or a head that is not a commit id (`worktree`).
public enum ForgeLink {
  public enum Forge: String, Sendable, Hashable {
    case github, gitlab
  }

  /// The commit's page on its forge, or nil.
  public static func commitURL(remote: String, commit: String) -> String? {
    guard isCommitID(commit), let repository = repository(remote) else { return nil }
    let base = "https://\(repository.host)/\(repository.path.joined(separator: "/"))"
    switch repository.forge {
    case .github: return base + "/commit/" + commit.lowercased()
    case .gitlab: return base + "/-/commit/" + commit.lowercased()
    }
  }

  /// The forge, web host (with an https port) and path components of a remote, or nil when it is not on one.
  static func repository(_ remote: String) -> (forge: Forge, host: String, path: [String])? {
    var text = Substring(remote.trimmingCharacters(in: .whitespacesAndNewlines))
    var scheme: Substring?
    if let range = text.range(of: "://") {
      scheme = text[..<range.lowerBound].lowercased()[...]
      text = text[range.upperBound...]
    }
    guard let scheme = scheme.map(String.init) ?? (text.hasPrefix("/") ? nil : "scp"),
      ["https", "http", "ssh", "git", "git+ssh", "ssh+git", "scp"].contains(scheme)
    else { return nil }
    if let cut = text.firstIndex(where: { $0 == "?" || $0 == "#" }) { text = text[..<cut] }
    // The authority ends at the first `/` (or, scp-like, at the first `:`); credentials end at its last `@`.
    let separator: Character = scheme == "scp" ? ":" : "/"
    guard let end = text.firstIndex(of: separator) else { return nil }
    var authority = text[..<end]
    var path = text[text.index(after: end)...]
    if scheme == "scp" && authority.contains("/") { return nil }
    if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
    var host = authority.lowercased()
    var port = ""
    if let colon = host.lastIndex(of: ":"), !host.hasSuffix("]") {
      port = String(host[host.index(after: colon)...])
      host = String(host[..<colon])
      guard !port.isEmpty, port.allSatisfy(\.isASCIIDigit) else { return nil }
    }
    guard !host.isEmpty, host.allSatisfy({ $0.isASCIILetterOrDigit || $0 == "." || $0 == "-" }) else { return nil }
    let firstLabel = host.split(separator: ".").first.map(String.init) ?? ""
    let forge: Forge
    if host == "github.com" || host == "www.github.com" || firstLabel == "github" {
      forge = .github
    } else if host == "gitlab.com" || firstLabel == "gitlab" {
      forge = .gitlab
    } else {
      return nil
    }
    if host == "www.github.com" { host = "github.com" }
    if scheme == "https" && !port.isEmpty && port != "443" { host += ":" + port }
    while path.hasSuffix("/") { path = path.dropLast() }
    if path.hasSuffix(".git") { path = path.dropLast(4) }
    let components = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
    guard components.count >= 2, forge == .gitlab || components.count == 2,
      components.allSatisfy({ component in
        !component.isEmpty && component != "." && component != ".."
          && component.allSatisfy { $0.isASCIILetterOrDigit || "._-".contains($0) }
      })
    else { return nil }
    return (forge, host, components)
  }

  /// 40 (SHA-1) or 64 (SHA-256) ASCII hex digits.
  static func isCommitID(_ text: String) -> Bool {
    (text.utf8.count == 40 || text.utf8.count == 64) && text.allSatisfy(\.isASCIIHexDigitCharacter)
  }
}

extension Character {
  fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
  fileprivate var isASCIILetterOrDigit: Bool { isASCII && (isLetter || isNumber) }
  fileprivate var isASCIIHexDigitCharacter: Bool { isASCII && isHexDigit }
}
