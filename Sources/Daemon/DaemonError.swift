import RippleCore

/// Why the daemon cannot start or go on: each names the file, address or key to fix.
public enum DaemonError: RippleError {
  case directory(path: String, reason: String)
  case alreadyRunning(lockFile: String)
  case store(String)
  case secretFile(path: String, key: String)
  /// `records.signingKeyFile` holds something that is not a signing key; `problem` says what.
  case signingKey(path: String, problem: String)
  case source(repository: String, reason: String)
  case listen(address: String, configFile: String?, reason: String)
  /// `runs.sandbox: required` and bwrap does not work here.
  case sandboxUnavailable(reason: String)

  public var category: ErrorCategory {
    switch self {
    case .secretFile, .signingKey: .usage
    default: .environment
    }
  }

  public var description: String {
    switch self {
    case .directory(let path, let reason):
      "cannot create or use '\(path)': \(reason); check the owner and permissions (the unit's StateDirectory= etc.)"
    case .alreadyRunning(let lockFile):
      "another rippled is already using this state folder (\(lockFile) is locked); stop it first, "
        + "or give this one its own stateDirectory"
    case .store(let message): message
    case .secretFile(let path, let key):
      "\(key): cannot read a non-empty secret from '\(path)'; create it (readable by the service user only)"
    case .signingKey(let path, let problem):
      "records.signingKeyFile: '\(path)' \(problem)"
    case .source(let repository, let reason): "repository \(repository): \(reason)"
    case .listen(let address, let configFile, let reason):
      "cannot listen on \(address) (http.address"
        + (configFile.map { " in \($0)" } ?? "")
        + "): \(reason); stop what uses that port, or set http.address to a free one"
    case .sandboxUnavailable(let reason):
      "runs.sandbox is `required` and the sandbox is unavailable: \(reason). Install bubblewrap and allow "
        + "unprivileged user namespaces, or set runs.sandbox to auto or off (then a branch's processes can write "
        + "the daemon's state, cache, tokens and logs)"
    }
  }
}
