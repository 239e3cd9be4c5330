/// What a sandboxed process may see and change, and the bubblewrap (`bwrap`) command line that enforces it.
///
/// Pure: the caller passes absolute paths that exist (directories to hide or bind, files to hide) and gets
/// an argv prefix back. The whole file system is read-only; `hiddenDirectories` become empty read-only
/// tmpfs folders (a write there fails with EROFS), `hiddenFiles` read as empty
/// (`/dev/null` bound over them), `readOnly` folders inside a hidden one are shown again read-only, and
/// `writable` ones read-write. Mounts are made parents first, so a deeper rule wins over the folder that
/// holds it (a work tree is writable inside the hidden cache folder, its `.git` read-only again).
///
/// The network: with `isolatesNetwork` (`runs.network: isolated`), a network namespace of the process's own with
/// only its loopback (`--unshare-net`): it reaches nothing the host listens on, rippled's API on any address
/// included, nor anything outside; a server it starts on 127.0.0.1 is its own. Without, the host's network.
///
/// What stays as the caller has it:
/// - the session and process group: no `--new-session`, whose `setsid()` would take the command out of the
///   session and group that `ProcessGroupReaper` signals (SIGINT, SIGTERM, SIGKILL). bwrap already runs in
///   a session of its own without a controlling terminal. bwrap itself dies of the SIGINT while the
///   command, in the same group, gets it too and stops as it would without the sandbox; SIGKILL follows;
/// - no `--die-with-parent`: it would turn bwrap's death on that first SIGINT into an immediate SIGKILL of
///   the command, skipping its graceful stop. A daemon killed with `kill -9` stops the recorded groups at
///   its next start instead.
///
/// The process gets its own PID namespace (`--unshare-pid`, a fresh `/proc`): it cannot see, signal or
/// trace the daemon or other runs, which would otherwise let it act as the daemon's user outside the
/// sandbox. Whatever it leaves running there is killed with the namespace when the command ends
/// (`SandboxRemains`, `ProcessClient.sandboxed`). Every capability is dropped (`--cap-drop ALL`): bwrap
/// started by root keeps them all otherwise (`mount -o remount,rw /` works inside); started by another
/// user it runs the command without any already, and accepts the option all the same (bubblewrap 0.8).
public struct SandboxPolicy: Sendable, Hashable {
  public var hiddenDirectories: [String]
  public var hiddenFiles: [String]
  public var readOnly: [String]
  public var writable: [String]
  /// A network namespace of its own with only loopback (`--unshare-net`); false: the host's network.
  public var isolatesNetwork: Bool

  public init(
    hiddenDirectories: [String] = [], hiddenFiles: [String] = [], readOnly: [String] = [], writable: [String] = [],
    isolatesNetwork: Bool = false
  ) {
    self.hiddenDirectories = hiddenDirectories
    self.hiddenFiles = hiddenFiles
    self.readOnly = readOnly
    self.writable = writable
    self.isolatesNetwork = isolatesNetwork
  }

  /// The mounts every sandbox starts with, also what `SandboxProbe` runs `true` under: the root read-only,
  /// a private `/dev` (null, zero, random, tty, its own `/dev/shm`), a PID namespace and its `/proc`, no
  /// capabilities.
  public static let baseArguments = [
    "--ro-bind", "/", "/", "--dev", "/dev", "--unshare-pid", "--proc", "/proc", "--cap-drop", "ALL",
  ]

  /// What `isolatesNetwork` adds to `baseArguments`.
  public static let networkArguments = ["--unshare-net"]

