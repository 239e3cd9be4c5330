import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
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
        == [NewRun(repository: "app", branch: "main", head: "abc", trigger: .api, retryOf: done.id)])
    #expect(fixture.cancelled.withLock { $0 } == [1])
  }

  @Test func aFollowedLogStreamsWhatIsWrittenUntilTheRunEnds() async throws {
    let fixture = try Fixture()
    let log = fixture.folder + "/run.log"
    try "checked out\n".write(toFile: log, atomically: false, encoding: .utf8)
    let run = try fixture.store.enqueue(NewRun(repository: "app", branch: "main", head: "abc", trigger: .fetch))
    _ = try fixture.store.markRunning(run.id, logPath: log)

    // While the client reads, the run writes two more lines and ends.
    let writer = Task {
      try await Task.sleep(for: .milliseconds(400))
      let handle = try #require(FileHandle(forWritingAtPath: log))
      try handle.seekToEnd()
      try handle.write(contentsOf: Data("building .\n".utf8))
      try await Task.sleep(for: .milliseconds(400))
      try handle.write(contentsOf: Data("passed\n".utf8))
      try handle.close()
      _ = try fixture.store.finish(run.id, state: .passed, reason: nil)
    }
    try await fixture.application(runs: .failing).test(.live) { client in
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
}
