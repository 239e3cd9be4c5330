import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One process as the sandbox's end looks at it: /proc's ids, its PID namespace and its command line.
public struct NamespacedProcess: Sendable, Equatable {
  public var pid: Int32
  public var parent: Int32
  public var group: Int32
  /// `/proc/<pid>/ns/pid`'s link (`pid:[4026532178]`).
  public var namespace: String
  public var command: String

  public init(pid: Int32, parent: Int32, group: Int32, namespace: String, command: String) {
    self.pid = pid
    self.parent = parent
    self.group = group
    self.namespace = namespace
    self.command = command
  }
}

/// What a sandboxed command leaves running once it has ended, and its end.
///
/// bwrap's outer process exits as soon as the command does, but the PID namespace's init (bwrap's too) waits
/// for every process left in the namespace (`nohup sleep 600 &`), ignores SIGTERM, and no one signals the
/// group after a normal end. The init stays in the process group of the bwrap rippled started (the group
/// outlives its leader, and only the init's parent could move it), so the group finds it; SIGKILL to a
/// namespace's init kills every process in the namespace, a process that left the group or the session
/// included. `--die-with-parent` is no substitute: it kills at the outer bwrap's death, which also comes
/// first on a cancellation's SIGINT (see `SandboxPolicy`), and only where bwrap is a direct child.
public enum SandboxRemains {
  /// The processes still in the namespaces of the sandbox started as process group `group`: the
  /// namespaces' inits (a member of `group` outside `ownNamespace`, whose parent is not in its namespace)
  /// and `leftovers`, the rest of those namespaces.
  public static func find(group: Int32, ownNamespace: String, in table: [NamespacedProcess]) -> (
    inits: [NamespacedProcess], leftovers: [NamespacedProcess]
  ) {
    let namespaces = Set(table.filter { $0.group == group && $0.namespace != ownNamespace }.map(\.namespace))
    let members = table.filter { namespaces.contains($0.namespace) }
    let pids = Set(members.map(\.pid))
    let inits = members.filter { $0.group == group && !pids.contains($0.parent) }
    let initPids = Set(inits.map(\.pid))
    return (inits, members.filter { !initPids.contains($0.pid) })
  }

  /// Kills what the sandbox of process group `group` left running (the leftovers, then the inits, so no
  /// pid is freed before it is signalled) and returns the leftovers, for the run's log. Nothing where there
  /// is no /proc.
  @discardableResult
  public static func end(group: Int32) -> [NamespacedProcess] {
    guard let own = namespace(of: "self") else { return [] }
    let found = find(group: group, ownNamespace: own, in: current(group: group))
    for process in found.leftovers + found.inits { _ = kill(process.pid, SIGKILL) }
    return found.leftovers
  }

  /// This user's processes, with namespaces and command lines read only where a member of `group` lives
  /// in another namespace (reading every process's link on every command's end would be wasted).
  static func current(group: Int32) -> [NamespacedProcess] {
    let entries = ProcessTable.current()
    let foreign = entries.filter { $0.group == group }.compactMap { namespace(of: "\($0.pid)") }
    guard let own = namespace(of: "self"), foreign.contains(where: { $0 != own }) else { return [] }
    return entries.compactMap { entry in
      guard let namespace = namespace(of: "\(entry.pid)") else { return nil }
      return NamespacedProcess(
        pid: entry.pid, parent: entry.parent, group: entry.group, namespace: namespace,
        command: command(of: entry.pid))
    }
  }

  static func namespace(of process: String) -> String? {
    try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(process)/ns/pid")
  }

  /// The command line, arguments separated by spaces, at most 200 characters.
  static func command(of pid: Int32) -> String {
    guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return "?" }
    let words = data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
    return String(words.joined(separator: " ").prefix(200))
  }
}
