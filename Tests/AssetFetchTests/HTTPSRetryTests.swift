import Foundation
import Testing

@testable import AssetFetch

@Suite("HTTPS: mirrors, retries and resume")
struct HTTPSRetryTests {
  @Test func notFoundMovesToTheNextMirror() async throws {
    try await HTTPSFixture.with { server in
      let sleeps = SleepRecorder()
      let request = server.request([server.url("/missing"), server.url("/gone"), server.url("/data/50")])
      let result = try await withFetcher(server.options(), runtime: sleeps.runtime) {
        try await $0.fetch(request) { _ in }
      }
      #expect(result.origin == server.url("/data/50"))
      #expect(contents(request.destination) == serverBody(50))
      #expect(sleeps.recorded.isEmpty, "404 and 410 are not retried")
    }
  }

  @Test func allMirrorsFailingListsEachRedacted() async throws {
    try await HTTPSFixture.with { server in
      let withSecrets = "https://ripple:hunter2pw@127.0.0.1:\(server.httpsPort)/missing?X-Amz-Signature=sig0123456789"
      let error = await fetchError {
        try await withFetcher(server.options(retries: 1)) {
          _ = try await $0.fetch(server.request([withSecrets, server.url("/always500")])) { _ in }
        }
      }
      #expect(error?.kind == .allMirrorsFailed)
      #expect(error?.failures.map(\.kind) == [.notFound, .server])
      let text = error?.description ?? ""
      #expect(text.contains(server.url("/missing")) && text.contains(server.url("/always500")))
      #expect(!text.contains("hunter2pw") && !text.contains("sig0123456789") && !text.contains("ripple:"))
      #expect(error?.isAccessProblem == false)
    }
  }

  @Test func serverErrorIsRetriedWithBackoff() async throws {
    try await HTTPSFixture.with { server in
      let sleeps = SleepRecorder()
      let request = server.request([server.url("/flaky/a/70")])
      _ = try await withFetcher(server.options(), runtime: sleeps.runtime) { try await $0.fetch(request) { _ in } }
      #expect(contents(request.destination) == serverBody(70))
      #expect(sleeps.recorded.count == 1)

      let persistent = SleepRecorder()
      let error = await fetchError {
        try await withFetcher(server.options(retries: 3), runtime: persistent.runtime) {
          _ = try await $0.fetch(server.request([server.url("/always500")])) { _ in }
        }
      }
      #expect(error?.kind == .server)
      #expect(persistent.recorded.count == 3)
      // base 0.5 s doubling, with the jitter fixed at 75 %.
      #expect(persistent.recorded == [.milliseconds(375), .milliseconds(750), .milliseconds(1500)])
    }
  }

  @Test func retryAfterIsHonoured() async throws {
    try await HTTPSFixture.with { server in
      let seconds = SleepRecorder()
      let request = server.request([server.url("/ratelimit/a/20")])
      _ = try await withFetcher(server.options(), runtime: seconds.runtime) { try await $0.fetch(request) { _ in } }
      #expect(seconds.recorded == [.seconds(7)])
      #expect(contents(request.destination) == serverBody(20))

      // The date is 20 s after the server answered (whole seconds): the delay is 20 s less the time the answer
      // took to be read, which a loaded machine may stretch, and less under 1 s of the date's rounding.
      let date = SleepRecorder()
      let started = ContinuousClock.now
      _ = try await withFetcher(server.options(), runtime: date.runtime) {
        try await $0.fetch(server.request([server.url("/ratelimit-date/a/20")])) { _ in }
      }
      let elapsed = ContinuousClock.now - started
      #expect(date.recorded.count == 1)
      #expect(date.recorded.allSatisfy { $0 > .seconds(19) - elapsed && $0 <= .seconds(20) }, "\(date.recorded)")
    }
  }

