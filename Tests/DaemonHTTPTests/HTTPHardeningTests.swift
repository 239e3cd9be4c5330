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

/// What a stranger on the port can do (issue 23): the Host check, throttled failures, the caps on connections and
/// log followers, and malformed query values.
@Suite struct HTTPHardeningTests {
  typealias Fixture = RouterTests.Fixture

  /// A clock tests move by hand.
  final class ManualClock: Sendable {
    let time = Locked(Date(timeIntervalSince1970: 1_000_000))
    func advance(_ seconds: TimeInterval) { time.withLock { $0 += seconds } }
    var now: @Sendable () -> Date { { [time] in time.withLock { $0 } } }
  }

  // MARK: Host (item 8)

  @Test func onlyTheListenAddressLoopbackAndThePublicHostAreAnswered() {
    let policy = HostPolicy(listenHost: "10.0.0.5", publicURL: "https://ci.example.com/ripple")
    for good in [
      "10.0.0.5:7878", "localhost", "LOCALHOST:80", "127.0.0.1:7878", "127.1.2.3", "[::1]:7878", "ci.example.com",
      "ci.example.com.", "dash.localhost:7878",
    ] {
      #expect(policy.accepts(good), "\(good)")
    }
    for bad in [
      "evil.example", "evil.example:7878", "10.0.0.6:7878", "ci.example.com.evil.example", "127.0.0.1.evil.example",
      "localhost.evil.example", "[::1", "[::2]:7878", "10.0.0.5:x", "10.0.0.5:", "", ":7878", "a:b:c",
    ] {
      #expect(!policy.accepts(bad), "\(bad)")
    }
    #expect(policy.accepts(nil), "no Host at all: HTTP/1.0, not a browser")
  }

  @Test func onEveryInterfaceAnyAddressLiteralIsAnsweredButNoForeignName() {
    let policy = HostPolicy(listenHost: "0.0.0.0", publicURL: nil)
    #expect(policy.accepts("192.168.1.20:7878"))
    #expect(policy.accepts("[fe80::1]:7878"))
    #expect(!policy.accepts("rebind.evil.example:7878"))
    #expect(!policy.accepts("192.168.1.20.nip.io"))
  }

  @Test func aForeignHostIs421BeforeAnyRoute() async throws {
    let fixture = try Fixture()
    try await fixture.application(runs: .failing).test(.router) { client in
      try await client.execute(uri: "/api/status", method: .get, headers: [HTTPField.Name("Host")!: "evil.example"]) {
        response in
        #expect(response.status == .misdirectedRequest)
        #expect(String(buffer: response.body).contains("evil.example"))
      }
      try await client.execute(uri: "/api/status", method: .get, headers: [HTTPField.Name("Host")!: "127.0.0.1:7878"]) {
        response in
        #expect(response.status == .ok)
      }
    }
  }

  @Test func theOriginMustMatchInSchemeToo() async throws {
    let fixture = try Fixture()
    try await fixture.application(runs: .failing, publicURL: "https://ci.example.com").test(.router) { client in
      for (origin, expected) in [
        ("http://ci.example.com", HTTPResponse.Status.forbidden), ("https://ci.example.com", .seeOther),
        ("https://localhost", .forbidden), ("http://localhost", .seeOther),
      ] {
        let headers: HTTPFields = [.contentType: "application/x-www-form-urlencoded", .origin: origin]
        try await client.execute(
          uri: "/login", method: .post, headers: headers, body: ByteBuffer(string: "token=s3cret")
        ) { response in
          #expect(response.status == expected, "\(origin)")
        }
      }
    }
  }

  // MARK: Throttling (item 9)

