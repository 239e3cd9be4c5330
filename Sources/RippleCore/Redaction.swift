import Foundation

/// Makes URLs and free text safe to print: no userinfo, no query string, no fragment.
///
/// Presigned S3/CDN URLs carry their signature in the query string (`X-Amz-Signature`, `token=`),
/// and `https://user:password@host/` carries a password, so neither may reach a log, an error, a receipt or
/// the dashboard. Every URL Ripple prints, and every tool output it quotes (git, git-lfs, a `urlCommand`'s
/// stderr), goes through here; a run-time link (`urlEnv`, `urlCommand`) shows its `origin` only.
public enum Redaction {
  /// `https://user:pw@host:8443/a/b?sig=x#f` → `https://host:8443/a/b`.
  public static func url(_ string: String) -> String {
    var rest = Substring(string)
    if let cut = rest.firstIndex(where: { $0 == "?" || $0 == "#" }) {
      rest = rest[..<cut]
    }
    guard let schemeEnd = rest.range(of: "://") else { return String(rest) }
    let scheme = rest[..<schemeEnd.upperBound]
    var remainder = rest[schemeEnd.upperBound...]
    let authorityEnd = remainder.firstIndex(of: "/") ?? remainder.endIndex
    if let at = remainder[..<authorityEnd].lastIndex(of: "@") {
      remainder = remainder[remainder.index(after: at)...]
    }
    return String(scheme) + String(remainder)
  }

  /// `https://user:pw@host:8443/a/b?sig=x` → `https://host:8443`: all that may be shown of a secret link.
  public static func origin(_ string: String) -> String {
    let redacted = url(string)
    guard let schemeEnd = redacted.range(of: "://") else { return "(a URL, not shown)" }
    let rest = redacted[schemeEnd.upperBound...]
    return String(redacted[..<schemeEnd.upperBound]) + String(rest.prefix { $0 != "/" })
  }

  /// `https://host/a/b?sig=x` → `/a/b?sig=x` (empty without a path or query).
  public static func pathAndQuery(_ string: String) -> String {
    guard let schemeEnd = string.range(of: "://") else { return string }
    let rest = string[schemeEnd.upperBound...]
    return String(rest.drop { $0 != "/" && $0 != "?" && $0 != "#" })
  }

  /// Redacts every URL-looking word of `text` (tool output and library errors quote URLs), every query string
  /// (`/sign?token=abc` → `/sign`), every `user:password@` (git's `x-access-token:…@github.com`), and replaces
  /// each known secret value with `***`.
  public static func text(_ text: String, secrets: [String] = []) -> String {
    var result = text
    for secret in secrets where secret.count >= 4 {
      result = result.replacingOccurrences(of: secret, with: "***")
    }
    var output = ""
    var word = ""
    for character in result {
      if character.isWhitespace {
        output += redactedWord(word) + String(character)
        word = ""
      } else {
        word.append(character)
      }
    }
    return output + redactedWord(word)
  }

  private static func redactedWord(_ word: String) -> String {
    if word.contains("://") { return url(word) }
    var word = Substring(word)
    if let question = word.firstIndex(of: "?"), word[question...].contains("=") {
      word = word[..<question]
    }
    // `user:secret@host` without a scheme: drop from the start of that part to the `@`.
    if let at = word.lastIndex(of: "@") {
      let start = word[..<at].lastIndex(where: { "'\"(<=,;/".contains($0) }).map(word.index(after:)) ?? word.startIndex
      if word[start..<at].contains(":") { word = word[..<start] + word[word.index(after: at)...] }
    }
    return String(word)
  }
}
