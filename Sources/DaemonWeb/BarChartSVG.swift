import Foundation

/// A bar chart as an SVG picture, pure: one bar per slot and series, drawn side by side (`grouped`) or the first
/// series as a wide pale bar behind the second (`overlay`: a part against its whole). Deterministic; every string
/// escaped; no script. Colours come from the page's stylesheet (`HistoryCharts.stylesheet`) through the classes
/// `rc-<series kind>`.
struct BarChart {
  struct Series: Equatable {
    /// Shown in the legend.
    var name: String
    /// Its class, `rc-<kind>` (letters only: it is written into a class attribute).
    var kind: String
    /// One value per slot, in the chart's unit.
    var values: [Double]
  }

  /// One position on the category axis: a run, a day, a week.
  struct Slot: Equatable {
    /// Written under the axis; nil: no label (long axes label every few slots).
    var label: String?
    /// The slot's tooltip (`<title>`), with its values in words.
    var tooltip: String
    /// A page the slot links to.
    var link: String?
  }

  enum Layout: Equatable {
    case grouped, overlay
  }

  /// Its class (`rc-<kind>`), for the page and for checks.
  var kind: String
  /// The picture's accessible name: its `<title>` and `aria-label`.
  var title: String
  /// The value axis' title, without the unit ("test time"): the unit is added in brackets.
  var valueTitle: String
  var categoryTitle: String
  var unit: ChartScale.Unit
  var slots: [Slot]
  var series: [Series]
  var layout: Layout = .grouped
  /// Extra muted legend entries ("flaky tests: no data").
  var notes: [String] = []
  /// Written across the picture when there are no slots.
  var emptyMessage: String
  /// Written across the plot when every value is 0 (nil: nothing).
  var zeroMessage: String? = nil

  static let width = 420.0
  static let height = 230.0
  static let plot = (left: 50.0, right: 406.0, top: 30.0, bottom: 190.0)

  var rendered: String { render().rendered }

  func render() -> Markup {
    let open = Self.open(kind: kind, title: title)
    guard !slots.isEmpty else { return open + Self.empty(emptyMessage) }
    let maximum = series.flatMap(\.values).filter(\.isFinite).max() ?? 0
    let scale = ChartScale.make(maximum: maximum, unit: unit)
    var out = open + legend() + axes(scale)
    out += "<g class=\"rc-bars\">\n"
    for index in slots.indices { out += slot(index, scale: scale) }
    out += "</g>\n"
    if maximum <= 0, let zeroMessage {
      let p = Self.plot
      out += """
        <text class="rc-message" x="\(coordinate: (p.left + p.right) / 2)" y="\(coordinate: (p.top + p.bottom) / 2)" \
        text-anchor="middle">\(zeroMessage)</text>

        """
    }
    return out + "</svg>"
  }

  private func legend() -> Markup { Self.legend(series.map { ($0.kind, $0.name) }, notes: notes) }

  /// The legend above the plot: a swatch (`rc-swatch rc-<kind>`) and a name per entry, then the muted notes.
  /// The `<svg>` of a chart (BarChart, LineChart): its size, class and accessible title.
  static func open(kind: String, title: String) -> Markup {
    """
    <svg xmlns="http://www.w3.org/2000/svg" class="rc rc-\(kind)" width="\(coordinate: width)" \
    height="\(coordinate: height)" viewBox="0 0 \(coordinate: width) \(coordinate: height)" \
    role="img" aria-label="\(title)"><title>\(title)</title>

    """
  }

  /// A chart with nothing to draw: a framed box saying why, and the end of the `<svg>`.
  static func empty(_ message: String) -> Markup {
    """
    <rect class="rc-empty" x="0.5" y="0.5" width="\(coordinate: width - 1)" height="\(coordinate: height - 1)" \
    rx="8"/><text class="rc-message" x="\(coordinate: width / 2)" y="\(coordinate: height / 2 + 4)" \
    text-anchor="middle">\(message)</text></svg>
    """
  }

  static func legend(_ entries: [(kind: String, name: String)], notes: [String] = []) -> Markup {
    var out: Markup = "<g class=\"rc-legend\">"
    var x = plot.left
    for entry in entries {
      out += """
        <rect class="rc-swatch rc-\(entry.kind)" x="\(coordinate: x)" y="6" width="10" height="10" rx="2"/>\
        <text x="\(coordinate: x + 14)" y="15">\(entry.name)</text>
        """
      x += 14 + textWidth(entry.name) + 14
    }
    for note in notes {
      out += "<text class=\"rc-note\" x=\"\(coordinate: x)\" y=\"15\">\(note)</text>"
      x += textWidth(note) + 14
    }
    return out + "</g>\n"
  }

