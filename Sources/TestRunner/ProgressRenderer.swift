import Foundation

/// Turns run events into terminal output. Pure: state in, text out; `ProgressWriter` does the I/O.
///
/// On a TTY (`interactive`) it keeps one updating status line (package, target, passed/failed so far,
/// elapsed), fitted to `columns` (see `StatusLine`), and prints permanent lines only for failures and
/// finished packages; without a TTY (CI) every step is a plain line and nothing is overwritten.
public struct ProgressRenderer: Sendable {
  public enum Output: Sendable, Hashable {
    /// A permanent line.
    case line(String)
    /// Replaces the status line (TTY only).
    case status(String)
  }

  public var interactive: Bool
  /// The terminal's width; nil: status lines are not fitted.
  public var columns: Int?
  /// `--verbose`: every line the build prints is passed through.
  public var verbose = false
  private var passed = 0
  private var failed = 0
  private var current = ""
  /// Per package building: SwiftPM's last `[n/N]` step, and when (elapsed) and at which tenth a plain line
  /// last said so.
  private var builds: [String: (step: BuildStep, reportedAt: Double, tenth: Int)] = [:]

  public init(interactive: Bool, columns: Int? = nil, verbose: Bool = false) {
    self.interactive = interactive
    self.columns = columns
    self.verbose = verbose
  }

  public mutating func render(_ event: TestRunEvent, elapsed: Double) -> [Output] {
    var out: [Output] = []
    switch event {
    case .started(let packages, let targets, let whole):
      out.append(.line("Testing " + TestRunEvent.scope(packages: packages, targets: targets, wholePackages: whole)))
    case .building(let package):
      current = "building \(name(package))"
      if !interactive { out.append(.line("Building \(name(package))…")) }
    case .built(let package, let succeeded, let seconds):
      if !succeeded || !interactive {
        out.append(
          .line("\(succeeded ? "Built" : "✘ Build failed:") \(name(package)) (\(SummaryRenderer.format(seconds)))"))
      }
    case .output(let package, let line):
      // The build's own lines are echoed only with --verbose (its errors are in the summary; rippled writes them
      // to the run log); its `[n/N]` steps are the progress.
      if verbose { out.append(.line(line.text)) }
      guard let step = BuildStep(line.text) else { break }
      current = "building \(name(package)) \(step.text)"
      guard !interactive, !verbose else { break }
      let tenth = step.count > 0 ? step.done * 10 / step.count : 0
      let last = builds[package]
      if last == nil || elapsed - last!.reportedAt >= 10 || tenth > last!.tenth {
        builds[package] = (step, elapsed, tenth)
        out.append(.line("Building \(name(package)): \(step.text)"))
      }
    case .testing(let package, let targets, let attempt):
      let what = targets.isEmpty ? "all tests" : targets.joined(separator: ", ")
      current = "\(name(package)) \(what)" + (attempt > 1 ? " (retry \(attempt - 1))" : "")
      if !interactive { out.append(.line("Testing \(current)")) }
    case .testFinished(_, let target, let test):
      if test.status == .failed { failed += 1 } else if test.status == .passed { passed += 1 }
      current = "\(target) \(test.qualifiedName)"
      if test.status == .failed {
        let location = test.failures.first?.location.map { " at \($0)" } ?? ""
        out.append(.line("✘ \(test.identifier(target: target)) failed\(location)"))
      } else if test.flaky {
        out.append(.line("~ \(test.identifier(target: target)) passed on attempt \(test.attempts) (flaky)"))
      }
    case .packageFinished(let package):
      let t = TestTotals(package.targets.flatMap(\.tests))
      out.append(
        .line(
          "\(symbol(package.status)) \(name(package.path)): \(t.passed) passed, \(t.failed) failed, \(t.skipped) skipped"
        ))
    case .finished:
      if interactive { out.append(.status("")) }
      return out
    }
    if interactive {
      let status = StatusLine(
        prefix: "[\(SummaryRenderer.format(elapsed))] ", subject: current,
        suffix: " — \(passed) passed, \(failed) failed")
      out.append(.status(columns.map(status.fitted) ?? status.text))
    }
    return out
  }

  private func name(_ package: String) -> String { package == "." ? "root package" : package }

  private func symbol(_ status: PackageResult.Status) -> String {
    switch status {
    case .passed: "✔"
    case .cancelled: "■"
    default: "✘"
    }
  }
}

/// Writes rendered progress to a file handle (standard error by default), erasing and redrawing the
/// status line on a TTY. Thread-safe: events may arrive from several package tasks.
public final class ProgressWriter: @unchecked Sendable {
  private let lock = NSLock()
  private var renderer: ProgressRenderer
  private let handle: FileHandle
  private let columns: (@Sendable () -> Int)?
  private let start = ContinuousClock.now
  private var hasStatus = false

  /// - Parameter columns: the terminal's width, asked at every redraw (it may be resized); nil: the
  ///   status line is not fitted.
  public init(
    handle: FileHandle = .standardError, interactive: Bool? = nil, columns: (@Sendable () -> Int)? = nil,
    verbose: Bool = false, silent: Bool = false
  ) {
    self.handle = handle
    self.columns = columns
    self.silent = silent
    self.renderer = ProgressRenderer(
      interactive: interactive ?? (isatty(handle.fileDescriptor) == 1), verbose: verbose)
  }

  /// `--progress none`: nothing is written.
  private let silent: Bool

  /// Erases the status line, if one is showing: call it when the run ends, however it ends (the
  /// `finished` event does not come when the run throws).
  public func finish() {
    lock.lock()
    defer { lock.unlock() }
    guard hasStatus else { return }
    hasStatus = false
    handle.write(Data("\r\u{1B}[2K".utf8))
  }

  public func handle(_ event: TestRunEvent) {
    if silent { return }
    lock.lock()
    defer { lock.unlock() }
    if renderer.interactive, let columns { renderer.columns = columns() }
    let outputs = renderer.render(event, elapsed: TestRunner.seconds(since: start))
    var text = ""
    for output in outputs {
      switch output {
      case .line(let line):
        if hasStatus { text += "\r\u{1B}[2K" }
        hasStatus = false
        text += line + "\n"
      case .status(let status):
        text += "\r\u{1B}[2K" + status
        hasStatus = !status.isEmpty
      }
    }
    if !text.isEmpty { handle.write(Data(text.utf8)) }
  }
}

/// SwiftPM's progress line: `[12/345] Compiling Core Core.swift`.
struct BuildStep: Sendable, Hashable {
  var done: Int
  var count: Int
  var text: String

  init?(_ line: String) {
    guard line.hasPrefix("["), let close = line.firstIndex(of: "]") else { return nil }
    let numbers = line[line.index(after: line.startIndex)..<close].split(separator: "/")
    guard numbers.count == 2, let done = Int(numbers[0]), let count = Int(numbers[1]) else { return nil }
    self.done = done
    self.count = count
    self.text = String(line)
  }
}
