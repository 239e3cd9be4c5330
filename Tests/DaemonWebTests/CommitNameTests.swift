import Foundation
import RunModel
import Testing

@testable import DaemonWeb

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// Commits named on the runs list and the run page: subject, author, and a link to the commit on its forge.
@Suite struct ForgeLinkTests {
  static let sha = SampleData.sha(7)

  @Test(arguments: [
    ("https://github.com/pointfreeco/isowords.git", "https://github.com/pointfreeco/isowords/commit/"),
    ("https://github.com/pointfreeco/isowords", "https://github.com/pointfreeco/isowords/commit/"),
    ("git@github.com:pointfreeco/isowords.git", "https://github.com/pointfreeco/isowords/commit/"),
    ("ssh://git@github.com:22/pointfreeco/isowords.git/", "https://github.com/pointfreeco/isowords/commit/"),
    ("https://x-access-token:ghp_SECRET@github.com/org/repo.git", "https://github.com/org/repo/commit/"),
    ("https://user:pa%40ss@GitHub.com/org/repo?x=1#y", "https://github.com/org/repo/commit/"),
    ("https://gitlab.com/group/sub/repo.git", "https://gitlab.com/group/sub/repo/-/commit/"),
    ("git@gitlab.example.com:group/repo.git", "https://gitlab.example.com/group/repo/-/commit/"),
    ("https://oauth2:glpat-SECRET@gitlab.example.com:8443/g/r.git", "https://gitlab.example.com:8443/g/r/-/commit/"),
  ])
  func forgeCommitPages(remote: String, prefix: String) throws {
    let url = try #require(ForgeLink.commitURL(remote: remote, commit: Self.sha))
    #expect(url == prefix + Self.sha)
    #expect(!url.contains("SECRET") && !url.contains("@"))
  }

  @Test(arguments: [
    "/srv/git/app.git", "file:///srv/git/app.git", "https://example.com/org/repo.git", "git@example.com:tools.git",
    "https://github.com/org/repo/extra", "https://github.com/org", "https://github.com/org/re po",
    "https://github.com/../repo", "gitlab.com/org/repo", "",
  ])
  func noLinkOffAForge(remote: String) {
    #expect(ForgeLink.commitURL(remote: remote, commit: Self.sha) == nil)
  }

  @Test func noLinkForAWorkingTreeOrAShortCommit() {
    #expect(ForgeLink.commitURL(remote: "https://github.com/o/r", commit: "worktree") == nil)
    #expect(ForgeLink.commitURL(remote: "https://github.com/o/r", commit: "abc123") == nil)
  }
}

@Suite struct CommitNamePageTests {
  /// Bad input: a subject with HTML and 10,000 characters.
  static let hugeSubject = "<img src=x onerror=alert(1)> & \"fix\" " + String(repeating: "é", count: 10_000)
  static let remote = "https://x-access-token:ghp_SECRET@github.com/pointfreeco/isowords.git"

  static func named(_ run: RunRecord) -> RunRecord {
    var run = run
    run.subject = hugeSubject
    run.author = "Ada <Lovelace>"
    return run
  }

  @Test func theListCutsAHostileLongSubjectEscapedAndLinksTheForge() throws {
    let runs = SampleData.runs.map { $0.id == 102 ? Self.named($0) : $0 }
    let html = Dashboard.index(
      status: SampleData.status, runs: runs, now: SampleData.now, remotes: ["isowords": Self.remote])
    #expect(!html.contains("<img"))
    #expect(!html.contains("SECRET"))
    let xml = try XML(html)
    let row = try #require(try xml.elements("tr").first { $0.attribute("data-run") == "102" })
    func span(_ name: String) throws -> String? {
      try row.nodes(forXPath: ".//*[local-name()='span'][@class='\(name)']").first?.stringValue
    }
    let shown = Formatting.truncated(Self.hugeSubject, to: Dashboard.listSubjectLength)
    #expect(shown.count == Dashboard.listSubjectLength + 1 && shown.hasSuffix("…"))
    #expect(try span("subject") == shown)
    #expect(try span("author") == "· Ada <Lovelace>")
    #expect(!html.contains(String(repeating: "é", count: 100)), "the list never carries the whole subject")
    let links = try row.nodes(forXPath: ".//*[local-name()='a']").compactMap { ($0 as? XMLElement)?.attribute("href") }
    #expect(links == ["/runs/102", "https://github.com/pointfreeco/isowords/commit/\(SampleData.sha(102))"])
    // A run whose commit is not read yet shows its sha only; a repository off a forge gets no link.
    let other = try #require(try xml.elements("tr").first { $0.attribute("data-run") == "103" })
    #expect(try other.nodes(forXPath: ".//*[local-name()='span'][@class='commit-name']").isEmpty)
  }