  private func axes(_ scale: ChartScale) -> Markup {
    Self.axes(scale, valueTitle: valueTitle, categoryTitle: categoryTitle)
  }

  /// Both axes (`rc-axis-x` along the bottom, `rc-axis-y` up the left), the value axis' ticks and grid lines, and
  /// both axis titles (the unit in brackets after the value's).
  static func axes(_ scale: ChartScale, valueTitle: String, categoryTitle: String) -> Markup {
    let p = plot
    let length = p.bottom - p.top
    var out: Markup = """
      <g class="rc-axes"><line class="rc-axis rc-axis-y" x1="\(coordinate: p.left)" y1="\(coordinate: p.top)" \
      x2="\(coordinate: p.left)" y2="\(coordinate: p.bottom)"/>
      """
    for tick in scale.ticks {
      let y = p.bottom - scale.position(tick, length: length)
      out += """
        <line class="\(tick == 0 ? "rc-axis rc-axis-x" : "rc-grid")" x1="\(coordinate: p.left)" y1="\(coordinate: y)" \
        x2="\(coordinate: p.right)" y2="\(coordinate: y)"/><text class="rc-tick" x="\(coordinate: p.left - 6)" \
        y="\(coordinate: y + 3.5)" text-anchor="end">\(scale.label(tick))</text>
        """
    }
    let unit = scale.unitName.isEmpty ? valueTitle : "\(valueTitle) (\(scale.unitName))"
    let middle = (p.top + p.bottom) / 2
    out += """
      <text class="rc-axis-title" x="13" y="\(coordinate: middle)" text-anchor="middle" \
      transform="rotate(-90 13 \(coordinate: middle))">\(unit)</text>\
      <text class="rc-axis-title" x="\(coordinate: (p.left + p.right) / 2)" y="\(coordinate: height - 6)" \
      text-anchor="middle">\(categoryTitle)</text>
      """
    return out + "</g>\n"
  }

  private func slot(_ index: Int, scale: ChartScale) -> Markup {
    let p = Self.plot
    let width = (p.right - p.left) / Double(slots.count)
    let left = p.left + Double(index) * width
    let length = p.bottom - p.top
    let slot = slots[index]
    var out: Markup = """
      <g class="rc-slot" data-slot="\(index)"><title>\(slot.tooltip)</title>\
      <rect class="rc-hit" x="\(coordinate: left)" y="\(coordinate: p.top)" width="\(coordinate: width)" \
      height="\(coordinate: length)"/>
      """
    for (offset, barWidth, entry) in bars(slotWidth: width) {
      let value = index < entry.values.count ? entry.values[index] : 0
      guard value > 0, value.isFinite else { continue }
      // A bar never vanishes: at least one unit tall.
      let height = max(1, scale.position(value, length: length))
      out += """
        <rect class="rc-bar rc-\(entry.kind)" data-value="\(Self.number(value))" x="\(coordinate: left + offset)" \
        y="\(coordinate: p.bottom - height)" width="\(coordinate: barWidth)" height="\(coordinate: height)"/>
        """
    }
    if let label = slot.label {
      // Centred under the slot, but never past the picture's edges.
      let half = Self.textWidth(label) / 2
      let x = min(max(left + width / 2, half + 2), Self.width - half - 2)
      out += """
        <text class="rc-tick" x="\(coordinate: x)" y="\(coordinate: p.bottom + 14)" \
        text-anchor="middle">\(label)</text>
        """
    }
    out += "</g>"
    if let link = slot.link { out = "<a href=\"\(link)\">" + out + "</a>" }
    return out + "\n"
  }

  /// Each series' bar within a slot: its offset from the slot's left edge, its width.
  private func bars(slotWidth width: Double) -> [(Double, Double, Series)] {
    if layout == .overlay && series.count == 2 {
      let back = max(1, width * 0.8)
      let front = max(1, width * 0.44)
      return [((width - back) / 2, back, series[0]), ((width - front) / 2, front, series[1])]
    }
    let total = max(1, width * (series.count == 1 ? 0.7 : 0.8))
    let each = total / Double(max(1, series.count))
    return series.enumerated().map { ((width - total) / 2 + Double($0.offset) * each, each, $0.element) }
  }

  /// An approximate width of `text` at the legend's 11 px.
  static func textWidth(_ text: String) -> Double { Double(text.count) * 6.1 }

  /// A value for a data attribute: up to three decimals.
  static func number(_ value: Double) -> String {
    let thousandths = (value * 1000).rounded()
    if thousandths.truncatingRemainder(dividingBy: 1000) == 0 { return String(Int(thousandths / 1000)) }
    return String(thousandths / 1000)
  }
}
