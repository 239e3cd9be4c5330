/// A run's line coverage of the whole suite (`coverage: true` in rippled.yml; `ripple test --coverage`'s merge of
/// the selected targets' fresh coverage and the others' recorded coverage). A run without coverage has none:
/// never 0 %.
public struct RunCoverage: Codable, Sendable, Hashable {
  /// Covered and instrumented lines of the measured files (files some target's unknown coverage reaches are left
  /// out, never counted as uncovered).
  public var linesCovered: Int
  public var linesTotal: Int
  /// Test targets whose coverage counts: measured in this run or read from their pass records.
  public var targetsMeasured: Int
  /// Test targets whose coverage is unknown (no record, a blob missing, a crash): the figure is partial.
  public var targetsNotMeasured: Int

  public init(linesCovered: Int, linesTotal: Int, targetsMeasured: Int, targetsNotMeasured: Int) {
    self.linesCovered = linesCovered
    self.linesTotal = linesTotal
    self.targetsMeasured = targetsMeasured
    self.targetsNotMeasured = targetsNotMeasured
  }

  /// Covered lines in percent; nil when no line was measured (no number rather than 0 % or 100 %).
  public var percent: Double? {
    linesTotal > 0 ? Double(linesCovered) * 100 / Double(linesTotal) : nil
  }

  /// Some test targets' coverage is unknown: the percentage is of fewer files than the suite has.
  public var isPartial: Bool { targetsNotMeasured > 0 }

  // The API's JSON also carries `percent` (two decimals, absent when no line was measured) and `partial`, for
  // readers that do not divide; reading ignores both.
  private enum CodingKeys: String, CodingKey {
    case linesCovered, linesTotal, targetsMeasured, targetsNotMeasured, percent, partial
  }

  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      linesCovered: try c.decode(Int.self, forKey: .linesCovered),
      linesTotal: try c.decode(Int.self, forKey: .linesTotal),
      targetsMeasured: try c.decode(Int.self, forKey: .targetsMeasured),
      targetsNotMeasured: try c.decode(Int.self, forKey: .targetsNotMeasured))
  }

  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(linesCovered, forKey: .linesCovered)
    try c.encode(linesTotal, forKey: .linesTotal)
    try c.encode(targetsMeasured, forKey: .targetsMeasured)
    try c.encode(targetsNotMeasured, forKey: .targetsNotMeasured)
    try c.encodeIfPresent(percent.map { ($0 * 100).rounded() / 100 }, forKey: .percent)
    try c.encode(isPartial, forKey: .partial)
  }
}
