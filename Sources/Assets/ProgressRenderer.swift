import AssetFetch
import Foundation

/// Turns bootstrap events into text (pure: the caller passes the time and writes the text).
///
/// On a terminal, download progress is one live line per asset, rewritten in place (`\r`), with bytes,
/// rate and ETA; without a terminal (CI, rippled's run log) only whole lines: one each `percentStep` percent,
/// and, with an `interval`, at least one that often while bytes arrive (also when the size is unknown). Every
/// other event is a sentence (`line(for:)`), never a dump of the event.
public struct ProgressRenderer: Sendable {
  public var interactive: Bool
  public var percentStep: Int
  public var interval: Double?
  private var downloads: [String: Download] = [:]
  private var liveLineOpen = false

  private struct Download {
    var start: Double
    var lastStep = -1
    var lastLine: Double
  }

  /// `ripple bootstrap`: every 25% in CI. rippled passes 10% and 10 s.
  public init(interactive: Bool, percentStep: Int = 25, interval: Double? = nil) {
    self.interactive = interactive
    self.percentStep = max(percentStep, 1)
    self.interval = interval
  }

  /// The text to write for `event` at time `now` (seconds, any monotonic origin), possibly empty.
  public mutating func render(_ event: BootstrapEvent, now: Double) -> String {
    if case .progress(let progress) = event { return renderProgress(progress, now: now) }
    let line = Self.line(for: event)
    guard let line else { return "" }
    let prefix = interactive && liveLineOpen ? "\r\u{1B}[2K" : ""
    liveLineOpen = false
    return prefix + line + "\n"
  }

  private mutating func renderProgress(_ progress: FetchProgress, now: Double) -> String {
    var entry = downloads[progress.assetID] ?? Download(start: now, lastLine: now)
    defer { downloads[progress.assetID] = entry }
    let elapsed = max(now - entry.start, 0.001)
    let rate = Double(progress.receivedBytes) / elapsed
    var text = "\(progress.assetID): \(Self.bytes(progress.receivedBytes))"
    var step: Int?
    if let total = progress.totalBytes, total > 0 {
      let percent = Int(Double(progress.receivedBytes) * 100 / Double(total))
      text += " of \(Self.bytes(total)) (\(percent)%)"
      if rate > 0, progress.receivedBytes < total {
        text += ", \(Self.bytes(Int64(rate)))/s, \(Self.duration(Double(total - progress.receivedBytes) / rate)) left"
      }
      step = percent / percentStep
    } else if rate > 0 {
      text += ", \(Self.bytes(Int64(rate)))/s"
    }
    if interactive {
      liveLineOpen = true
      return "\r\u{1B}[2K" + text
    }
    let newStep = step.map { $0 > entry.lastStep } ?? false
    let due = interval.map { now - entry.lastLine >= $0 } ?? false
    guard newStep || due else { return "" }
    if let step { entry.lastStep = step }
    entry.lastLine = now
    return text + "\n"
  }

  static func line(for event: BootstrapEvent) -> String? {
    switch event {
    case .waitingForRepository(let holder):
      "waiting for another ripple bootstrap in this repository (\(holder))…"
    case .waitingForDownload(let asset, let holder):
      "\(asset): waiting for another process downloading the same file (\(holder))…"
    case .recovered(let asset):
      "\(asset): completed an install that was interrupted"
    case .started(let asset, .placeholder, let reason):
      "\(asset): installing placeholders" + (reason.map { " (no access: \($0))" } ?? " (--public)")
    case .started(let asset, .private, _):
      "\(asset): installing"
    case .started(let asset, .generated, _):
      "\(asset): generating"
    case .generateStarted(let entry, .private, _):
      "\(entry): installing its private asset"
    case .generateStarted(let entry, _, let reason):
      "\(entry): running its command" + (reason.map { " (\($0))" } ?? "")
    case .generateFinished(let report):
      generateSummaryLine(report)
    case .transforming(let asset, let file, let done, let total):
      "\(asset): transforming \(file) (\(done + 1)/\(total))"
    case .finished(let report):
      summaryLine(report)
    case .secretWritten(let id, .generated):
      "secret \(id): written"
    case .secretWritten(let id, .fromExample(let missing)):
      "secret \(id): copied from the example"
        + (missing.isEmpty ? "" : " (not set: " + missing.joined(separator: ", ") + ")")
    case .secretWritten(let id, .unchanged):
      "secret \(id): up to date"
    case .progress:
      nil
    }
  }

  /// One line per asset for the summary.
  public static func summaryLine(_ report: AssetReport) -> String {
    var text: String
    switch report.status {
    case .upToDate(let kind):
      text = "\(report.id): up to date" + (kind == .placeholder ? " (placeholders)" : "")
    case .installed(let kind, let outcome, let downloaded):
      text =
        "\(report.id): installed \(kind == .placeholder ? "placeholders" : downloaded ? "(downloaded)" : "(from cache)")"
      text += ": \(outcome.added) added, \(outcome.replaced) replaced, \(outcome.removed) removed"
    case .failed(let error):
      text = "\(report.id): FAILED: \(error.description)"
    }
    for path in report.keptEdited { text += "\n  kept \(path): edited locally (use --force to replace it)" }
    return text
  }

  /// One line per `generate:` entry for the summary.
  public static func generateSummaryLine(_ report: GenerateReport) -> String {
    switch report.status {
    case .upToDate(let kind):
      "\(report.id): up to date" + (kind == .private ? " (private asset)" : "")
    case .installed(let kind, let outcome):
      "\(report.id): \(kind == .private ? "installed its private asset" : "generated"): \(outcome.added) added,"
        + " \(outcome.replaced) replaced, \(outcome.removed) removed, \(outcome.unchanged) unchanged"
    case .failed(let error):
      "\(report.id): FAILED: \(error.description)"
    case .skipped(let after):
      "\(report.id): SKIPPED: " + AssetsError.generateSkipped(entry: report.id, after: after).description
    }
  }

  static func bytes(_ count: Int64) -> String {
    let units = ["B", "KB", "MB", "GB", "TB"]
    var value = Double(count)
    var unit = 0
    while value >= 1000 && unit < units.count - 1 {
      value /= 1000
      unit += 1
    }
    return unit == 0 ? "\(count) B" : String(format: "%.1f", value) + " " + units[unit]
  }

  static func duration(_ seconds: Double) -> String {
    let total = Int(seconds.rounded(.up))
    return total < 60 ? "\(total)s" : "\(total / 60)m\(String(format: "%02d", total % 60))s"
  }
}
