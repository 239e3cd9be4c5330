import Foundation
import RunModel

/// The affected targets of a run as an SVG picture (see `GraphLayout` for the drawing rules).
public enum GraphSVG {
  /// The affected targets as a layered drawing, dependencies left of their dependents, arrows in the direction a
  /// change travels (from a target to the targets that use it). Deterministic; all text escaped; an empty set gives
  /// a small "nothing affected" picture.
  public static func render(targets: [RunTarget], edges: [RunEdge]) -> String {
    render(targets: targets, edges: edges, linkToAnchors: false)
  }

  /// With `linkToAnchors`, every box links to `#` + `anchor(for:)` of its target (the run page's target table).
  public static func render(targets: [RunTarget], edges: [RunEdge], linkToAnchors: Bool) -> String {
    guard !targets.isEmpty else { return empty.rendered }
    let layout = GraphLayout(targets: targets, edges: edges)
    return draw(layout, linkToAnchors: linkToAnchors).rendered
  }

  /// An HTML id for a target key: letters, digits, `-` and `_` kept, every other character as `.` + hex code + `.`.
  public static func anchor(for key: String) -> String {
    var id = "target-"
    for scalar in key.unicodeScalars {
      switch scalar {
      case "a"..."z", "A"..."Z", "0"..."9", "-", "_": id.unicodeScalars.append(scalar)
      default: id += "." + String(scalar.value, radix: 16) + "."
      }
    }
    return id
  }

  static let margin = 16.0
  static let legendHeight = 34.0

  static let style: Markup = """
    <style>\
    .rg text{font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;\
    font-size:12px;fill:#0f172a}\
    .rg .rg-name{font-weight:600}\
    .rg .rg-pkg{font-size:10px;fill:#64748b}\
    .rg .rg-legend text{font-size:11px;fill:#475569}\
    .rg .rg-glyph{font-size:13px;font-weight:700}\
    .rg-edge{fill:none;stroke:#94a3b8;stroke-width:1.3}\
    .rg-edge.rg-back{stroke-dasharray:4 3}\
    .rg-box{stroke-width:1.3}\
    .rg-node:hover .rg-box{stroke-width:2.5}\
    .rg-changed .rg-box{fill:#fff7ed;stroke:#ea580c}\
    .rg-reached .rg-box{fill:#f8fafc;stroke:#94a3b8}\
    .rg-passed .rg-box{fill:#dcfce7;stroke:#16a34a}\
    .rg-failed .rg-box{fill:#fee2e2;stroke:#dc2626;stroke-width:2}\
    .rg-notrun .rg-box{fill:#f1f5f9;stroke:#94a3b8;stroke-dasharray:4 3}\
    .rg-pending .rg-box{fill:#e0f2fe;stroke:#0284c7;stroke-dasharray:4 3}\
    .rg .rg-passed .rg-glyph{fill:#15803d}\
    .rg .rg-failed .rg-glyph{fill:#b91c1c}\
    .rg .rg-notrun .rg-glyph{fill:#64748b}\
    .rg .rg-pending .rg-glyph{fill:#0369a1}\
    .rg-stripe{fill:#ea580c}\
    .rg-empty{fill:#f8fafc;stroke:#cbd5e1}\
    </style>
    """

  static var empty: Markup {
    """
    <svg xmlns="http://www.w3.org/2000/svg" class="rg" width="280" height="56" viewBox="0 0 280 56" role="img" \
    aria-label="Nothing affected">\(style)<rect class="rg-empty" x="0.5" y="0.5" width="279" height="55" rx="8"/>\
    <text x="140" y="33" text-anchor="middle">Nothing affected</text></svg>
    """
  }

  private static func draw(_ layout: GraphLayout, linkToAnchors: Bool) -> Markup {
    let legend = self.legend()
    let width = (max(layout.width, legend.width) + 2 * margin).rounded(.up)
    let top = margin + legendHeight
    let height = (top + layout.height + margin).rounded(.up)
    let label = "Affected targets: \(layout.nodes.count) targets, \(layout.edges.count) dependencies"
    var out: Markup = """
      <svg xmlns="http://www.w3.org/2000/svg" class="rg" width="\(coordinate: width)" height="\(coordinate: height)" \
      viewBox="0 0 \(coordinate: width) \(coordinate: height)" role="img" aria-label="\(label)">\(style)\
      <defs><marker id="rg-arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="6" markerHeight="6" \
      orient="auto"><path d="M0,0L10,5L0,10z" fill="#94a3b8"/></marker></defs>
      <g class="rg-legend" transform="translate(\(coordinate: margin),\(coordinate: margin))">\(legend.markup)</g>

      """
    out += "<g class=\"rg-edges\" transform=\"translate(\(coordinate: margin),\(coordinate: top))\">\n"
    for edge in layout.edges {
      let from = layout.nodes[edge.dependency].target.key
      let to = layout.nodes[edge.dependent].target.key
      out += """
        <path class="rg-edge\(edge.isBack ? " rg-back" : "")" data-from="\(from)" data-to="\(to)" \
        d="\(pathData(edge))" marker-end="url(#rg-arrow)"/>

        """
    }
    out += "</g>\n<g class=\"rg-nodes\" transform=\"translate(\(coordinate: margin),\(coordinate: top))\">\n"
    for node in layout.nodes {
      let box = self.node(node)
      out += linkToAnchors ? "<a href=\"#\(anchor(for: node.target.key))\">\(box)</a>\n" : box + "\n"
    }
    out += "</g>\n</svg>"
    return out
  }

