import Foundation

/// Compares remote URLs the way people write them: scheme, user, `.git` suffix, trailing slash and case of
/// the host do not matter; `git@host:owner/name` equals `https://host/owner/name`.
package enum RemoteURL {
  package static func normalized(_ url: String) -> String {
    var text = url.trimmingCharacters(in: .whitespaces)
    var hadScheme = false
    if let range = text.range(of: "://") {
      text = String(text[range.upperBound...])
      hadScheme = true
    }
    if text.hasPrefix("/") {  // a local path: only the suffixes differ
      return stripped(text)
    }
    if let at = text.firstIndex(of: "@"), !text[..<at].contains("/") { text = String(text[text.index(after: at)...]) }
    // scp-like `host:owner/name`; with a scheme, `host:port/...` keeps its port.
    if !hadScheme, let colon = text.firstIndex(of: ":"), !text[..<colon].contains("/") {
      text = text[..<colon] + "/" + text[text.index(after: colon)...]
    }
    text = stripped(text)
    guard let slash = text.firstIndex(of: "/") else { return text.lowercased() }
    return text[..<slash].lowercased() + text[slash...]
  }

  private static func stripped(_ path: String) -> String {
    var text = path
    while text.hasSuffix("/") { text.removeLast() }
    if text.hasSuffix(".git") { text.removeLast(4) }
    return text
  }
}
