/// The three directories the daemon writes to, once the defaults are applied.
public struct DaemonDirectories: Sendable, Hashable {
  /// The runs database.
  public var state: String
  /// Mirrors, worktrees, build folders, asset and manifest caches.
  public var cache: String
  /// Run logs.
  public var logs: String

  public init(state: String, cache: String, logs: String) {
    self.state = state
    self.cache = cache
    self.logs = logs
  }
}

extension DaemonConfiguration {
  /// The directories from the config, else from systemd (`$STATE_DIRECTORY`, `$CACHE_DIRECTORY`,
  /// `$LOGS_DIRECTORY`; the first entry when systemd lists several, `:`-separated), else the XDG ones
  /// (`$XDG_STATE_HOME/rippled`, `$XDG_CACHE_HOME/rippled`, relative values ignored as the spec says),
  /// else `~/.local/state/rippled` and `~/.cache/rippled`. Logs default to `<state>/logs`.
  public func directories(environment: [String: String], homeDirectory: String) -> DaemonDirectories {
    func systemd(_ name: String) -> String? {
      guard let value = environment[name], let first = value.split(separator: ":").first, first.hasPrefix("/")
      else { return nil }
      return String(first)
    }
    func xdg(_ name: String, _ fallback: String) -> String {
      if let base = environment[name], base.hasPrefix("/") { return DaemonPath.normalize(base + "/rippled") }
      return DaemonPath.normalize(homeDirectory + "/" + fallback + "/rippled")
    }
    let state = stateDirectory ?? systemd("STATE_DIRECTORY") ?? xdg("XDG_STATE_HOME", ".local/state")
    let cache = cacheDirectory ?? systemd("CACHE_DIRECTORY") ?? xdg("XDG_CACHE_HOME", ".cache")
    let logs = logsDirectory ?? systemd("LOGS_DIRECTORY") ?? DaemonPath.normalize(state + "/logs")
    return DaemonDirectories(state: state, cache: cache, logs: logs)
  }
}