  private static func pathData(_ edge: GraphLayout.Edge) -> Markup {
    let points = edge.points
    var d: Markup = "M\(coordinate: points[0].x),\(coordinate: points[0].y)"
    var index = 1
    while index < points.count {
      let a = points[index - 1]
      let b = points[index]
      if index % 2 == 1 {
        let dx = b.x > a.x ? (b.x - a.x) / 2 : 40
        d += """
          C\(coordinate: a.x + dx),\(coordinate: a.y) \(coordinate: b.x - dx),\(coordinate: b.y) \
          \(coordinate: b.x),\(coordinate: b.y)
          """
      } else {
        d += "L\(coordinate: b.x),\(coordinate: b.y)"
      }
      index += 1
    }
    return d
  }

  private static func node(_ node: GraphLayout.Node) -> Markup {
    let target = node.target
    let kind = GraphStyle.kind(target)
    let x = node.x
    let y = node.y
    let hasPackage = target.package != "."
    var tooltip = target.name
    if hasPackage { tooltip += " (package \(target.package))" }
    tooltip += "\n" + target.kind
    if target.isTest { tooltip += ", " + GraphStyle.statusText(target.status) }
    if let duration = target.duration { tooltip += ", " + Formatting.duration(duration) }
    for reason in target.reasons.prefix(8) { tooltip += "\n• " + reason }
    if target.reasons.count > 8 { tooltip += "\n• … \(target.reasons.count - 8) more" }
    for failure in target.failures.prefix(3) { tooltip += "\n✗ " + GraphStyle.truncate(failure, to: 200) }
    var out: Markup = """
      <g class="rg-node rg-\(kind.rawValue)" data-key="\(target.key)"><title>\(tooltip)</title>\
      <rect class="rg-box" x="\(coordinate: x)" y="\(coordinate: y)" width="\(coordinate: node.width)" \
      height="\(coordinate: node.height)" rx="6"/>
      """
    if GraphStyle.isDirect(target) {
      out += """
        <rect class="rg-stripe" x="\(coordinate: x + 3)" y="\(coordinate: y + 5)" width="4" \
        height="\(coordinate: node.height - 10)" rx="2"/>
        """
    }
    let textX = x + GraphLayout.Metrics.leftPadding
    out += """
      <text class="rg-name" x="\(coordinate: textX)" y="\(coordinate: y + (hasPackage ? 15 : 22))">\
      \(GraphStyle.label(target.name))</text>
      """
    if hasPackage {
      out += """
        <text class="rg-pkg" x="\(coordinate: textX)" y="\(coordinate: y + 29)">\
        \(GraphStyle.packageLabel(target.package))</text>
        """
    }
    if target.isTest {
      out += """
        <text class="rg-glyph" x="\(coordinate: x + node.width - 8)" y="\(coordinate: y + 23)" \
        text-anchor="end">\(GraphStyle.glyph(kind))</text>
        """
    }
    return out + "</g>"
  }

  private static func legend() -> (markup: Markup, width: Double) {
    let entries: [(GraphStyle.Kind, String)] = [
      (.changed, "changed"), (.reached, "reached through a dependency"), (.passed, "test passed"),
      (.failed, "test failed"), (.notRun, "test not run"), (.pending, "test pending"),
    ]
    var out: Markup = ""
    var x = 0.0
    for (kind, text) in entries {
      out += """
        <g class="rg-\(kind.rawValue)"><rect class="rg-box" x="\(coordinate: x + 0.5)" y="2.5" width="22" \
        height="14" rx="3"/>
        """
      if kind == .changed {
        out += "<rect class=\"rg-stripe\" x=\"\(coordinate: x + 3)\" y=\"5\" width=\"3\" height=\"9\" rx=\"1.5\"/>"
      }
      out += "<text x=\"\(coordinate: x + 28)\" y=\"14\">\(text)</text></g>"
      x += 28 + Double(text.count) * 6.0 + 18
    }
    out += """
      <line class="rg-edge" x1="\(coordinate: x)" y1="9.5" x2="\(coordinate: x + 30)" y2="9.5" \
      marker-end="url(#rg-arrow)"/><text x="\(coordinate: x + 36)" y="14">A → B: B depends on A</text>
      """
    x += 36 + 21 * 6.0
    return (out, x)
  }
}