  @Test func connectionCutMidBodyIsResumedWithRange() async throws {
    try await HTTPSFixture.with { server in
      let request = server.request([server.url("/cut/a/200000")], expectedSize: 200_000)
      let result = try await withFetcher(server.options()) { try await $0.fetch(request) { _ in } }
      #expect(result.bytes == 200_000)
      #expect(contents(request.destination) == serverBody(200_000))
      let requests = try await server.log().filter { $0.path == "/cut/a/200000" }
      #expect(requests.count == 2)
      #expect(requests.first?.range == nil)
      let start = requests.last?.range.flatMap { Int($0.dropFirst(6).dropLast()) } ?? 0
      #expect(start > 0 && start <= 100_000, "resumed from the bytes already written: \(requests)")
    }
  }

  @Test func connectionCutWithoutRetriesLeavesThePartialFile() async throws {
    try await HTTPSFixture.with { server in
      let request = server.request([server.url("/cut/b/200000")])
      let error = await fetchError {
        try await withFetcher(server.options(retries: 0)) { _ = try await $0.fetch(request) { _ in } }
      }
      #expect(error?.kind == .network)
      let partial = contents(request.destination)
      #expect(partial.count > 0 && partial.count <= 100_000)
      #expect(partial == serverBody(200_000).prefix(partial.count))

      // The caller's next attempt continues where it stopped.
      let resumed = server.request(
        [server.url("/cut/b/200000")], destination: request.destination, resumeFrom: Int64(partial.count))
      _ = try await withFetcher(server.options(retries: 0)) { try await $0.fetch(resumed) { _ in } }
      #expect(contents(request.destination) == serverBody(200_000))
    }
  }

  @Test func resumeAppendsAfter206() async throws {
    try await HTTPSFixture.with { server in
      let destination = server.destination()
      try serverBody(1000).prefix(300).write(to: URL(fileURLWithPath: destination))
      let progress = ProgressRecorder()
      let request = server.request([server.url("/data/1000")], destination: destination, resumeFrom: 300)
      let result = try await withFetcher(server.options()) { try await $0.fetch(request, progress.callback) }
      #expect(result.bytes == 1000)
      #expect(contents(destination) == serverBody(1000))
      #expect(progress.recorded.first?.receivedBytes == 300)
      let serverLog = try await server.log()
      #expect(serverLog.last { $0.path == "/data/1000" }?.range == "bytes=300-")
    }
  }

  @Test func resumeStartsOverOn200AndOnMismatchedRange() async throws {
    try await HTTPSFixture.with { server in
      for path in ["/no-range/1000", "/bad-range/1000"] {
        let destination = server.destination()
        try Data(repeating: 0xFF, count: 300).write(to: URL(fileURLWithPath: destination))
        let request = server.request([server.url(path)], destination: destination, resumeFrom: 300)
        let result = try await withFetcher(server.options()) { try await $0.fetch(request) { _ in } }
        #expect(result.bytes == 1000, "\(path)")
        #expect(contents(destination) == serverBody(1000), "\(path)")
      }
    }
  }

  @Test func resumeHandles416() async throws {
    try await HTTPSFixture.with { server in
      let complete = server.destination()
      try serverBody(500).write(to: URL(fileURLWithPath: complete))
      let done = server.request([server.url("/data/500")], destination: complete, resumeFrom: 500)
      let result = try await withFetcher(server.options()) { try await $0.fetch(done) { _ in } }
      #expect(result.bytes == 500)
      #expect(contents(complete) == serverBody(500))

      let tooLong = server.destination()
      try Data(repeating: 0xFF, count: 700).write(to: URL(fileURLWithPath: tooLong))
      let restart = server.request([server.url("/data/500")], destination: tooLong, resumeFrom: 700)
      _ = try await withFetcher(server.options()) { try await $0.fetch(restart) { _ in } }
      #expect(contents(tooLong) == serverBody(500))
    }
  }

  @Test func contentLengthIsCheckedAgainstTheExpectedSize() async throws {
    try await HTTPSFixture.with { server in
      let request = server.request([server.url("/data/5000")], expectedSize: 4000)
      let error = await fetchError {
        try await withFetcher(server.options()) { _ = try await $0.fetch(request) { _ in } }
      }
      #expect(error?.kind == .sizeMismatch)
      #expect(error?.description.contains("5000 bytes, expected 4000") == true)
      #expect(contents(request.destination).isEmpty, "nothing is downloaded once the size is known to be wrong")
    }
  }
}
