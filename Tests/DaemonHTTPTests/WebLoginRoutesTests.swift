import DaemonWeb
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

/// The browser's login and the run page's buttons, in process: the cookie, the Origin check, and each refusal.
@Suite struct WebLoginRoutesTests {
  typealias Fixture = RouterTests.Fixture
  static let site = "http://rippled.test:7878"

  static func form(_ fields: String) -> (HTTPFields, ByteBuffer) {
    ([.contentType: "application/x-www-form-urlencoded", .origin: site], ByteBuffer(string: fields))
  }

  /// Logs in with the right token; the session cookie's `name=value`.
  static func logIn(_ client: some TestClientProtocol) async throws -> String {
    let (headers, body) = form("token=s3cret&next=%2Fruns%2F1")
    return try await client.execute(uri: "/login", method: .post, headers: headers, body: body) { response in
      #expect(response.status == .seeOther)
      #expect(response.headers[.location] == "/runs/1")
      let cookie = try #require(response.headers[.setCookie])
      return String(cookie.prefix { $0 != ";" })
    }
  }

  @Test func theRightTokenSetsASessionCookieThatIsNotTheToken() async throws {
    let fixture = try Fixture()
    try await fixture.application(runs: .failing, publicURL: Self.site).test(.router) { client in
      try await client.execute(uri: "/login?next=/runs/1", method: .get) { response in
        #expect(response.status == .ok)
        #expect(String(buffer: response.body).contains(#"name="token""#))
      }
      let (headers, body) = Self.form("token=s3cret&next=%2Fruns%2F1")
      try await client.execute(uri: "/login", method: .post, headers: headers, body: body) { response in
        let cookie = try #require(response.headers[.setCookie])
        #expect(cookie.hasPrefix("rippled_session="))
        for attribute in ["HttpOnly", "SameSite=Strict", "Path=/"] { #expect(cookie.contains(attribute)) }
        #expect(!cookie.contains("Secure"), "an http dashboard")
        #expect(!cookie.contains("s3cret"))
      }
    }
  }

  @Test func anHTTPSDashboardMarksTheCookieSecure() {
    #expect(WebSessions(secure: true).setCookie("x").hasSuffix("; Secure"))
    #expect(WebSessions(secure: true).clearCookie.contains("Max-Age=0"))
  }

  @Test func aWrongTokenIsA401PageWithoutACookie() async throws {
    let fixture = try Fixture()
    try await fixture.application(runs: .failing, publicURL: Self.site).test(.router) { client in
      for fields in ["token=wrong", "token=", "next=%2F"] {
        let (headers, body) = Self.form(fields)
        try await client.execute(uri: "/login", method: .post, headers: headers, body: body) { response in
          #expect(response.status == .unauthorized, "\(fields)")
          #expect(response.headers[.setCookie] == nil)
          #expect(String(buffer: response.body).contains("That token is not right."))
        }
      }
    }
  }

  @Test func aLoginFromAnotherSiteIsRefused() async throws {
    let fixture = try Fixture()
    try await fixture.application(runs: .failing, publicURL: Self.site).test(.router) { client in
      var (headers, body) = Self.form("token=s3cret")
      headers[.origin] = "https://evil.example"
      try await client.execute(uri: "/login", method: .post, headers: headers, body: body) { response in
        #expect(response.status == .forbidden)
        #expect(response.headers[.setCookie] == nil)
      }
    }
  }

  @Test func aLoggedInBrowserReRunsAndCancelsFromTheRunPage() async throws {
    let fixture = try Fixture()
    let done = try fixture.store.enqueue(NewRun(repository: "app", branch: "main", head: "abc", trigger: .fetch))
    _ = try fixture.store.markRunning(done.id, logPath: nil)
    _ = try fixture.store.finish(done.id, state: .passed, reason: nil)
    try await fixture.application(publicURL: Self.site).test(.router) { client in
      try await client.execute(uri: "/runs/\(done.id)", method: .get) { response in
        #expect(String(buffer: response.body).contains("Log in to re-run"))
      }
      let cookie = try await Self.logIn(client)
      try await client.execute(uri: "/runs/\(done.id)", method: .get, headers: [.cookie: cookie]) { response in
        let page = String(buffer: response.body)
        #expect(page.contains(#"action="/runs/\#(done.id)/rerun""#))
        #expect(!page.contains("Log in to re-run"))
      }
      let headers: HTTPFields = [.cookie: cookie, .origin: Self.site]
      try await client.execute(uri: "/runs/\(done.id)/rerun", method: .post, headers: headers) { response in
        #expect(response.status == .seeOther)
        #expect(response.headers[.location] == "/runs/\(done.id + 1)")
      }
      try await client.execute(uri: "/runs/1/cancel", method: .post, headers: headers) { response in
        #expect(response.status == .seeOther)
        #expect(response.headers[.location] == "/runs/1")
      }
      // The API takes the same cookie (with its Origin) in place of the bearer token.
      try await client.execute(uri: "/api/runs/1/cancel", method: .post, headers: headers) { response in
        #expect(response.status == .accepted)
      }
    }
    #expect(
      fixture.submitted.withLock { $0 }
        == [NewRun(repository: "app", branch: "main", head: "abc", trigger: .api, retryOf: done.id)])
    #expect(fixture.cancelled.withLock { $0 } == [1, 1])
  }

