import Foundation
import RunModel
import Testing

@testable import DaemonWeb

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// The run page's buttons and live log, and the login page: what a logged-in and an anonymous viewer see.
@Suite struct WebControlsTests {
  @Test func anonymousViewersGetALoginLinkAndNoButtons() throws {
    let xml = try XML(Dashboard.run(SampleData.failedDetail, now: SampleData.now, options: RunPageOptions()))
    let link = try #require(try xml.elements("a").first { $0.attribute("id") == "login-link" })
    #expect(link.attribute("href") == "/login?next=/runs/102")
    #expect(try xml.elements("form").isEmpty)
    #expect(try xml.elements("button").isEmpty)
  }

  @Test func aLoggedInViewerGetsReRunOnAFinishedRunAndCancelOnALiveOne() throws {
    let finished = try XML(
      Dashboard.run(SampleData.failedDetail, now: SampleData.now, options: RunPageOptions(loggedIn: true)))
    let actions = try finished.elements("form").map { $0.attribute("action") }
    #expect(actions == ["/runs/102/rerun", "/logout"])
    #expect(try finished.elements("form").allSatisfy { $0.attribute("method") == "post" })
    #expect(try finished.elements("a").allSatisfy { $0.attribute("id") != "login-link" })

    let queued = try XML(
      Dashboard.run(SampleData.queuedDetail, now: SampleData.now, options: RunPageOptions(loggedIn: true)))
    #expect(try queued.elements("form").map { $0.attribute("action") } == ["/runs/105/cancel", "/logout"])
    #expect(try queued.elements("button").contains { $0.attribute("id") == "cancel" })
  }

  @Test func aLiveRunShowsItsLogSoFarAndLoadsTheFollowingScript() throws {
    var detail = SampleData.queuedDetail
    detail.run.state = .running
    let tail = LogTail(text: "building <App> & \u{1B}[31mred\u{1B}[0m\n", omittedBytes: 0, endOffset: 48)
    let xml = try XML(Dashboard.run(detail, now: SampleData.now, options: RunPageOptions(log: tail)))
    let pre = try #require(try xml.elements("pre").first { $0.attribute("id") == "live-log" })
    #expect(pre.stringValue == "building <App> & red\n")
    #expect(pre.attribute("data-follow") == "/api/runs/105/log?follow=1")
    #expect(pre.attribute("data-offset") == "48")
    let scripts = try xml.elements("script")
    #expect(scripts.map { $0.attribute("src") } == ["/static/live-log.js"])
    #expect(scripts.allSatisfy { ($0.stringValue ?? "").isEmpty }, "no inline script")
    // The page reloads itself only where the script does not run.
    let refresh = try #require(try xml.elements("meta").first { $0.attribute("http-equiv") == "refresh" })
    #expect((refresh.parent as? XMLElement)?.name == "noscript")
  }

  @Test func aFinishedRunShowsItsLogWithoutAScriptAndSaysWhatWasLeftOut() throws {
    let tail = LogTail(text: "passed\n", omittedBytes: 70_000, endOffset: 70_007)
    let xml = try XML(Dashboard.run(SampleData.failedDetail, now: SampleData.now, options: RunPageOptions(log: tail)))
    #expect(try xml.elements("script").isEmpty)
    #expect(try xml.elements("pre").first { $0.attribute("id") == "log" }?.stringValue == "passed\n")
    #expect(xml.text.contains("70000 bytes before this"))
    #expect(try xml.elements("meta").allSatisfy { $0.attribute("http-equiv") != "refresh" })
  }

  @Test func thePolicyAllowsOwnScriptsFetchesAndFormsOnly() throws {
    let xml = try XML(Dashboard.run(SampleData.failedDetail, now: SampleData.now))
    let policy = try #require(
      try xml.elements("meta").first { $0.attribute("http-equiv") == "Content-Security-Policy" }?.attribute(
        "content"))
    for directive in ["default-src 'none'", "script-src 'self'", "connect-src 'self'", "form-action 'self'"] {
      #expect(policy.contains(directive))
    }
    #expect(!policy.contains("unsafe-inline'; script") && !policy.contains("script-src 'unsafe-inline'"))
    #expect(Dashboard.contentSecurityPolicy.hasSuffix("frame-ancestors 'none'"))
  }

  @Test func theLoginPageHasATokenFieldAndKeepsWhereToGoBack() throws {
    let xml = try XML(Dashboard.login(next: "/runs/7", message: nil, loggedIn: false, tokenConfigured: true))
    let form = try #require(try xml.elements("form").first)
    #expect(form.attribute("action") == "/login")
    #expect(form.attribute("method") == "post")
    let inputs = try xml.elements("input")
    #expect(inputs.contains { $0.attribute("type") == "password" && $0.attribute("name") == "token" })
    #expect(inputs.contains { $0.attribute("name") == "next" && $0.attribute("value") == "/runs/7" })

    let refused = try XML(
      Dashboard.login(next: "/", message: "That token is not right.", loggedIn: false, tokenConfigured: true))
    #expect(
      try refused.elements("div").first { $0.attribute("id") == "login-error" }?.stringValue
        == "That token is not right.")
    let without = try XML(Dashboard.login(next: "/", message: nil, loggedIn: false, tokenConfigured: false))
    #expect(try without.elements("form").isEmpty)
    #expect(without.text.contains("http.tokenFile"))
  }

  @Test func theScriptFollowsTheLogAndReloadsAtTheEnd() {
    let source = LiveLogScript.source
    #expect(source.contains("getReader()"))
    #expect(source.contains("\"&offset=\" + offset"))
    #expect(source.contains("window.location.reload()"))
  }
}
