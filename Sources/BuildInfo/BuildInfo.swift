/// What this binary is: the version (from VERSION, the one source of truth), and for release builds the
/// commit and the Swift version they were built with. `ripple --version`, `rippled --version`, the
/// dashboard, the archive and the Debian package all take the version from here or from VERSION.
///
/// BuildStamp.swift is a committed file, written by scripts/stamp-version.sh; release builds stamp the
/// commit into it and put it back afterwards, so ordinary builds never regenerate a source.
public enum BuildInfo {
  struct Stamp {
    var version: String
    /// `git describe` of the release build; empty for a development build.
    var commit: String
    /// `swift --version`'s number at the release build; empty for a development build.
    var swiftVersion: String
  }

  /// e.g. "0.3.0".
  public static var version: String { stamp.version }

  /// The commit of a release build, or nil for a development build.
  public static var commit: String? { stamp.commit.isEmpty ? nil : stamp.commit }

  /// The Swift version the binary was compiled with: the release build's `swift --version`, otherwise
  /// the compiler's language version as far as `#if compiler` tells.
  public static var swiftVersion: String {
    stamp.swiftVersion.isEmpty ? compilerVersion : stamp.swiftVersion
  }

  static var compilerVersion: String {
    #if compiler(>=6.5)
      return "6.5 or later"
    #elseif compiler(>=6.4)
      return "6.4"
    #elseif compiler(>=6.3)
      return "6.3"
    #elseif compiler(>=6.2)
      return "6.2"
    #elseif compiler(>=6.1)
      return "6.1"
    #else
      return "6.0"
    #endif
  }

  /// Ripple's licence (the repository's LICENSE file), as its SPDX identifier.
  public static let license = "Apache-2.0"

  /// `--version --verbose`: the program and version, then one `name: value` line each for the commit,
  /// the Swift version, the licence and the given run-time libraries (name and version).
  public static func verboseDescription(program: String, libraries: [(name: String, version: String)]) -> String {
    var lines = ["\(program) \(version)"]
    lines.append("commit: \(commit ?? "unknown (a development build; release builds record it)")")
    lines.append("swift: \(swiftVersion)")
    lines.append("license: \(license)")
    for library in libraries { lines.append("\(library.name): \(library.version)") }
    return lines.joined(separator: "\n")
  }

  /// True for `--version --verbose` (or `-v`), in either order and with nothing else.
  public static func asksForVerboseVersion(_ arguments: [String]) -> Bool {
    arguments.count == 2 && arguments.contains("--version")
      && (arguments.contains("--verbose") || arguments.contains("-v"))
  }
}