  @Test func aReRunOfARunningRunIsAConflictPage() async throws {
    let fixture = try Fixture()
    let running = try fixture.store.enqueue(NewRun(repository: "app", branch: "main", head: "abc", trigger: .fetch))
    _ = try fixture.store.markRunning(running.id, logPath: nil)
    try await fixture.application(runs: .failing, publicURL: Self.site).test(.router) { client in
      let cookie = try await Self.logIn(client)
      try await client.execute(
        uri: "/runs/\(running.id)/rerun", method: .post, headers: [.cookie: cookie, .origin: Self.site]
      ) { response in
        #expect(response.status == .conflict)
        #expect(response.headers[.contentType]?.hasPrefix("text/html") == true)
        #expect(String(buffer: response.body).contains("still running; cancel it first or wait for it"))
      }
    }
  }

  @Test func changesWithoutAValidSessionOrFromAnotherOriginAreRefused() async throws {
    let fixture = try Fixture()
    let clock = Locked(Date(timeIntervalSince1970: 1_000_000))
    let sessions = WebSessions(now: { clock.withLock { $0 } })
    try await fixture.application(runs: .failing, sessions: sessions, publicURL: Self.site).test(.router) { client in
      let cookie = try await Self.logIn(client)
      let cases: [(String, HTTPFields, HTTPResponse.Status)] = [
        ("no cookie, no bearer", [.origin: Self.site], .unauthorized),
        (
          "a forged cookie", [.cookie: "rippled_session=" + String(repeating: "ab", count: 32), .origin: Self.site],
          .unauthorized
        ),
        ("the token as the cookie", [.cookie: "rippled_session=s3cret", .origin: Self.site], .unauthorized),
        ("another origin", [.cookie: cookie, .origin: "https://evil.example"], .forbidden),
        ("another site's referer", [.cookie: cookie, .referer: "http://evil.example/page"], .forbidden),
        ("no origin or referer", [.cookie: cookie], .forbidden),
      ]
      for (label, headers, status) in cases {
        try await client.execute(uri: "/runs/1/cancel", method: .post, headers: headers) { response in
          #expect(response.status == status, "page: \(label)")
        }
        try await client.execute(uri: "/api/runs/1/cancel", method: .post, headers: headers) { response in
          #expect(response.status == status, "API: \(label)")
        }
      }
      // A GET never changes anything, whatever it carries.
      try await client.execute(uri: "/runs/1/cancel", method: .get, headers: [.cookie: cookie, .origin: Self.site]) {
        response in
        #expect(response.status != .seeOther)
      }
      // Twelve hours later the session has expired.
      clock.withLock { $0 += WebSessions.lifetime + 1 }
      try await client.execute(uri: "/runs/1/cancel", method: .post, headers: [.cookie: cookie, .origin: Self.site]) {
        response in
        #expect(response.status == .unauthorized)
        #expect(String(buffer: response.body).contains("/login?next=/runs/1"))
      }
    }
  }

