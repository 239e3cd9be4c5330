import Foundation
import Hummingbird
import RippleCore
import Testing

@testable import Daemon

@Suite("webhook signatures and remote URLs")
struct WebhookTests {
  let secret = Array("It's a Secret to Everybody".utf8)
  let body = Array("Hello, World!".utf8)

  @Test func githubsDocumentedExampleVerifies() {
    // From GitHub's "Validating webhook deliveries" documentation.
    let header = "sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17"
    #expect(WebhookVerifier.verify(signatureHeader: header, body: body, secret: secret))
    #expect(WebhookVerifier.signature(body: body, secret: secret) == header)
  }

  @Test func forgedMissingOrMalformedSignaturesFail() {
    let good = WebhookVerifier.signature(body: body, secret: secret)
    #expect(!WebhookVerifier.verify(signatureHeader: good, body: body + [0x20], secret: secret))
    #expect(!WebhookVerifier.verify(signatureHeader: good, body: body, secret: Array("other".utf8)))
    #expect(!WebhookVerifier.verify(signatureHeader: nil, body: body, secret: secret))
    #expect(!WebhookVerifier.verify(signatureHeader: "sha1=" + good.dropFirst(7), body: body, secret: secret))
    #expect(!WebhookVerifier.verify(signatureHeader: "sha256=zz", body: body, secret: secret))
    #expect(!WebhookVerifier.verify(signatureHeader: String(good.dropLast(2)), body: body, secret: secret))
    #expect(!WebhookVerifier.verify(signatureHeader: good, body: body, secret: []))
  }

  @Test func remoteURLsCompareTheWayPeopleWriteThem() {
    let forms = [
      "https://github.com/pointfreeco/isowords.git", "https://GitHub.com/pointfreeco/isowords",
      "git@github.com:pointfreeco/isowords.git", "ssh://git@github.com/pointfreeco/isowords",
      "git://github.com/pointfreeco/isowords.git/",
    ]
    #expect(Set(forms.map(RemoteURL.normalized)) == ["github.com/pointfreeco/isowords"])
    #expect(RemoteURL.normalized("https://github.com/pointfreeco/Isowords") != RemoteURL.normalized(forms[0]))
    #expect(RemoteURL.normalized("/srv/git/app.git") == RemoteURL.normalized("/srv/git/app"))
    #expect(RemoteURL.normalized("https://host:8443/a/b.git") == "host:8443/a/b")
  }

  @Test func tokensCompareInConstantTimeAndExactly() {
    #expect(BearerAuthMiddleware<RippledRequestContext>.constantTimeEqual(Array("abc".utf8), Array("abc".utf8)))
    #expect(!BearerAuthMiddleware<RippledRequestContext>.constantTimeEqual(Array("abc".utf8), Array("abd".utf8)))
    #expect(!BearerAuthMiddleware<RippledRequestContext>.constantTimeEqual(Array("abc".utf8), Array("abcd".utf8)))
  }
}

@Suite("daemon paths and fetch backoff")
struct DaemonPathsTests {
  @Test func systemdDirectoriesWinOverXDGAndConfigWinsOverBoth() {
    let env = [
      "STATE_DIRECTORY": "/var/lib/rippled", "CACHE_DIRECTORY": "/var/cache/rippled:/other",
      "LOGS_DIRECTORY": "/var/log/rippled", "HOME": "/home/u", "XDG_STATE_HOME": "/x",
    ]
    let paths = DaemonPaths.resolve(.init(), environment: env)
    #expect(paths.state == "/var/lib/rippled")
    #expect(paths.cache == "/var/cache/rippled")
    #expect(paths.logs == "/var/log/rippled")
    let home = DaemonPaths.resolve(.init(), environment: ["HOME": "/home/u"])
    #expect(home.state == "/home/u/.local/state/rippled")
    #expect(home.logs == "/home/u/.local/state/rippled/logs")
    let configured = DaemonPaths.resolve(.init(stateDirectory: "/srv/state"), environment: env)
    #expect(configured.state == "/srv/state")
  }

  @Test func backoffGrowsAfterFailuresWithJitterAndIsCappedByTheInterval() {
    let interval = Duration.seconds(60)
    #expect(BranchSource.delay(interval: interval, failures: 0, random: 0) == .seconds(54))
    #expect(BranchSource.delay(interval: interval, failures: 0, random: 0.5) == .seconds(60))
    #expect(BranchSource.delay(interval: interval, failures: 1, random: 0.5) == .seconds(5))
    #expect(BranchSource.delay(interval: interval, failures: 3, random: 0.5) == .seconds(20))
    #expect(BranchSource.delay(interval: interval, failures: 10, random: 0.5) == .seconds(60))
    #expect(BranchSource.delay(interval: interval, failures: 10, random: 0) == .seconds(48))
  }

  @Test func journaldLinesCarryPriorityAndRunAndStayOnOneLine() {
    #expect(DaemonLog.format(.warning, "a\nb", run: 12) == "<4>run 12: a ⏎ b\n")
    #expect(DaemonLog.format(.info, "ready") == "<6>ready\n")
  }
}

@Suite("run logs")
struct RunLogFileTests {
  @Test func aLogStopsAtItsCapWithALastLineAndAFailureIsReportedOnce() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("runlog-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let failures = Locked<[String]>([])
    let log = try RunLogFile(path: dir + "/run-1.log", limit: 100) { problem in failures.withLock { $0.append(problem) }
    }
    for index in 0..<50 { log.line("line \(index) of a long log") }
    log.close()
    let text = try String(contentsOfFile: dir + "/run-1.log", encoding: .utf8)
    #expect(text.hasPrefix("line 0 of a long log\n"))
    #expect(text.hasSuffix("[log cut at 100 bytes]\n"))
    #expect(text.utf8.count < 140)
    #expect(failures.withLock { $0.isEmpty })
  }

  @Test func aLogThatCannotBeCreatedThrows() {
    #expect(throws: (any Error).self) {
      _ = try RunLogFile(path: "/proc/rippled-cannot-write/run-1.log", limit: 100) { _ in }
    }
  }
}
