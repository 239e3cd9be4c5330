/// The environment a manifest is evaluated in (docs/DESIGN.md, "Manifest cache"): only the entry's
/// variables (`selection.manifestEnvironments`) and the few a toolchain needs, so that what the cache holds
/// is what was computed: a variable of the user's shell can no longer reach an evaluation whose key does
/// not name it. Every value passed enters the evaluation's cache key.
public enum ManifestEnvironment {
  /// Variables a toolchain or SwiftPM reads to find itself, its caches and its locale.
  public static let toolchainVariables: Set<String> = [
    "PATH", "HOME", "LANG", "LC_ALL", "LC_CTYPE", "CFFIXED_USER_HOME", "XDG_CONFIG_HOME",
    "DEVELOPER_DIR", "SDKROOT", "TOOLCHAINS", "SWIFT_EXEC", "SWIFT_EXEC_MANIFEST", "CC", "CXX",
  ]
  /// Where a toolchain keeps caches: passed through, not keyed (they change where, not what, it computes).
  public static let cacheLocations: Set<String> = ["TMPDIR", "CLANG_MODULE_CACHE_PATH", "XDG_CACHE_HOME"]
  /// Prefixes of variables SwiftPM honours (`SWIFTPM_*`).
  public static let toolchainPrefixes = ["SWIFTPM_"]

  public static func isToolchainVariable(_ name: String) -> Bool {
    toolchainVariables.contains(name) || toolchainPrefixes.contains { name.hasPrefix($0) }
  }

  /// The variables to set and remove for one evaluation (`process`), and what its cache key holds (`key`):
  /// every inherited variable but the toolchain's removed (those stay inherited, so that what a process
  /// client layers on top, such as rippled's sandbox giving a run its own home, still applies), their values
  /// keyed, then the entry's `effective` variables (set, or removed as nil) on top.
  public static func scrubbed(
    inherited: [String: String], effective: [String: String?]
  ) -> (process: [String: String?], key: [String: String?]) {
    var process: [String: String?] = [:]
    var key: [String: String?] = [:]
    for (name, value) in inherited where !cacheLocations.contains(name) {
      if isToolchainVariable(name) {
        key[name] = value
      } else {
        process[name] = .some(nil)
      }
    }
    for (name, value) in effective {
      process[name] = value
      key[name] = value
    }
    return (process, key)
  }

  /// The variables a manifest's text reads by name (`environment["NAME"]`, `getenv("NAME")`): what a build,
  /// which evaluates the manifest in the whole shell, may see and an evaluation in a scrubbed environment
  /// does not.
  public static func variablesRead(bySource source: String) -> Set<String> {
    var names: Set<String> = []
    // Most manifests read no variable: a search of their bytes skips the expressions (every keyed run asks).
    if holds(source, "environment") {
      for match in source.matches(of: /environment\s*\[\s*"([A-Za-z_][A-Za-z0-9_]*)"\s*\]/) {
        names.insert(String(match.output.1))
      }
    }
    if holds(source, "getenv") {
      for match in source.matches(of: /getenv\s*\(\s*"([A-Za-z_][A-Za-z0-9_]*)"\s*\)/) {
        names.insert(String(match.output.1))
      }
    }
    return names
  }

  /// Whether `text` holds `word`, by a loop over its bytes (the generic `firstRange(of:)` cost 6 ms on one
  /// 8 KB manifest: more than the rest of a leaf's key).
  static func holds(_ text: String, _ word: StaticString) -> Bool {
    var text = text
    return text.withUTF8 { bytes in
      word.withUTF8Buffer { needle in
        guard let first = needle.first, needle.count <= bytes.count else { return needle.isEmpty }
        var index = 0
        while index <= bytes.count - needle.count {
          if bytes[index] == first {
            var offset = 1
            while offset < needle.count, bytes[index + offset] == needle[offset] { offset += 1 }
            if offset == needle.count { return true }
          }
          index += 1
        }
        return false
      }
    }
  }
}

extension ManifestEnvironment {
  /// Variables that pick another compiler, SDK or package manager behaviour for a build without changing
  /// what `swift --version` answers: every pass-record key holds their values.
  public static let toolchainSelecting: Set<String> = [
    "SWIFT_EXEC", "SWIFT_EXEC_MANIFEST", "CC", "CXX", "SDKROOT", "TOOLCHAINS", "DEVELOPER_DIR",
  ]

  public static func selectsToolchain(_ name: String) -> Bool {
    toolchainSelecting.contains(name) || toolchainPrefixes.contains { name.hasPrefix($0) }
  }
}
