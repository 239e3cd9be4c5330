import Foundation
import RunModel
import Testing

@testable import DaemonWeb

#if canImport(FoundationXML)
  import FoundationXML
#endif

@Suite struct GraphSVGTests {
  struct Box {
    var x, y, width, height: Double
    func overlaps(_ other: Box) -> Bool {
      x < other.x + other.width && other.x < x + width && y < other.y + other.height && other.y < y + height
    }
  }

  /// The node boxes by key, and the edges as (from, to) attributes.
  static func parse(_ svg: String) throws -> (boxes: [String: Box], edges: [(String, String)], xml: XML) {
    let xml = try XML(svg)
    var boxes: [String: Box] = [:]
    for node in try xml.elements("g", class: "rg-node") {
      let key = try #require(node.attribute("data-key"))
      let rect = try #require(node.children(named: "rect").first { $0.attribute("class") == "rg-box" })
      #expect(boxes[key] == nil, "one node per key: \(key)")
      boxes[key] = Box(
        x: rect.number("x"), y: rect.number("y"), width: rect.number("width"), height: rect.number("height"))
    }
    let edges = try xml.elements("path", class: "rg-edge").map {
      ($0.attribute("data-from") ?? "", $0.attribute("data-to") ?? "")
    }
    return (boxes, edges, xml)
  }

  static func checkLayout(targets: [RunTarget], edges: [RunEdge]) throws {
    let svg = GraphSVG.render(targets: targets, edges: edges)
    let (boxes, drawn, xml) = try parse(svg)
    #expect(xml.document.rootElement()?.localName == "svg")
    #expect(boxes.count == Set(targets.map(\.key)).count)
    #expect(drawn.count == Set(edges).count)
    // Edges are drawn from the dependency to the dependent, and every dependency is in a column left of it.
    #expect(Set(drawn.map { "\($0.0)>\($0.1)" }) == Set(edges.map { "\($0.to)>\($0.from)" }))
    for edge in edges {
      let dependent = try #require(boxes[edge.from])
      let dependency = try #require(boxes[edge.to])
      #expect(dependency.x + dependency.width < dependent.x, "\(edge.to) left of \(edge.from)")
    }
    let all = boxes.sorted { $0.key < $1.key }
    for i in all.indices {
      for j in all.indices where j > i {
        #expect(!all[i].value.overlaps(all[j].value), "\(all[i].key) overlaps \(all[j].key)")
      }
    }
    // Everything fits in the picture.
    let root = try #require(xml.document.rootElement())
    let width = root.number("width")
    let height = root.number("height")
    for box in boxes.values {
      #expect(box.x >= 0 && box.y >= 0)
      #expect(box.x + box.width + 2 * GraphSVG.margin <= width)
      #expect(box.y + box.height + GraphSVG.margin + GraphSVG.legendHeight <= height)
    }
  }

  @Test func sampleGraphIsLayeredWithoutOverlaps() throws {
    try Self.checkLayout(targets: SampleData.targets, edges: SampleData.edges)
  }

  @Test func bigGraphIsLayeredWithoutOverlaps() throws {
    let graph = SampleData.bigGraph(count: 120)
    try Self.checkLayout(targets: graph.targets, edges: graph.edges)
  }

