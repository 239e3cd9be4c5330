/// One `test.quarantine` entry: a known-bad test that still runs, but whose failures do not fail the run
/// (docs/DESIGN.md, "Flaky tests and quarantine").
public struct QuarantineEntry: Sendable, Hashable {
  /// `Target`, `Target/Suite` or `Target/Suite/test`.
  public var test: String
  /// Why, shown wherever its failures are reported.
  public var reason: String
  /// `YYYY-MM-DD`, the last day it holds; afterwards its failures count again and a warning names it.
  public var until: String?
  /// Where it is written, for that warning.
  public var location: ConfigLocation

  public init(test: String, reason: String, until: String? = nil, location: ConfigLocation) {
    self.test = test
    self.reason = reason
    self.until = until
    self.location = location
  }

  /// `ripple.yml:12`.
  public var origin: String { location.file + (location.line.map { ":\($0)" } ?? "") }
}
