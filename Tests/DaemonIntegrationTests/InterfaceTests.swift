import Crypto
import Foundation
import TestSupport
import Testing

@Suite("rippled interfaces: webhook, health, config, single instance", .serialized, .exclusive(.daemonCache(3)))
struct InterfaceTests {
  private func signed(_ body: Data) -> String {
    let mac = HMAC<SHA256>.authenticationCode(
      for: body, using: SymmetricKey(data: Data(DaemonHarness.webhookSecret.utf8)))
    return "sha256=" + mac.map { String(format: "%02x", $0) }.joined()
  }

  @Test func forgedWebhookIs401AndAReplayedDeliveryQueuesNothing() async throws {
    let h = try await DaemonHarness.withPassingBaseline()

    try h.write("README.md", "# webhook\n")
    let head = try h.commitAndPush("Docs")
    let body = Data(#"{"ref":"refs/heads/main","repository":{"clone_url":"\#(h.remote)"}}"#.utf8)
    let fetchesBefore = try await h.metric(#"rippled_fetches_total{repository="app"}"#)
    let forged = try await h.request(
      "POST", "/hooks/github", body: body,
      headers: [
        "X-Hub-Signature-256": "sha256=" + String(repeating: "0", count: 64), "X-GitHub-Delivery": "d-1",
        "X-GitHub-Event": "push",
      ])
    #expect(forged.status == 401)
    let unsigned = try await h.request("POST", "/hooks/github", body: body, headers: ["X-GitHub-Delivery": "d-1"])
    #expect(unsigned.status == 401)
    // The handler decides before it answers, and only an accepted delivery requests a fetch: the counted
    // rejections prove both were looked at; no fetch was counted.
    #expect(try await h.metric(#"rippled_webhook_deliveries_total{result="rejected"}"#) == 2)
    #expect(try await h.metric(#"rippled_fetches_total{repository="app"}"#) == fetchesBefore)
    #expect(try await h.runs().allSatisfy { ($0["head"] as? String) != head }, "a forged delivery fetched nothing")

    let headers = ["X-Hub-Signature-256": signed(body), "X-GitHub-Delivery": "d-1", "X-GitHub-Event": "push"]
    let accepted = try await h.request("POST", "/hooks/github", body: body, headers: headers)
    #expect(accepted.status == 202)
    let run = try await h.waitForRun(head: head, states: ["passed"])
    #expect(run["trigger"] as? String == "fetch")

    // The same delivery again (GitHub redelivers): acknowledged, no second run even after a new push.
    try h.write("README.md", "# webhook 2\n")
    let next = try h.commitAndPush("Docs 2")
    let replay = try await h.request("POST", "/hooks/github", body: body, headers: headers)
    #expect(replay.status == 200)
    #expect(try await h.metric(#"rippled_webhook_deliveries_total{result="duplicate"}"#) == 1)
    #expect(try await h.metric(#"rippled_fetches_total{repository="app"}"#) == fetchesBefore.map { $0 + 1 })
    #expect(try await h.runs().allSatisfy { ($0["head"] as? String) != next }, "a replay must not fetch")

    let metrics = String(decoding: try await h.get("/metrics").body, as: UTF8.self)
    #expect(metrics.contains("rippled_webhook_deliveries_total{result=\"rejected\"} 2"), "\(metrics)")
    #expect(metrics.contains("rippled_webhook_deliveries_total{result=\"duplicate\"} 1"))
  }

  @Test func anUnwritableLogFolderMakesItUnhealthyNotDeadAndItRecovers() async throws {
    let h = try await DaemonHarness.withPassingBaseline()
    #expect(try await h.get("/readyz").status == 200)

    // The logs folder becomes a file: nothing can be created in it (root ignores permission bits).
    try FileManager.default.moveItem(atPath: h.logs, toPath: h.logs + ".away")
    try Data("not a folder".utf8).write(to: URL(fileURLWithPath: h.logs))
    try h.write("README.md", "# no logs\n")
    let head = try h.commitAndPush("Docs")
    let run = try await h.waitForRunAfterFetch(head: head)
    #expect(run["state"] as? String == "passed", "the run itself goes on without a log")
    let (status, body) = try await h.get("/readyz")
    #expect(status == 503)
    #expect(String(decoding: body, as: UTF8.self).contains("cannot write run logs"))
    #expect(try await h.get("/healthz").status == 200, "alive, only not healthy")

    try FileManager.default.removeItem(atPath: h.logs)
    try FileManager.default.moveItem(atPath: h.logs + ".away", toPath: h.logs)
    try await h.eventually("healthy again", timeout: .seconds(30)) { try await h.get("/readyz").status == 200 }
  }

  @Test func dashboardAndAPIAnswer() async throws {
    let h = try DaemonHarness()
    try h.makeRemote()
    try h.start()
    try await h.waitForReady()
    let run = try await h.waitForRun(head: try h.head(), states: ["passed"])
    let id = run["id"] as! Int
    let index = String(decoding: try await h.get("/").body, as: UTF8.self)
    #expect(index.contains("/runs/\(id)"))
    let page = String(decoding: try await h.get("/runs/\(id)").body, as: UTF8.self)
    #expect(page.contains("<svg"))
    #expect(try await h.get("/runs/999999").status == 404)
    #expect(try await h.get("/api/runs/999999").status == 404)
    #expect(try await h.get("/api/runs?state=bogus").status == 400)
    let status = try #require(try await h.json("/api/status") as? [String: Any])
    #expect(status["ready"] as? Bool == true)
    let noToken = try await h.request("POST", "/api/runs", body: Data("{}".utf8))
    #expect(noToken.status == 401)
    let wrongToken = try await h.request(
      "POST", "/api/runs", body: Data(#"{"repository":"app","branch":"main"}"#.utf8),
      headers: ["Authorization": "Bearer nope"])
    #expect(wrongToken.status == 401)
    let metrics = String(decoding: try await h.get("/metrics").body, as: UTF8.self)
    #expect(metrics.contains("rippled_runs{state=\"passed\"} 1"), "\(metrics)")
    #expect(metrics.contains("rippled_fetches_total"))
  }

  @Test func theAPIRunsAJustPushedCommitAndRefusesAnUnknownOne() async throws {
    let h = try await DaemonHarness.withPassingBaseline()
    try h.write("Sources/Other/Other.swift", "public enum Other { public static let value = 3 }  // api\n")
    let head = try h.commitAndPush("Pushed, not fetched yet")
    let headers = ["Authorization": "Bearer \(DaemonHarness.token)", "Content-Type": "application/json"]
    let body = #"{"repository":"app","branch":"main","commit":"\#(head)"}"#
    let accepted = try await h.request("POST", "/api/runs", body: Data(body.utf8), headers: headers)
    #expect(accepted.status == 202, "\(String(decoding: accepted.body, as: UTF8.self))")
    let run = try await h.waitForRun(head: head, states: ["passed", "failed", "error"])
    #expect(run["state"] as? String == "passed", "\(run)")
    #expect(try await h.testedTargets(run["id"] as! Int) == ["OtherTests"])

    let unknown = String(repeating: "ab", count: 20)
    let missing = try await h.request(
      "POST", "/api/runs", body: Data(#"{"repository":"app","branch":"main","commit":"\#(unknown)"}"#.utf8),
      headers: headers)
    #expect(missing.status == 404)
    let short = try await h.request(
      "POST", "/api/runs", body: Data(#"{"repository":"app","branch":"main","commit":"abc"}"#.utf8), headers: headers)
    #expect(short.status == 400)
    let nowhere = try await h.request(
      "POST", "/api/runs", body: Data(#"{"repository":"nope","branch":"main"}"#.utf8), headers: headers)
    #expect(nowhere.status == 404)
  }

  @Test func badConfigExitsTwoNamingFileLineAndKey() async throws {
    let h = try DaemonHarness()
    try "repositories:\n  - name: app\n    remote: /x\n    fetchIntervall: 5s\n".write(
      toFile: h.root + "/bad.yml", atomically: true, encoding: .utf8)
    let result = try runCommand([DaemonHarness.binary, "--config", h.root + "/bad.yml"])
    #expect(result.status == 2)
    #expect(result.standardError.contains("bad.yml:4"), "\(result.standardError)")
    #expect(result.standardError.contains("fetchIntervall"))
    let missing = try runCommand([DaemonHarness.binary, "--config", h.root + "/missing.yml"])
    #expect(missing.status == 2)
    #expect(missing.standardError.contains("missing.yml"))
  }

  @Test func aSecondDaemonOnTheSameStateRefusesToStart() async throws {
    let h = try DaemonHarness()
    try h.startIdle()  // nothing to run: a fixture's run would build on after the test, for nothing
    try await h.waitForReady()
    let second = try runCommand([DaemonHarness.binary, "--config", h.root + "/rippled.yml"])
    #expect(second.status == 3)
    #expect(second.standardError.contains("already using this state folder"), "\(second.standardError)")
  }
}