  @Test func coloursSayChangedReachedAndTestStatus() throws {
    let (_, _, xml) = try Self.parse(GraphSVG.render(targets: SampleData.targets, edges: SampleData.edges))
    func classes(_ key: String) throws -> String {
      try #require(
        try xml.elements("g", class: "rg-node").first { $0.attribute("data-key") == key }?.attribute("class"))
    }
    #expect(try classes(".:SharedModels") == "rg-node rg-changed")
    #expect(try classes("Packages/Server:ServerRouter") == "rg-node rg-changed")  // Package.swift
    #expect(try classes(".:GameCore") == "rg-node rg-reached")
    #expect(try classes(".:GameCoreTests") == "rg-node rg-failed")
    #expect(try classes(".:SharedModelsTests") == "rg-node rg-passed")
    #expect(try classes(".:HomeFeatureTests") == "rg-node rg-notrun")
    #expect(try classes(".:CubeCoreTests") == "rg-node rg-notrun")
    #expect(try classes(".:LeaderboardFeatureTests") == "rg-node rg-pending")
    // Directly changed boxes carry a stripe (a changed test file too), others do not.
    let stripes = try xml.elements("g", class: "rg-node").filter {
      $0.children(named: "rect").contains { $0.attribute("class") == "rg-stripe" }
    }.compactMap { $0.attribute("data-key") }
    #expect(
      Set(stripes) == [".:SharedModels", ".:DictionaryClient", "Packages/Server:ServerRouter", ".:GameCoreTests"])
    // A package other than "." is shown; the root package is not.
    #expect(xml.text.contains("Packages/Server"))
    #expect(try xml.elements("text", class: "rg-pkg").count == 4)
    // A legend and arrowheads.
    #expect(try xml.elements("g", class: "rg-legend").count == 1)
    #expect(try xml.elements("path", class: "rg-edge").allSatisfy { $0.attribute("marker-end") == "url(#rg-arrow)" })
  }

  @Test func longLabelsAreCappedAndTheFullNameIsInTheTooltip() throws {
    let name = String(repeating: "VeryLongTargetName", count: 6)
    let package = "Packages/" + String(repeating: "deeply/nested/", count: 5) + "Kit"
    let target = RunTarget(package: package, name: name, kind: "regular", isTest: false, reasons: ["changed x"])
    let (boxes, _, xml) = try Self.parse(GraphSVG.render(targets: [target], edges: []))
    let label = try #require(try xml.elements("text", class: "rg-name").first?.stringValue)
    #expect(label.count == GraphLayout.Metrics.nameLimit && label.hasSuffix("…"))
    let packageLabel = try #require(try xml.elements("text", class: "rg-pkg").first?.stringValue)
    #expect(packageLabel.hasSuffix("nested/Kit") && packageLabel.count == GraphLayout.Metrics.packageLimit)
    #expect(try xml.elements("title").first?.stringValue?.contains(name) == true)
    #expect(boxes.values.first!.width <= GraphLayout.Metrics.maxNodeWidth)
  }

  @Test func deterministic() {
    let graph = SampleData.bigGraph(count: 80)
    let first = GraphSVG.render(targets: graph.targets, edges: graph.edges)
    let second = GraphSVG.render(targets: graph.targets, edges: graph.edges)
    let shuffled = GraphSVG.render(targets: graph.targets.reversed(), edges: graph.edges.reversed())
    #expect(first == second)
    #expect(first == shuffled)
  }

  @Test func emptySetGivesASmallPicture() throws {
    let svg = GraphSVG.render(targets: [], edges: [])
    let xml = try XML(svg)
    #expect(xml.text.contains("Nothing affected"))
    #expect(try #require(xml.document.rootElement()).number("width") < 400)
  }

  @Test func toleratesDuplicatesUnknownEndsSelfLoopsAndCycles() throws {
    let a = RunTarget(package: ".", name: "A", kind: "regular", isTest: false, reasons: ["changed a"])
    let b = RunTarget(package: ".", name: "B", kind: "regular", isTest: false, reasons: ["depends on A"])
    let c = RunTarget(package: ".", name: "C", kind: "regular", isTest: false, reasons: ["depends on B"])
    let edges = [
      RunEdge(from: ".:B", to: ".:A"), RunEdge(from: ".:B", to: ".:A"), RunEdge(from: ".:C", to: ".:B"),
      RunEdge(from: ".:A", to: ".:C"), RunEdge(from: ".:A", to: ".:A"), RunEdge(from: ".:C", to: ".:Missing"),
    ]
    let (boxes, drawn, _) = try Self.parse(GraphSVG.render(targets: [a, b, b, c], edges: edges))
    #expect(boxes.count == 3)
    #expect(drawn.count == 3)
  }

  @Test func longEdgesAreRoutedAroundBoxes() throws {
    // A → B → C → D, plus A → D: the long edge passes the columns of B and C beside their boxes.
    let names = ["A", "B", "C", "D"]
    let targets = names.map {
      RunTarget(package: ".", name: $0, kind: "regular", isTest: false, reasons: ["changed \($0)"])
    }
    let edges = [
      RunEdge(from: ".:B", to: ".:A"), RunEdge(from: ".:C", to: ".:B"), RunEdge(from: ".:D", to: ".:C"),
      RunEdge(from: ".:D", to: ".:A"),
    ]
    let layout = GraphLayout(targets: targets, edges: edges)
    let long = try #require(
      layout.edges.first {
        layout.nodes[$0.dependency].target.name == "A" && layout.nodes[$0.dependent].target.name == "D"
      })
    #expect(long.points.count == 6)
    for point in long.points.dropFirst().dropLast() {
      for node in layout.nodes where node.target.name == "B" || node.target.name == "C" {
        #expect(point.y < node.y || point.y > node.y + node.height)
      }
    }
  }

  /// Every box and edge of a 300-target graph is drawn. The time is only bounded against a blow-up: 700 ms was
  /// a bound a loaded parallel run can miss; the layout's usual cost (~0.1 s in a debug build) is no test's claim.
  @Test func threeHundredTargetsRenderEveryBoxAndEdge() throws {
    let graph = SampleData.bigGraph(count: 300)
    let clock = ContinuousClock()
    var svg = ""
    let elapsed = clock.measure { svg = GraphSVG.render(targets: graph.targets, edges: graph.edges) }
    #expect(elapsed < .seconds(30), "rendering 300 targets took \(elapsed)")
    let (boxes, drawn, _) = try Self.parse(svg)
    #expect(boxes.count == 300)
    #expect(drawn.count == graph.edges.count)
  }

  @Test func barycenterOrderingRemovesAvoidableCrossings() {
    // Two independent chains given in crossing order: X1 → Y2, X2 → Y1 (by key). The layout uncrosses them.
    let t = { (name: String) in RunTarget(package: ".", name: name, kind: "regular", isTest: false, reasons: []) }
    let targets = ["A1", "A2", "B1", "B2"].map(t)
    let edges = [RunEdge(from: ".:B2", to: ".:A1"), RunEdge(from: ".:B1", to: ".:A2")]
    let layout = GraphLayout(targets: targets, edges: edges)
    #expect(layout.crossings == 0)
    #expect(GraphLayout.crossings([(0, 1), (1, 0)]) == 1)
    #expect(GraphLayout.crossings([(0, 0), (1, 1), (2, 2)]) == 0)
    #expect(GraphLayout.crossings([(0, 2), (1, 1), (2, 0)]) == 3)
  }
}
