import Foundation

/// The value axis of a chart: from 0 to `top` in `step`s, with at most `maxTicks` steps, on round values.
///
/// Durations step on clock-friendly values (5 ms, 15 s, 30 s, 5 min, 15 min, 2 h…) and are labelled in the unit the
/// step is counted in (ms, s, min or h, named in the axis title); counts step on whole 1, 2, 5 × 10ⁿ; percentages
/// always span 0–100 % in steps of 20, whatever the values (a coverage line keeps its place on the page).
struct ChartScale: Equatable {
  enum Unit: Equatable {
    case seconds, count, percent
  }

  var top: Double
  var step: Double
  /// The unit the tick labels are written in: "ms", "s", "min", "h", or "" for counts.
  var unitName: String
  /// Seconds per `unitName` (1 for counts).
  var divisor: Double

  /// The tick values from 0 to `top`.
  var ticks: [Double] {
    let count = Int((top / step).rounded())
    return (0...count).map { Double($0) * step }
  }

  /// A tick value in the axis' unit: whole, or with one decimal.
  func label(_ value: Double) -> String {
    let scaled = value / divisor
    let tenths = (scaled * 10).rounded()
    if tenths.truncatingRemainder(dividingBy: 10) == 0 { return String(Int(tenths / 10)) }
    return String(Int(tenths) / 10) + "." + String(abs(Int(tenths)) % 10)
  }

  /// Where `value` falls on an axis `length` long (0 at the bottom, `length` at `top`), clamped to the axis.
  func position(_ value: Double, length: Double) -> Double {
    guard value.isFinite, top > 0 else { return 0 }
    return min(max(value, 0), top) / top * length
  }

  static let durationSteps: [Double] = [
    0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200,
    10_800, 21_600, 43_200,
  ]

  /// The scale for values up to `maximum` (negative and non-finite values count as 0; all 0 gives one step).
  static func make(maximum: Double, unit: Unit, maxTicks: Int = 5) -> ChartScale {
    if unit == .percent { return ChartScale(top: 100, step: 20, unitName: "%", divisor: 1) }
    let maximum = maximum.isFinite ? max(0, maximum) : 0
    let raw = maximum / Double(max(1, maxTicks))
    let step: Double
    switch unit {
    case .count, .percent:
      step = max(1, nice(raw))
    case .seconds where maximum == 0:
      step = 60  // nothing to show: an axis of one minute, not of a tenth of a second
    case .seconds:
      step = durationSteps.first { $0 >= raw } ?? 3600 * nice(raw / 3600)
    }
    let top = max(1, (maximum / step - 1e-9).rounded(.up)) * step
    switch unit {
    case .count, .percent: return ChartScale(top: top, step: step, unitName: "", divisor: 1)
    case .seconds where step >= 3600: return ChartScale(top: top, step: step, unitName: "h", divisor: 3600)
    case .seconds where step >= 60: return ChartScale(top: top, step: step, unitName: "min", divisor: 60)
    case .seconds where step >= 1: return ChartScale(top: top, step: step, unitName: "s", divisor: 1)
    case .seconds: return ChartScale(top: top, step: step, unitName: "ms", divisor: 0.001)
    }
  }

  /// The smallest 1, 2 or 5 × 10ⁿ that is at least `value` (1 for 0).
  static func nice(_ value: Double) -> Double {
    guard value > 0 else { return 1 }
    let power = pow(10, (log10(value)).rounded(.down))
    return [1.0, 2, 5, 10].map { $0 * power }.first { $0 >= value * (1 - 1e-12) } ?? 10 * power
  }
}
