import Foundation

/// A line chart as an SVG picture, pure: one point per slot joined in order, on the frame of `BarChart` (its size,
/// plot area, legend and axes). A point may be marked (`marked`: drawn hollow, in the legend as `markName`), e.g. a
/// run whose coverage is partial. Deterministic; every string escaped; no script; colours from the page's stylesheet
/// (`rc-<kind>`, `rc-<markKind>`).
struct LineChart {
  struct Point: Equatable {
    var value: Double
    /// Drawn as a hollow marker of class `rc-<markKind>` instead of a filled one.
    var marked: Bool
    /// Written under the axis; nil: no label.
    var label: String?
    var tooltip: String
    var link: String?
  }

  var kind: String
  /// The picture's accessible name: its `<title>` and `aria-label`.
  var title: String
  var valueTitle: String
  var categoryTitle: String
  var unit: ChartScale.Unit
  var lineName: String
  var markKind: String
  var markName: String
  var points: [Point]
  var emptyMessage: String

  var rendered: String { render().rendered }

  func render() -> Markup {
    let (width, p) = (BarChart.width, BarChart.plot)
    let open = BarChart.open(kind: kind, title: title)
    guard !points.isEmpty else { return open + BarChart.empty(emptyMessage) }
    let scale = ChartScale.make(maximum: points.map(\.value).filter(\.isFinite).max() ?? 0, unit: unit)
    var entries = [(kind: kind, name: lineName)]
    if points.contains(where: \.marked) { entries.append((markKind, markName)) }
    var out =
      open + BarChart.legend(entries) + BarChart.axes(scale, valueTitle: valueTitle, categoryTitle: categoryTitle)
    let positions = points.indices.map { position($0, scale: scale) }
    let line = positions.map { "\(Markup.coordinate($0.x)),\(Markup.coordinate($0.y))" }.joined(separator: " ")
    out += "<polyline class=\"rc-line rc-\(kind)\" fill=\"none\" points=\"\(line)\"/>\n<g class=\"rc-points\">\n"
    let slotWidth = (p.right - p.left) / Double(points.count)
    for (index, point) in points.enumerated() {
      let (x, y) = positions[index]
      var slot: Markup = """
        <g class="rc-slot" data-slot="\(index)"><title>\(point.tooltip)</title>\
        <rect class="rc-hit" x="\(coordinate: x - slotWidth / 2)" y="\(coordinate: p.top)" \
        width="\(coordinate: slotWidth)" height="\(coordinate: p.bottom - p.top)"/>\
        <circle class="rc-point rc-\(point.marked ? markKind : kind)" data-value="\(BarChart.number(point.value))" \
        cx="\(coordinate: x)" cy="\(coordinate: y)" r="3.5"/>
        """
      if let label = point.label {
        let half = BarChart.textWidth(label) / 2
        slot += """
          <text class="rc-tick" x="\(coordinate: min(max(x, half + 2), width - half - 2))" \
          y="\(coordinate: p.bottom + 14)" text-anchor="middle">\(label)</text>
          """
      }
      slot += "</g>"
      if let link = point.link { slot = "<a href=\"\(link)\">" + slot + "</a>" }
      out += slot + "\n"
    }
    return out + "</g></svg>"
  }

  /// The centre of point `index`'s slot, at its value's height (clamped to the axis).
  private func position(_ index: Int, scale: ChartScale) -> (x: Double, y: Double) {
    let p = BarChart.plot
    let slotWidth = (p.right - p.left) / Double(points.count)
    let value = points[index].value.isFinite ? points[index].value : 0
    return (p.left + (Double(index) + 0.5) * slotWidth, p.bottom - scale.position(value, length: p.bottom - p.top))
  }
}
