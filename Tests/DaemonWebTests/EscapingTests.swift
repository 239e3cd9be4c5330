import Foundation
import RunModel
import Testing

@testable import DaemonWeb

#if canImport(FoundationXML)
  import FoundationXML
#endif

@Suite struct EscapingTests {
  @Test func markupEscapesEveryDangerousCharacterAndDropsWhatXMLForbids() {
    #expect(Markup.escape("<a href=\"x\">&'</a>") == "&lt;a href=&quot;x&quot;&gt;&amp;&#39;&lt;/a&gt;")
    #expect(Markup.escape("red \u{1B}[1;31mX\u{1B}[0m\u{0}\u{7}!") == "red X\u{FFFD}\u{FFFD}!")
    #expect(Markup.escape("a\u{1B}b\u{1B}") == "ab")
    #expect(Markup.escape("tab\tnew\nline ünï ✓") == "tab\tnew\nline ünï ✓")
    let text = "<b>"
    let markup: Markup = "<p title=\"\(text)\">\(text)</p>"
    #expect(markup.rendered == "<p title=\"&lt;b&gt;\">&lt;b&gt;</p>")
  }

  @Test func hostileBranchAndReasonAreEscapedOnTheIndex() throws {
    let html = Dashboard.index(status: SampleData.status, runs: SampleData.runs, now: SampleData.now)
    #expect(!html.contains(SampleData.hostile))
    #expect(!html.contains("<img"))
    #expect(!html.contains("<script"))
    #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
    #expect(html.contains("failed: &quot;a &amp; b&quot; isn&#39;t &lt;ok&gt;"))
    // The parsed page holds exactly the original strings as text.
    let xml = try XML(html)
    #expect(xml.text.contains(SampleData.hostile))
    #expect(xml.text.contains(SampleData.quoteReason))
    #expect(try xml.elements("script").isEmpty)
  }

  @Test func hostileStringsAreEscapedOnTheRunPageAndInTheGraph() throws {
    var detail = SampleData.failedDetail
    detail.run.branch = SampleData.hostile
    detail.run.reason = SampleData.quoteReason
    detail.analysis!.targets[0].name = "<script>x</script>"
    detail.analysis!.edges.append(RunEdge(from: ".:<script>x</script>", to: ".:DictionaryClient"))
    detail.analysis!.targets[3].failures = ["</li><script>alert(1)</script>"]
    let html = Dashboard.run(detail, now: SampleData.now)
    #expect(!html.contains("<script"))
    let xml = try XML(html)
    #expect(try xml.elements("script").isEmpty)
    #expect(xml.text.contains(SampleData.hostile))
    #expect(xml.text.contains("</li><script>alert(1)</script>"))
    let nodes = try xml.elements("g", class: "rg-node")
    #expect(nodes.contains { $0.attribute("data-key") == ".:<script>x</script>" })
  }

  @Test func notFoundEscapesItsMessage() throws {
    let html = Dashboard.notFound("no run <42> & \"more\"")
    #expect(html.contains("no run &lt;42&gt; &amp; &quot;more&quot;"))
    #expect(try XML(html).text.contains("no run <42> & \"more\""))
  }

  @Test func anchorsAreSafeAndDistinct() {
    #expect(GraphSVG.anchor(for: ".:Net") == "target-.2e..3a.Net")
    #expect(GraphSVG.anchor(for: "a/b:c") != GraphSVG.anchor(for: "a_b:c"))
    #expect(GraphSVG.anchor(for: ".2e") != GraphSVG.anchor(for: "\u{2E2E}"))
    #expect(GraphSVG.anchor(for: "\"><script>").allSatisfy { $0.isLetter || $0.isNumber || "-_.".contains($0) })
  }
}
