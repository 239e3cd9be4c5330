import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One process as /proc shows it.
public struct ProcessEntry: Sendable, Equatable {
  public var pid: Int32
  public var parent: Int32
  public var group: Int32
  public var session: Int32
  public var user: UInt32

  public init(pid: Int32, parent: Int32, group: Int32, session: Int32, user: UInt32) {
    self.pid = pid
    self.parent = parent
    self.group = group
    self.session = session
    self.user = user
  }
}

/// The processes a child's process group and session reach. Each child `ProcessClient.live` starts leads a
/// session and a group of its own. SwiftPM and llbuild start the test runner and each compile job in a
/// process group of their own, so a signal to the child's group alone misses them; they stay in its session,
/// even once their parent is gone. Following parents also finds one that left the session while its parent
/// lives.
public enum ProcessTable {
  /// Members of the groups or sessions `leaders` lead, and their descendants, owned by `user` only: an id may
  /// since belong to someone else.
  public static func reached(from leaders: Set<Int32>, user: UInt32, in table: [ProcessEntry]) -> [ProcessEntry] {
    let ours = table.filter { $0.user == user && $0.pid > 1 }
    var found = ours.filter { leaders.contains($0.group) || leaders.contains($0.session) }
    var seen = Set(found.map(\.pid))
    var index = 0
    while index < found.count {
      let parent = found[index].pid
      for child in ours where child.parent == parent && seen.insert(child.pid).inserted { found.append(child) }
      index += 1
    }
    return found
  }

  /// The process groups to signal to stop what `leaders` started: their own, and the group of every process
  /// `reached` finds from them; never `ownGroup` (the caller's, which a signal would stop too).
  public static func groups(
    reachedFrom leaders: Set<Int32>, user: UInt32, in table: [ProcessEntry], excluding ownGroup: Int32
  ) -> Set<Int32> {
    leaders.union(reached(from: leaders, user: user, in: table).map(\.group)).subtracting([ownGroup])
  }

  /// Every process this user can see in /proc (empty where there is no /proc, as on macOS).
  public static func current() -> [ProcessEntry] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return names.compactMap { name in
      guard let pid = Int32(name) else { return nil }
      var info = stat()
      guard stat("/proc/\(name)", &info) == 0,
        let data = FileManager.default.contents(atPath: "/proc/\(name)/stat")
      else { return nil }
      return entry(pid: pid, user: info.st_uid, stat: String(decoding: data, as: UTF8.self))
    }
  }

  /// Parses `/proc/<pid>/stat`: `pid (command) state ppid pgrp session …`; the command may hold spaces and
  /// parentheses.
  public static func entry(pid: Int32, user: UInt32, stat text: String) -> ProcessEntry? {
    guard let close = text.lastIndex(of: ")") else { return nil }
    let fields = text[text.index(after: close)...].split(separator: " ")
    guard fields.count >= 4, let parent = Int32(fields[1]), let group = Int32(fields[2]),
      let session = Int32(fields[3])
    else { return nil }
    return ProcessEntry(pid: pid, parent: parent, group: group, session: session, user: user)
  }
}
