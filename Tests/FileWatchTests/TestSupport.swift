import Foundation
import RippleCore
import TestSupport
import Testing

@testable import FileWatch

/// A temporary directory for one test; `remove()` it when done.
struct TempTree {
  let path: String

  init() throws {
    path = (NSTemporaryDirectory() as NSString).appendingPathComponent("filewatch-\(UUID().uuidString)")
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }

  func absolute(_ relative: String) -> String { (path as NSString).appendingPathComponent(relative) }

  /// Writes `contents` to `relative`, creating parent directories.
  func write(_ relative: String, _ contents: String = "x") throws {
    let target = absolute(relative)
    try FileManager.default.createDirectory(
      atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try Data(contents.utf8).write(to: URL(fileURLWithPath: target))
  }

  func mkdir(_ relative: String) throws {
    try FileManager.default.createDirectory(atPath: absolute(relative), withIntermediateDirectories: true)
  }

  func delete(_ relative: String) throws { try FileManager.default.removeItem(atPath: absolute(relative)) }

  func move(_ from: String, _ to: String) throws {
    try FileManager.default.moveItem(atPath: absolute(from), toPath: absolute(to))
  }

  func symlink(_ relative: String, to destination: String) throws {
    try FileManager.default.createSymbolicLink(atPath: absolute(relative), withDestinationPath: destination)
  }

  func remove() { try? FileManager.default.removeItem(atPath: path) }
}

/// Collects a watcher's events on a task of its own, so that tests can wait for a condition.
final class EventRecorder: Sendable {
  private let state = Locked(State())
  private struct State {
    var events: [WatchEvent] = []
    var finished = false
  }

  init(_ stream: AsyncStream<WatchEvent>) {
    Task { [state] in
      for await event in stream { state.withLock { $0.events.append(event) } }
      state.withLock { $0.finished = true }
    }
  }

  var events: [WatchEvent] { state.withLock { $0.events } }
  var finished: Bool { state.withLock { $0.finished } }
  var changedPaths: Set<String> {
    Set(events.flatMap { event -> [String] in if case .changed(let paths) = event { paths } else { [] } })
  }
  var rescanReasons: [String] {
    events.compactMap { event in if case .rescan(let reason) = event { reason } else { nil } }
  }

  /// Forgets what was recorded so far (between the steps of a scenario).
  func reset() { state.withLock { $0.events = [] } }

  /// Waits until `condition` holds, checking every 10 ms for at most `timeout`; false if it never did.
  func wait(timeout: Duration = .seconds(120), until condition: (EventRecorder) -> Bool) async -> Bool {
    try? await waitFor(timeout: timeout) { condition(self) }
    return condition(self)
  }

  /// Waits until every path in `paths` was reported.
  func waitForChanges(_ paths: String..., timeout: Duration = .seconds(120)) async -> Bool {
    await wait(timeout: timeout) { recorder in Set(paths).isSubset(of: recorder.changedPaths) }
  }
}

/// Polls `condition` every 10 ms until it holds or `timeout` passes (long: a loaded machine runs the timers late).
func waitFor(timeout: Duration = .seconds(120), _ condition: () -> Bool) async throws {
  _ = await poll(every: .milliseconds(10), timeout: timeout) { condition() }
}

/// Every path under `root` that matches one of the always-skipped names or a given prefix.
func isUnder(_ path: String, _ prefixes: [String]) -> Bool {
  prefixes.contains { path == $0 || path.hasPrefix($0 + "/") }
}

/// The descriptors a watcher of `root` holds: the pipes opened since `before` with both ends here (its wake pipe;
/// a pipe's `pipe:[inode]` is unique while it is open) and, on Linux, the inotify instance whose `/proc/self/fdinfo` lists
/// `root`'s inode. Counting every descriptor of the process would count those of the tests running alongside.
func watcherDescriptors(root: String, openedSince before: [Int32: String]) -> Set<String> {
  var found = Set<String>()
  #if os(Linux)
    var info = stat()
    let rootInode = stat(root, &info) == 0 ? String(info.st_ino, radix: 16) : "?"
    let now = openDescriptors()
    // Its wake pipe: both ends are this process's (a spawned child's pipe keeps one end here).
    let newPipes = now.filter { $0.value.hasPrefix("pipe:") && before[$0.key] != $0.value }
    let pairs = Dictionary(grouping: newPipes, by: \.value).filter { $0.value.count == 2 }
    for (target, ends) in pairs {
      for end in ends { found.insert("\(end.key) \(target)") }
    }
    for (fd, target) in now {
      if target == "anon_inode:inotify",
        let fdinfo = try? String(contentsOfFile: "/proc/self/fdinfo/\(fd)", encoding: .utf8),
        fdinfo.contains(" ino:\(rootInode) ")
      {
        found.insert("\(fd) inotify of \(root)")
      }
    }
  #endif
  return found
}

/// `watcher`'s own descriptors among `watcherDescriptors(root:openedSince:)`: of the new pipes only its wake pipe.
/// A watcher another test starts in the meantime has a wake pipe too, and it may outlive this watcher.
func ownDescriptors(of watcher: FileWatcher, root: String, openedSince before: [Int32: String]) -> Set<String> {
  let found = watcherDescriptors(root: root, openedSince: before)
  #if os(Linux)
    let wakeWrite = watcher.core.status.withLock { $0.wakeWrite }
    guard let wakePipe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(wakeWrite)")
    else { return found }
    return found.filter { !$0.contains(" pipe:") || $0.hasSuffix(" " + wakePipe) }
  #else
    return found
  #endif
}

/// This process's descriptors and what each refers to (`pipe:[123]`, `anon_inode:inotify`, a path); Linux only.
func openDescriptors() -> [Int32: String] {
  var out: [Int32: String] = [:]
  #if os(Linux)
    for name in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? [] {
      guard let fd = Int32(name),
        let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + name)
      else { continue }
      out[fd] = target
    }
  #endif
  return out
}

let inotifyAvailable = InotifySystem.live != nil
let notIgnored: @Sendable (String, Bool) -> Bool = { _, _ in false }
