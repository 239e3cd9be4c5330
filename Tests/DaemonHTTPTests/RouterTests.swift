import DaemonHTTPFixtures
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import RippleCore
import RunModel
import RunStore
import ServiceMetrics
import Testing

@testable import DaemonHTTP
@testable import DaemonSupport

/// The HTTP API in process (HummingbirdTesting's router client): routes, the bearer-token middleware, error
/// bodies and security headers, against a real store in a temporary folder.
@Suite struct RouterTests {
  /// A store, a recording run control, and the router over them (shared with the daemon's tests).
  typealias Fixture = RouterFixture

  static func bearer(_ token: String) -> HTTPFields { RouterFixture.bearer(token) }

  @Test func readOnlyRoutesAnswerWithTheirTypesAndSecurityHeaders() async throws {
    let fixture = try Fixture()
    let run = try fixture.store.enqueue(NewRun(repository: "app", branch: "main", head: "abc", trigger: .api))
    // Reading never schedules or cancels anything: the failing double would stop the test.
    try await fixture.application(runs: .failing).test(.router) { client in
      try await client.execute(uri: "/healthz", method: .get) { response in
        #expect(response.status == .ok)
        #expect(String(buffer: response.body) == "ok\n")
      }
      try await client.execute(uri: "/readyz", method: .get) { response in
        #expect(response.status == .ok)
        #expect(String(buffer: response.body).contains("\"ready\""))
      }
      try await client.execute(uri: "/api/runs?repository=app", method: .get) { response in
        #expect(response.status == .ok)
        #expect(response.headers[.contentType] == "application/json")
        #expect(response.headers[HTTPField.Name("Content-Security-Policy")!]?.hasPrefix("default-src 'none'") == true)
        #expect(response.headers[.cacheControl] == "no-store")
        #expect(String(buffer: response.body).contains("\"id\":\(run.id)"))
      }
      try await client.execute(uri: "/api/runs?state=nonsense", method: .get) { response in
        #expect(response.status == .badRequest)
        #expect(String(buffer: response.body).contains("unknown state 'nonsense'"))
      }
      try await client.execute(uri: "/api/runs/\(run.id)", method: .get) { response in
        #expect(response.status == .ok)
      }
      try await client.execute(uri: "/api/runs/999", method: .get) { response in
        #expect(response.status == .notFound)
        #expect(String(buffer: response.body).contains("no run 999"))
      }
      try await client.execute(uri: "/runs/999", method: .get) { response in
        #expect(response.status == .notFound)
        #expect(response.headers[.contentType] == "text/html; charset=utf-8")
      }
      try await client.execute(uri: "/", method: .get) { response in
        #expect(response.status == .ok)
        #expect(String(buffer: response.body).contains("app"))
      }
      try await client.execute(uri: "/metrics", method: .get) { response in
        #expect(response.status == .ok)
        #expect(String(buffer: response.body).contains("ripple"))
      }
    }
  }

  @Test func everyStateChangeNeedsTheBearerToken() async throws {
    let fixture = try Fixture()
    let body = ByteBuffer(string: #"{"repository": "app", "branch": "main"}"#)
    try await fixture.application().test(.router) { client in
      for headers in [HTTPFields(), Self.bearer("wrong"), [.authorization: "s3cret"]] {
        try await client.execute(uri: "/api/runs", method: .post, headers: headers, body: body) { response in
          #expect(response.status == .unauthorized)
        }
        try await client.execute(uri: "/api/runs/1", method: .delete, headers: headers) { response in
          #expect(response.status == .unauthorized)
        }
      }
      try await client.execute(uri: "/api/runs/1", method: .delete, headers: Self.bearer("s3cret")) { response in
        #expect(response.status == .accepted)
      }
      try await client.execute(uri: "/api/runs/2", method: .delete, headers: Self.bearer("s3cret")) { response in
        #expect(response.status == .conflict)
      }
    }
    #expect(fixture.cancelled.withLock { $0 } == [1, 2], "only authorised requests reach the scheduler")
    #expect(fixture.submitted.withLock { $0 }.isEmpty)

    try await fixture.application(token: .some(nil)).test(.router) { client in
      try await client.execute(uri: "/api/runs/1", method: .delete, headers: Self.bearer("s3cret")) { response in
        #expect(response.status == .forbidden)
        #expect(String(buffer: response.body).contains("http.tokenFile"))
      }
    }
  }

  @Test func badRunRequestsAre400AndUnknownRepositories404() async throws {
    let fixture = try Fixture()
    try await fixture.application().test(.router) { client in
      for (body, expected) in [
        ("", "the body is empty"), ("[]", "not a JSON object"), (#"{"branch": "main"}"#, "'repository' is required"),
        (#"{"repository": 7}"#, "'repository' must be a string"),
      ] {
        try await client.execute(
          uri: "/api/runs", method: .post, headers: Self.bearer("s3cret"), body: ByteBuffer(string: body)
        ) { response in
          #expect(response.status == .badRequest, "\(body)")
          #expect(String(buffer: response.body).contains(expected), "\(body)")
        }
      }
      try await client.execute(
        uri: "/api/runs", method: .post, headers: Self.bearer("s3cret"),
        body: ByteBuffer(string: #"{"repository": "elsewhere", "branch": "main"}"#)
      ) { response in
        #expect(response.status == .notFound)
        #expect(String(buffer: response.body).contains("no repository named 'elsewhere'"))
      }
    }
  }

  /// A valid delivery is routine: it logs nothing at info level (a busy repository delivers many).
  @Test func aValidWebhookDeliveryLogsNothingAtInfoLevel() async throws {
    let fixture = try Fixture()
    let body = Data(#"{"repository": {"clone_url": "https://example.org/app.git"}}"#.utf8)
    let signature = WebhookVerifier.signature(body: Array(body), secret: Array("hook".utf8))
    try await fixture.application(webhookSecret: Array("hook".utf8)).test(.router) { client in
      try await client.execute(
        uri: "/hooks/github", method: .post,
        headers: [
          HTTPField.Name("X-Hub-Signature-256")!: signature, HTTPField.Name("X-GitHub-Delivery")!: "d-1",
          HTTPField.Name("X-GitHub-Event")!: "push",
        ], body: ByteBuffer(bytes: body)
      ) { response in
        #expect(response.status == .accepted)
      }
    }
    #expect(!fixture.logged.withLock { $0 }.contains { $0.contains("webhook") }, "\(fixture.logged.withLock { $0 })")
  }

  @Test func theWebhookIsOffWithoutASecretAndRefusesABadSignature() async throws {
    let fixture = try Fixture()
    try await fixture.application().test(.router) { client in
      try await client.execute(uri: "/hooks/github", method: .post, body: ByteBuffer(string: "{}")) { response in
        #expect(response.status == .notFound)
      }
    }
    try await fixture.application(webhookSecret: Array("hook".utf8)).test(.router) { client in
      try await client.execute(
        uri: "/hooks/github", method: .post, headers: [HTTPField.Name("X-Hub-Signature-256")!: "sha256=00"],
        body: ByteBuffer(string: "{}")
      ) { response in
        #expect(response.status == .unauthorized)
      }
    }
  }
}