  @Test func loggingOutEndsTheSession() async throws {
    let fixture = try Fixture()
    try await fixture.application(runs: .failing, publicURL: Self.site).test(.router) { client in
      let cookie = try await Self.logIn(client)
      try await client.execute(uri: "/logout", method: .post, headers: [.cookie: cookie, .origin: Self.site]) {
        response in
        #expect(response.status == .seeOther)
        #expect(response.headers[.setCookie]?.contains("Max-Age=0") == true)
      }
      try await client.execute(uri: "/runs/1/cancel", method: .post, headers: [.cookie: cookie, .origin: Self.site]) {
        response in
        #expect(response.status == .unauthorized)
      }
    }
  }

  @Test func theRunPageShowsTheLogAndServesItsScript() async throws {
    let fixture = try Fixture()
    let log = fixture.folder + "/run.log"
    try "resolving <deps>\n".write(toFile: log, atomically: false, encoding: .utf8)
    let run = try fixture.store.enqueue(NewRun(repository: "app", branch: "main", head: "abc", trigger: .fetch))
    _ = try fixture.store.markRunning(run.id, logPath: log)
    try await fixture.application(runs: .failing).test(.router) { client in
      try await client.execute(uri: "/runs/\(run.id)", method: .get) { response in
        let page = String(buffer: response.body)
        #expect(page.contains("resolving &lt;deps&gt;"))
        #expect(page.contains(#"data-offset="17""#))
        #expect(page.contains(#"<script src="/static/live-log.js""#))
        #expect(response.headers[HTTPField.Name("Content-Security-Policy")!]?.contains("script-src 'self'") == true)
      }
      try await client.execute(uri: "/static/live-log.js", method: .get) { response in
        #expect(response.status == .ok)
        #expect(response.headers[.contentType]?.hasPrefix("text/javascript") == true)
        #expect(String(buffer: response.body).contains("live-log"))
      }
    }
  }

  @Test func onlyPathsOnThisSiteAreRedirectTargets() {
    #expect(WebControlRoutes.safeNext("/runs/3") == "/runs/3")
    #expect(WebControlRoutes.safeNext("/runs/3?x=%09") == "/runs/3?x=%09", "escaped bytes stay escaped")
    let hostile: [String?] = [
      nil, "", "runs/3", "//evil.example", "https://evil.example", "/\\evil.example", "/\t/evil.example",
      "/\n/evil.example", "/\r/evil.example", "/\u{0}/evil.example", "/\u{7F}/evil.example", "/\u{85}/evil.example",
      "/\u{200B}/evil.example", "/\u{2028}/evil.example", "/runs\\..\\\\evil.example", "\t//evil.example",
      " /evil.example",
    ]
    for value in hostile {
      #expect(WebControlRoutes.safeNext(value) == "/", "\(String(reflecting: value))")
    }
  }

  @Test func aLoginWithATabBetweenTheSlashesStaysOnThisSite() async throws {
    let fixture = try Fixture()
    try await fixture.application(runs: .failing, publicURL: Self.site).test(.router) { client in
      let (headers, body) = Self.form("token=s3cret&next=%2F%09%2Fevil.example")
      try await client.execute(uri: "/login", method: .post, headers: headers, body: body) { response in
        #expect(response.status == .seeOther)
        #expect(response.headers[.location] == "/")
      }
    }
  }

  @Test func aLogTailKeepsTheLastBytesAndTheirOffset() throws {
    let fixture = try Fixture()
    let path = fixture.folder + "/long.log"
    try String(repeating: "x", count: 100).appending("tail\n").write(toFile: path, atomically: false, encoding: .utf8)
    let tail = try #require(DashboardRoutes.logTail(path: path, limit: 5))
    #expect(tail == LogTail(text: "tail\n", omittedBytes: 100, endOffset: 105))
    #expect(DashboardRoutes.logTail(path: fixture.folder + "/missing.log") == nil)
  }
}
