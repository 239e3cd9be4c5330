import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import RippleCore
import RunModel
import Testing

@testable import DaemonHTTP
@testable import DaemonSupport

/// Re-running and cancelling through the API, and a run's log followed while it is written.
@Suite struct RunControlRoutesTests {
  typealias Fixture = RouterTests.Fixture

  @Test func aFinishedRunIsRerunAndARunningOneIsAConflict() async throws {
    let fixture = try Fixture()
    let done = try fixture.store.enqueue(NewRun(repository: "app", branch: "main", head: "abc", trigger: .fetch))
    _ = try fixture.store.markRunning(done.id, logPath: nil)
    _ = try fixture.store.finish(done.id, state: .failed, reason: "1 test failed")
    let running = try fixture.store.enqueue(NewRun(repository: "app", branch: "dev", head: "def", trigger: .fetch))
    _ = try fixture.store.markRunning(running.id, logPath: nil)

    try await fixture.application().test(.router) { client in
      try await client.execute(uri: "/api/runs/\(done.id)/rerun", method: .post) { response in
        #expect(response.status == .unauthorized, "a state change needs the token")
      }
      try await client.execute(uri: "/api/runs/\(done.id)/rerun", method: .get) { response in
        #expect(response.status != .accepted, "no state change on GET")
      }
      try await client.execute(
        uri: "/api/runs/\(done.id)/rerun", method: .post, headers: RouterTests.bearer("s3cret")
      ) { response in
        #expect(response.status == .accepted)
        #expect(String(buffer: response.body).contains(#""head":"abc""#))
      }
      try await client.execute(
        uri: "/api/runs/\(running.id)/rerun", method: .post, headers: RouterTests.bearer("s3cret")
      ) { response in
        #expect(response.status == .conflict)
        #expect(String(buffer: response.body).contains("still running"))
      }
      try await client.execute(uri: "/api/runs/999/rerun", method: .post, headers: RouterTests.bearer("s3cret")) {
        response in
        #expect(response.status == .notFound)
      }
      try await client.execute(uri: "/api/runs/1/cancel", method: .post, headers: RouterTests.bearer("s3cret")) {
        response in
        #expect(response.status == .accepted)
      }
    }
    #expect(
      fixture.submitted.withLock { $0 }
        == [NewRun(repository: "app", branch: "main", head: "abc", trigger: .api, retryOf: done.id, fresh: true)],
      "a re-run of a failed run reads no pass record")
    #expect(fixture.cancelled.withLock { $0 } == [1])
  }

  /// A re-run of a passed run reads pass records (so nothing runs) unless asked `fresh`; of a failed run it is
  /// fresh unless asked otherwise; a body that is not `{"fresh": bool}` is a 400 and queues nothing.
  @Test func aRerunIsFreshWhenAskedAndForAFailedRunByDefault() async throws {
    let fixture = try Fixture()
    let passed = try fixture.store.enqueue(NewRun(repository: "app", branch: "main", head: "abc", trigger: .fetch))
    _ = try fixture.store.markRunning(passed.id, logPath: nil)
    _ = try fixture.store.finish(passed.id, state: .passed, reason: nil)
    try await fixture.application().test(.router) { client in
      for (body, expected) in [("", HTTPResponse.Status.accepted), (#"{"fresh": true}"#, .accepted)] {
        try await client.execute(
          uri: "/api/runs/\(passed.id)/rerun", method: .post, headers: RouterTests.bearer("s3cret"),
          body: ByteBuffer(string: body)
        ) { response in
          #expect(response.status == expected, "\(String(buffer: response.body))")
        }
        // The re-run queued: ended, so the branch's lane is free for the next one.
        if let active = try fixture.store.activeRun(repository: "app", branch: "main") {
          _ = try fixture.store.markRunning(active.id, logPath: nil)
          _ = try fixture.store.finish(active.id, state: .cancelled, reason: "test")
        }
      }
      for body in [#"{"fresh": "yes"}"#, "not json", "[true]"] {
        try await client.execute(
          uri: "/api/runs/\(passed.id)/rerun", method: .post, headers: RouterTests.bearer("s3cret"),
          body: ByteBuffer(string: body)
        ) { response in
          #expect(response.status == .badRequest, "\(body)")
          #expect(String(buffer: response.body).contains("fresh"))
        }
      }
    }
    #expect(fixture.submitted.withLock { $0 }.map(\.fresh) == [false, true])
  }

  @Test func aRerunWhileItsBranchHasARunGoingIsAConflictAndQueuesNothing() async throws {
    // Queued now, the re-run would supersede the branch's pending run (a newer head, never tested) or stop the
    // running one.
    let fixture = try Fixture()
    let old = try fixture.store.enqueue(NewRun(repository: "app", branch: "main", head: "abc", trigger: .fetch))
    _ = try fixture.store.markRunning(old.id, logPath: nil)
    _ = try fixture.store.finish(old.id, state: .failed, reason: "1 test failed")
    let newer = try fixture.store.enqueue(NewRun(repository: "app", branch: "main", head: "def", trigger: .fetch))
    _ = try fixture.store.markRunning(newer.id, logPath: nil)

    try await fixture.application().test(.router) { client in
      try await client.execute(
        uri: "/api/runs/\(old.id)/rerun", method: .post, headers: RouterTests.bearer("s3cret")
      ) { response in
        #expect(response.status == .conflict)
        #expect(
          String(buffer: response.body).contains(
            "main of app has run \(newer.id) running; re-run run \(old.id) when it has ended"),
          "\(String(buffer: response.body))")
      }
    }
    #expect(fixture.submitted.withLock { $0 }.isEmpty)
  }

  @Test func aFollowedLogStreamsWhatIsWrittenUntilTheRunEnds() async throws {
    let fixture = try Fixture()
    let log = fixture.folder + "/run.log"
    try "checked out\n".write(toFile: log, atomically: false, encoding: .utf8)
    let run = try fixture.store.enqueue(NewRun(repository: "app", branch: "main", head: "abc", trigger: .fetch))
    _ = try fixture.store.markRunning(run.id, logPath: log)

    // Once the client follows (it holds a follower's place), the run writes two more lines and ends.
    let followers = Slots(limit: 32)
    let writer = Task {
      try #require(await Self.waitUntil { followers.inUse == 1 }, "the client follows the log")
      try Self.append("building .\n", to: log)
      try Self.append("passed\n", to: log)
      _ = try fixture.store.finish(run.id, state: .passed, reason: nil)
    }
    try await fixture.application(runs: .failing, followers: followers).test(.live) { client in
      try await client.execute(uri: "/api/runs/\(run.id)/log?follow=1", method: .get) { response in
        #expect(response.status == .ok)
        #expect(String(buffer: response.body) == "checked out\nbuilding .\npassed\n")
      }
      // Resuming from an offset gives the rest only.
      try await client.execute(uri: "/api/runs/\(run.id)/log?offset=12", method: .get) { response in
        #expect(String(buffer: response.body) == "building .\npassed\n")
      }
      try await client.execute(uri: "/api/runs/\(run.id)/log?offset=-1", method: .get) { response in
        #expect(response.status == .badRequest)
      }
    }
    try await writer.value
  }

  /// The stream itself: it looks at the file again and again while the run goes on, and sends what was written
  /// between two looks. Each look asks whether the run goes on before it reads, so a second question proves the
  /// first read is done: the writes wait on that, never on a guessed delay.
  @Test func aFollowedLogSendsWhatIsWrittenBetweenItsLooksAndTheRestOnceTheRunEnds() async throws {
    let fixture = try Fixture()
    let log = fixture.folder + "/stream.log"
    try "checked out\n".write(toFile: log, atomically: false, encoding: .utf8)
    let looks = Locked(0)
    let running = Locked(true)
    let router = Router()
    router.get("log") { _, _ in
      RunLogStream.response(path: log, offset: 0, follow: true) {
        looks.withLock { $0 += 1 }
        return running.withLock { $0 }
      }
    }
    let writer = Task {
      try #require(await Self.waitUntil { looks.withLock { $0 } >= 2 }, "the stream read the log once")
      try Self.append("building .\n", to: log)
      let seen = looks.withLock { $0 }
      try #require(await Self.waitUntil { looks.withLock { $0 } >= seen + 2 }, "the stream read the new line")
      try Self.append("passed\n", to: log)
      running.withLock { $0 = false }
    }
    try await Application(router: router).test(.router) { client in
      try await client.execute(uri: "/log", method: .get) { response in
        #expect(response.status == .ok)
        #expect(String(buffer: response.body) == "checked out\nbuilding .\npassed\n")
      }
    }
    try await writer.value
  }

  static func append(_ text: String, to path: String) throws {
    let handle = try #require(FileHandle(forWritingAtPath: path))
    defer { try? handle.close() }
    try handle.seekToEnd()
    try handle.write(contentsOf: Data(text.utf8))
  }

  /// Waits (a bounded poll) until `condition` holds: true then, false when `timeout` passed first.
  static func waitUntil(timeout: Duration = .seconds(30), _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
      if condition() { return true }
      try? await Task.sleep(for: .milliseconds(5))
    }
    return condition()  // once more: the last sleep may have resumed long after the deadline
  }
}