  @Test func failuresBeyondTheFreeOnesLockTheClientOutForDoublingTimes() {
    let clock = ManualClock()
    let throttle = FailureThrottle(now: clock.now)
    for _ in 1...5 { #expect(throttle.failed("a").lockout == 0) }
    #expect(throttle.retryAfter("a") == nil)
    #expect(throttle.failed("a").lockout == 1)
    #expect(throttle.retryAfter("a") == 1)
    #expect(throttle.retryAfter("b") == nil, "per client")
    clock.advance(1)
    #expect(throttle.retryAfter("a") == nil)
    #expect(throttle.failed("a").lockout == 2)
    #expect(throttle.failed("a").lockout == 4)
    for _ in 0..<20 { _ = throttle.failed("a") }
    #expect(throttle.failed("a").lockout == 300, "capped")
    clock.advance(300)
    #expect(throttle.retryAfter("a") == nil, "the lockout ends")
    clock.advance(901)
    #expect(throttle.failed("a").lockout == 0, "a client quiet for the window starts over")
  }

  @Test func aQuietClientIsForgottenAndWarningsAreRateLimited() {
    let clock = ManualClock()
    let throttle = FailureThrottle(now: clock.now)
    let first = throttle.failed("a")
    #expect(first.logSuffix == "from a")
    var logged = 0
    for _ in 0..<299 where throttle.failed("a").logSuffix != nil { logged += 1 }
    #expect(logged == 0, "300 failures within a minute: one warning")
    clock.advance(3600)
    let later = throttle.failed("a")
    #expect(later.lockout == 0, "forgotten after a quiet quarter of an hour")
    #expect(later.logSuffix == "from a; 299 more not logged")
  }

  @Test func wrongLoginsGet429WithRetryAfterWhileTheRightTokenStillLogsIn() async throws {
    let fixture = try Fixture()
    let clock = ManualClock()
    let failures = FailureThrottle(now: clock.now)
    let site = WebLoginRoutesTests.site
    try await fixture.application(runs: .failing, publicURL: site, failures: failures).test(.router) { client in
      func login(_ token: String) async throws -> (HTTPResponse.Status, String?) {
        let (headers, body) = WebLoginRoutesTests.form("token=\(token)")
        return try await client.execute(uri: "/login", method: .post, headers: headers, body: body) {
          ($0.status, $0.headers[.retryAfter])
        }
      }
      for _ in 1...6 {
        let (status, _) = try await login("wrong")
        #expect(status == .unauthorized)
      }
      let (lockedOut, retryAfter) = try await login("wrong")
      #expect(lockedOut == .tooManyRequests)
      #expect(retryAfter == "1")
      let (right, _) = try await login("s3cret")
      #expect(right == .seeOther, "the right token logs in from a locked-out address")
      let (stillLocked, _) = try await login("wrong")
      #expect(stillLocked == .tooManyRequests, "a success does not hand the guesser new free tries")
      clock.advance(2)
      let (after, _) = try await login("wrong")
      #expect(after == .unauthorized)
    }
  }

  /// A branch's test hammering wrong tokens from loopback (issue 39, item 10) must not lock out the operator's
  /// client on the same address: wrong tokens get 429, the right one is served every time.
  @Test func wrongBearerTokensAndWebhookSignaturesGet429ButRightOnesAreAlwaysServed() async throws {
    let fixture = try Fixture()
    let clock = ManualClock()
    let failures = FailureThrottle(now: clock.now)
    let secret = Array("hook".utf8)
    let runs = RunControl(submit: { _ in nil }, cancel: { _ in true })
    try await fixture.application(webhookSecret: secret, runs: runs, failures: failures).test(.router) { client in
      for attempt in 1...20 {
        try await client.execute(uri: "/api/runs/1", method: .delete, headers: RouterTests.bearer("nope")) {
          #expect($0.status == (attempt <= 6 ? .unauthorized : .tooManyRequests))
          if attempt > 6 { #expect($0.headers[.retryAfter] != nil) }
        }
        try await client.execute(uri: "/api/runs/1", method: .delete, headers: RouterTests.bearer("s3cret")) {
          #expect($0.status == .accepted, "attempt \(attempt)")
        }
      }
      try await client.execute(
        uri: "/hooks/github", method: .post, headers: [HTTPField.Name("X-Hub-Signature-256")!: "sha256=00"],
        body: ByteBuffer(string: "{}")
      ) { #expect($0.status == .tooManyRequests) }
      let body = "{}"
      let signature = WebhookVerifier.signature(body: Array(body.utf8), secret: secret)
      try await client.execute(
        uri: "/hooks/github", method: .post, headers: [HTTPField.Name("X-Hub-Signature-256")!: signature],
        body: ByteBuffer(string: body)
      ) { #expect($0.status != .tooManyRequests && $0.status != .unauthorized) }
      clock.advance(901)
      try await client.execute(uri: "/api/runs/1", method: .delete, headers: RouterTests.bearer("nope")) {
        #expect($0.status == .unauthorized, "forgotten after the window")
      }
    }
  }

  // MARK: Connections and followers (item 1)

  @Test func atTheCapTheLeastRecentlyUsedIdleConnectionMakesRoom() {
    var table = ConnectionTable(limit: 3)
    #expect(table.open(1) == .admitted)
    #expect(table.open(2) == .admitted)
    #expect(table.open(3) == .admitted)
    table.setBusy(1, true)
    table.setBusy(2, true)
    table.setBusy(2, false)  // 3 is now the idle one used least recently
    #expect(table.open(4) == .admittedEvicting(3))
    #expect(table.open(5) == .admittedEvicting(2))
    table.setBusy(4, true)
    table.setBusy(5, true)
    #expect(table.open(6) == .refused, "every connection busy")
    #expect(table.count == 3)
    table.close(1)
    #expect(table.open(6) == .admitted)
  }

  @Test func theCapsShrinkToTheOpenFileLimitWithAWarning() {
    let roomy = DescriptorBudget.plan(openFileLimit: 65_536, connections: 256, followers: 32)
    #expect(roomy == .init(connections: 256, followers: 32, warning: nil))
    let tight = DescriptorBudget.plan(openFileLimit: 200, connections: 256, followers: 32)
    #expect(tight.connections == 100)
    #expect(tight.followers == 32)
    #expect(tight.warning?.contains("open-file limit is 200") == true)
    let tiny = DescriptorBudget.plan(openFileLimit: 20, connections: 256, followers: 32)
    #expect(tiny.connections == 10 && tiny.followers == 5)
  }

  @Test func logFollowersBeyondTheCapGet503AndTheirPlaceComesBack() async throws {
    let fixture = try Fixture()
    let log = fixture.folder + "/run.log"
    try "line\n".write(toFile: log, atomically: false, encoding: .utf8)
    let run = try fixture.store.enqueue(NewRun(repository: "app", branch: "main", head: "abc", trigger: .fetch))
    _ = try fixture.store.markRunning(run.id, logPath: log)
    _ = try fixture.store.finish(run.id, state: .passed, reason: nil)
    let followers = Slots(limit: 1)
    #expect(followers.take(), "someone else follows a log")
    try await fixture.application(runs: .failing, followers: followers).test(.router) { client in
      try await client.execute(uri: "/api/runs/\(run.id)/log?follow=1", method: .get) { response in
        #expect(response.status == .serviceUnavailable)
        #expect(response.headers[.retryAfter] != nil)
      }
      try await client.execute(uri: "/api/runs/\(run.id)/log", method: .get) { #expect($0.status == .ok) }
      followers.give()
      try await client.execute(uri: "/api/runs/\(run.id)/log?follow=1", method: .get) { response in
        #expect(response.status == .ok)
        #expect(String(buffer: response.body) == "line\n")
      }
    }
    #expect(followers.inUse == 0, "the finished stream gave its place back")
  }

  // MARK: Smaller (item 10)

  @Test func anOffsetThatIsNoNumberIs400() async throws {
    let fixture = try Fixture()
    let run = try fixture.store.enqueue(NewRun(repository: "app", branch: "main", head: "abc", trigger: .fetch))
    try await fixture.application(runs: .failing).test(.router) { client in
      for offset in ["abc", "-1", "1e3", "", "0x10"] {
        try await client.execute(uri: "/api/runs/\(run.id)/log?offset=\(offset)", method: .get) { response in
          #expect(response.status == .badRequest, "\(offset)")
          #expect(String(buffer: response.body).contains("offset"))
        }
      }
    }
  }
}
