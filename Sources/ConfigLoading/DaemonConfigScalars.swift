import Foundation
import RippleConfig
import RippleCore
import Yams

// Typed scalar readers for `rippled.yml` and the `daemon:` section of `ripple.yml`: durations, sizes,
// listen addresses, counts and paths. Each error names the key and line and shows the accepted forms.
extension YAMLValue {
  static let durationForms = "write a whole number and a unit: 250ms, 30s, 5m, 2h or 30d"
  static let sizeForms = "write a number of bytes or a whole number and a unit: 512KiB, 10MiB, 1GiB"

  /// `250ms`, `30s`, `5m`, `2h`, `30d`: a positive whole number with a unit.
  func duration() throws -> Duration {
    let text = try scalarText()
    guard let (number, unit) = Self.numberAndUnit(text) else {
      throw error("`\(text)` is not a duration", hint: Self.durationForms)
    }
    let milliseconds: Int64
    switch unit {
    case "ms": milliseconds = 1
    case "s": milliseconds = 1000
    case "m": milliseconds = 60_000
    case "h": milliseconds = 3_600_000
    case "d": milliseconds = 86_400_000
    case "": throw error("`\(text)` has no unit", hint: Self.durationForms)
    default: throw error("`\(text)` is not a duration: unknown unit `\(unit)`", hint: Self.durationForms)
    }
    guard number > 0 else { throw error("a duration must be more than zero", hint: Self.durationForms) }
    let (total, overflow) = number.multipliedReportingOverflow(by: milliseconds)
    guard !overflow, total <= 100 * 365 * 86_400_000 else {
      throw error("`\(text)` is too long", hint: "at most 100 years")
    }
    return .milliseconds(total)
  }

  /// A number of bytes (`1048576`) or a whole number with a binary unit (`512KiB`, `10MiB`, `1GiB`).
  func byteSize() throws -> Int {
    let text = try scalarText()
    guard let (number, unit) = Self.numberAndUnit(text) else {
      throw error("`\(text)` is not a size", hint: Self.sizeForms)
    }
    let multiplier: Int64
    switch unit {
    case "", "B": multiplier = 1
    case "KiB": multiplier = 1 << 10
    case "MiB": multiplier = 1 << 20
    case "GiB": multiplier = 1 << 30
    case "TiB": multiplier = 1 << 40
    case "K", "KB", "k", "kB", "M", "MB", "G", "GB", "T", "TB":
      let binary = unit.prefix(1).uppercased() + "iB"
      throw error(
        "`\(text)` uses a decimal unit", hint: "sizes use binary units: write `\(number)\(binary)`")
    default: throw error("`\(text)` is not a size: unknown unit `\(unit)`", hint: Self.sizeForms)
    }
    guard number > 0 else { throw error("a size must be more than zero", hint: Self.sizeForms) }
    let (total, overflow) = number.multipliedReportingOverflow(by: multiplier)
    guard !overflow, total <= Int64(Int.max) else { throw error("`\(text)` is too large") }
    return Int(total)
  }

  /// A whole number of at least `minimum`.
  func count(atLeast minimum: Int) throws -> Int {
    guard case .scalar(let scalar) = node, tagName == .int,
      let number = Int(scalar.string.filter { $0 != "_" })
    else {
      throw error("expected a whole number, found \(typeDescription)")
    }
    guard number >= minimum else { throw error("must be at least \(minimum), found \(number)") }
    return number
  }

