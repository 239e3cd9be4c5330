import DaemonSupport
import Foundation
import RunModel
import RunStore
import SystemClients

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What `kill -9` of the daemon leaves behind: its runs' children (a `swift test`, the test runner it started)
/// go on running, holding the build folder's lock. Their process groups were recorded while they ran; at the
/// next start they are stopped, before the interrupted runs are queued again.
enum ProcessGroupCleanup {
  /// Stops (SIGKILL) what the recorded groups left running, then forgets the groups.
  static func stopLeftovers(store: RunStore, log: DaemonLog) {
    let recorded: [(run: Int64, pgid: Int32)]
    do {
      recorded = try store.processGroups()
    } catch {
      log.warning("cannot read the process groups of interrupted runs: \(error)")
      return
    }
    guard !recorded.isEmpty else { return }
    // The recorded groups' members and their descendants (a test runner may lead a group of its own).
    let victims = ProcessTable.reached(from: Set(recorded.map(\.pgid)), user: getuid(), in: ProcessTable.current())
    let own = getpgrp()
    for entry in victims where entry.pid != getpid() && entry.group != own {
      kill(entry.pid, SIGKILL)
    }
    for (run, pgid) in recorded where pgid != own && victims.contains(where: { $0.group == pgid }) {
      kill(-pgid, SIGKILL)
      log.warning("stopped the processes run \(run) left running (process group \(pgid))", run: run)
    }
    if !victims.isEmpty { log.info("stopped \(victims.count) processes left by runs of a daemon that was killed") }
    do {
      try store.clearProcessGroups()
    } catch {
      log.warning("cannot forget the stopped process groups: \(error)")
    }
  }
}

/// A run's private TMPDIR: set for everything the run starts, removed with whatever is left in it.
enum RunTemporaryDirectory {
  static func create(_ path: String) throws {
    try? FileManager.default.removeItem(atPath: path)
    try FileManager.default.createDirectory(
      atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
  }

  static func remove(_ path: String) {
    try? FileManager.default.removeItem(atPath: path)
  }

  /// At start: the folders of runs a killed daemon could not remove.
  static func removeAll(in root: String) {
    for name in (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? [] where name.hasPrefix("run-") {
      remove(root + "/" + name)
    }
  }
}

extension ProcessClient {
  /// The same client, with `variables` added to each request that does not set them itself.
  func adding(environment variables: [String: String]) -> ProcessClient {
    let base = self
    @Sendable func amend(_ request: ProcessRequest) -> ProcessRequest {
      var request = request
      for (key, value) in variables where request.environment[key] == nil { request.environment[key] = value }
      return request
    }
    return ProcessClient(
      run: { try await base.run(amend($0)) },
      runStreaming: { request, onLine in try await base.runStreaming(amend(request), onLine) })
  }
}