  /// The argv prefix: `bwrap` and its options up to `--`, to be followed by the command and its arguments.
  /// `workingDirectory`: where the command starts (bwrap's `--chdir`).
  public func prefix(bwrap: String, workingDirectory: String?) -> [String] {
    enum Kind: Int { case hiddenDirectory, hiddenFile, readOnly, writable }
    var mounts: [(path: String, kind: Kind)] = []
    mounts += hiddenDirectories.map { (Self.normalized($0), .hiddenDirectory) }
    mounts += hiddenFiles.map { (Self.normalized($0), .hiddenFile) }
    mounts += readOnly.map { (Self.normalized($0), .readOnly) }
    mounts += writable.map { (Self.normalized($0), .writable) }
    // Parents first; at the same depth, hiding before showing again. Stable, so the order given is kept.
    let ordered = mounts.enumerated().sorted { left, right in
      let (a, b) = (Self.depth(left.element.path), Self.depth(right.element.path))
      if a != b { return a < b }
      if left.element.kind != right.element.kind { return left.element.kind.rawValue < right.element.kind.rawValue }
      return left.offset < right.offset
    }
    var arguments = [bwrap] + Self.baseArguments + (isolatesNetwork ? Self.networkArguments : [])
    for (_, mount) in ordered {
      switch mount.kind {
      case .hiddenDirectory: arguments += ["--tmpfs", mount.path]
      case .hiddenFile: arguments += ["--ro-bind", "/dev/null", mount.path]
      case .readOnly: arguments += ["--ro-bind", mount.path, mount.path]
      case .writable: arguments += ["--bind", mount.path, mount.path]
      }
    }
    // Hidden folders are read-only too, once the folders shown inside them are mounted: a write there
    // fails (EROFS) instead of vanishing with the sandbox.
    for path in hiddenDirectories.map(Self.normalized) { arguments += ["--remount-ro", path] }
    if let workingDirectory { arguments += ["--chdir", workingDirectory] }
    return arguments + ["--"]
  }

  /// `request` run inside this sandbox: bwrap as the executable, the command after `--`. The environment
  /// and timeout stay on the request (bwrap passes the environment on). The request's own `TMPDIR`, when
  /// it sets one, is writable too (`writableTemporary`): Ripple gives each `dump-package` batch and
  /// `swift --version` a private one, and SwiftPM fails without a writable TMPDIR.
  public func wrap(_ request: ProcessRequest, bwrap: String) -> ProcessRequest {
    var wrapped = request
    var policy = self
    if let temporary = writableTemporary(request) { policy.writable.append(temporary) }
    let prefix = policy.prefix(bwrap: bwrap, workingDirectory: request.workingDirectory)
    wrapped.executable = prefix[0]
    wrapped.arguments = Array(prefix.dropFirst()) + [request.executable] + request.arguments
    return wrapped
  }

  /// The request's TMPDIR when it may be made writable: an absolute path whose nearest rule is writable or
  /// none, and that holds no hidden or read-only path. Never a folder this policy hides or shows read-only
  /// (the manifest cache, a mirror), whoever set the variable: nothing shared becomes writable.
  public func writableTemporary(_ request: ProcessRequest) -> String? {
    guard case let temporary?? = request.environment["TMPDIR"], temporary.hasPrefix("/") else { return nil }
    let path = Self.normalized(temporary)
    let protected = hiddenDirectories + hiddenFiles + readOnly
    if protected.map(Self.normalized).contains(where: { Self.isInside($0, path) && $0 != path }) { return nil }
    let rules = protected.map { (Self.normalized($0), false) } + writable.map { (Self.normalized($0), true) }
    let nearest = rules.filter { Self.isInside(path, $0.0) }.max { Self.depth($0.0) < Self.depth($1.0) }
    return (nearest?.1 ?? true) ? path : nil
  }

  /// Whether `path` is `folder` or below it (both normalized).
  static func isInside(_ path: String, _ folder: String) -> Bool {
    folder == "/" || path == folder || path.hasPrefix(folder + "/")
  }

  /// `/a/b/` → `/a/b`, `/a//b` → `/a/b` (bwrap takes paths as written; duplicates would mount twice).
  static func normalized(_ path: String) -> String {
    let parts = path.split(separator: "/", omittingEmptySubsequences: true)
    return "/" + parts.joined(separator: "/")
  }

  static func depth(_ path: String) -> Int {
    path.split(separator: "/", omittingEmptySubsequences: true).count
  }
}