  /// `host:port` or `[v6]:port`; port 0 (pick a free port) to 65535. The host comes back without brackets.
  func listenAddress() throws -> (host: String, port: Int) {
    let text = try scalarText()
    let forms = "write host:port, e.g. 127.0.0.1:7878, localhost:7878, [::1]:7878 or 0.0.0.0:7878"
    let host: Substring
    let portText: Substring
    if text.hasPrefix("[") {
      guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else {
        throw error("`\(text)` is not an address", hint: forms)
      }
      host = text[text.index(after: text.startIndex)..<close]
      portText = text[text.index(close, offsetBy: 2)...]
      // `fe80::1%eth0`: hex digits, colons and dots, then an optional zone (an interface name).
      let address = host.prefix { $0 != "%" }
      let zone = host.dropFirst(address.count + 1)
      guard address.contains(":"), address.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }),
        !host.contains("%") || !zone.isEmpty,
        zone.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "." || $0 == "_" || $0 == "-" })
      else {
        throw error("`\(host)` is not an IPv6 address", hint: forms)
      }
    } else {
      guard let colon = text.lastIndex(of: ":") else {
        throw error("`\(text)` has no port", hint: forms)
      }
      host = text[..<colon]
      portText = text[text.index(after: colon)...]
      if host.contains(":") {
        throw error("`\(text)` is ambiguous", hint: "put an IPv6 address in brackets: [\(host)]:\(portText)")
      }
      if host.isEmpty {
        throw error("`\(text)` has no host", hint: "write 127.0.0.1 for this machine only, 0.0.0.0 or [::] for all")
      }
      let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_")
      guard host.allSatisfy(allowed.contains) else { throw error("`\(host)` is not a host name", hint: forms) }
    }
    guard !portText.isEmpty, portText.allSatisfy(\.isASCIIDigit), let port = Int(portText), port <= 65_535 else {
      throw error("`\(portText)` is not a port", hint: "a port is 0 to 65535 (0 picks a free port)")
    }
    return (String(host), port)
  }

  /// A file or directory path; `~` is the home directory and a relative path is relative to the
  /// directory of the config file. The result is absolute and lexically normalized.
  func path() throws -> String {
    let text = try string()
    guard !text.isEmpty else { throw error("the path is empty") }
    guard !text.contains("\0") else { throw error("the path contains a NUL character") }
    return DaemonPath.resolve(text, configFile: file)
  }

  /// A path, or nil for a null value (`tokenFile:` or `tokenFile: ~` means not set).
  func optionalPath() throws -> String? {
    isNull ? nil : try path()
  }

  /// `"123"` → (123, ""), `"10MiB"` → (10, "MiB"); nil when there are no leading digits or when a
  /// letter is followed by a digit again (`1m30s`).
  fileprivate static func numberAndUnit(_ text: String) -> (Int64, String)? {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    let digits = trimmed.prefix { $0.isASCIIDigit || $0 == "_" }
    let unit = trimmed.dropFirst(digits.count)
    guard !digits.isEmpty, let number = Int64(digits.filter { $0 != "_" }), unit.allSatisfy(\.isLetter) else {
      return nil
    }
    return (number, String(unit))
  }
}

extension Character {
  fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}

/// Turns the paths written in a daemon config into absolute ones.
enum DaemonPath {
  /// `~` and `~/x` → the home directory; relative → against the config file's directory (itself made
  /// absolute against the current directory); then `.`, `..` and doubled slashes are removed.
  static func resolve(_ path: String, configFile: String) -> String {
    if path == "~" || path.hasPrefix("~/") {
      return normalize(homeDirectory + "/" + path.dropFirst())
    }
    if path.hasPrefix("/") { return normalize(path) }
    return normalize(directory(of: configFile) + "/" + path)
  }

  static func directory(of file: String) -> String {
    let absolute = file.hasPrefix("/") ? file : FileManager.default.currentDirectoryPath + "/" + file
    let parts = normalize(absolute).split(separator: "/")
    return "/" + parts.dropLast().joined(separator: "/")
  }

  static var homeDirectory: String { FileManager.default.homeDirectoryForCurrentUser.path }

  /// Lexical: no file-system access, symlinks are kept.
  static func normalize(_ path: String) -> String {
    var parts: [Substring] = []
    for part in path.split(separator: "/", omittingEmptySubsequences: true) {
      switch part {
      case ".": continue
      case "..": _ = parts.popLast()
      default: parts.append(part)
      }
    }
    return "/" + parts.joined(separator: "/")
  }

  /// Whether a `remote:` is a URL (`https://…`, `ssh://…`, `file://…`) or scp-like (`git@host:owner/repo`),
  /// as opposed to a path on this machine. Git's rule: a colon before the first slash.
  static func isURL(_ remote: String) -> Bool {
    if remote.contains("://") { return true }
    guard let colon = remote.firstIndex(of: ":") else { return false }
    let slash = remote.firstIndex(of: "/") ?? remote.endIndex
    return colon < slash && colon != remote.startIndex
  }
}