  @Test func theRunPageShowsTheWholeSubjectEscaped() throws {
    var detail = SampleData.failedDetail
    detail.run = Self.named(detail.run)
    let html = Dashboard.run(detail, now: SampleData.now, options: RunPageOptions(remote: Self.remote))
    #expect(!html.contains("<img"))
    #expect(!html.contains("SECRET"))
    let xml = try XML(html)
    let subjects = try xml.elements("span", class: "subject").compactMap(\.stringValue)
    #expect(subjects == [Self.hugeSubject])
    #expect(xml.text.contains("Ada <Lovelace>"))
    let forge = try xml.elements("a", class: "forge").compactMap { $0.attribute("href") }
    #expect(forge == ["https://github.com/pointfreeco/isowords/commit/\(SampleData.sha(102))"])
  }

  @Test func anUnknownCommitAndAnUnreadOneShowNoName() throws {
    var detail = SampleData.failedDetail
    detail.run.subject = ""
    detail.run.author = ""
    let html = Dashboard.run(detail, now: SampleData.now, options: RunPageOptions(remote: "/srv/git/app.git"))
    let xml = try XML(html)
    #expect(try xml.elements("span", class: "commit-name").isEmpty)
    #expect(try xml.elements("a", class: "forge").isEmpty)
  }
}

/// The affected graph on the run page: collapsible, and a deep graph scrolls in its box instead of overflowing.
@Suite struct GraphBoxTests {
  @Test func aDeepGraphSitsInAnOpenDetailsBoxThatScrolls() throws {
    var detail = SampleData.failedDetail
    let graph = SampleData.bigGraph(count: 300)  // nine tiers: deeper than six levels
    detail.analysis?.targets = graph.targets
    detail.analysis?.edges = graph.edges
    let html = Dashboard.run(detail, now: SampleData.now)
    let xml = try XML(html)
    let box = try #require(try xml.elements("details", class: "graph-box").first)
    #expect(box.attribute("open") == "open")
    #expect(box.children(named: "summary").first?.stringValue?.contains("Affected graph") == true)
    let card = try #require(box.children(named: "div").first)
    #expect(card.attribute("class") == "card graph")
    let svg = try #require(card.children(named: "svg").first)
    // The picture keeps its own size (wider and taller than a page); the box scrolls both ways.
    #expect(svg.number("width") > 1280)
    #expect(html.contains(".graph{padding:10px;overflow:auto;max-height:75vh;max-width:100%}"))
    #expect(html.contains(".graph svg{display:block;max-width:none;height:auto}"))
  }
}

/// The run page splits a run's time into its build and test phases.
@Suite struct RunPhasesTests {
  @Test func buildAndTestTimeWithABarSplitTheSameWay() throws {
    var detail = SampleData.failedDetail
    detail.run.buildSeconds = 48
    detail.run.testSeconds = 16
    let xml = try XML(Dashboard.run(detail, now: SampleData.now))
    #expect(xml.text.contains("build 48 s · tests 16 s"))
    let svg = try #require(try xml.elements("svg", class: "phases").first)
    #expect(svg.attribute("aria-label") == "build 75%, tests 25%")
    #expect(try xml.elements("rect", class: "ph-build").first?.number("width") == 120)
    #expect(try xml.elements("rect", class: "ph-test").first?.number("width") == 40)
  }

  @Test func aRunWithoutResultsShowsADash() throws {
    let xml = try XML(Dashboard.run(SampleData.queuedDetail, now: SampleData.now))
    #expect(try xml.elements("svg", class: "phases").isEmpty)
  }

  /// A pusher's subject and name with bidi controls: dropped, and each isolated in `<bdi>` (issue 48).
  @Test func bidiControlsInASubjectOrAuthorAreDroppedAndEachIsIsolated() throws {
    var run = SampleData.runs[0]
    run.subject = "Fix \u{202E}gnp.exe\u{202C} loader\u{2066}"
    run.author = "\u{200F}Mallory\u{202D}"
    let html = Dashboard.run(
      RunDetail(run: run, analysis: nil, transitions: []), now: SampleData.now, options: RunPageOptions())
    for control in ["\u{202E}", "\u{202C}", "\u{2066}", "\u{200F}", "\u{202D}"] { #expect(!html.contains(control)) }
    #expect(html.contains("<bdi>Fix gnp.exe loader</bdi>"))
    #expect(html.contains("<bdi>Mallory</bdi>"))
  }
}
