import Foundation
import TestRunner

/// Where human output goes, and whether it may use colour and progress lines.
struct Terminal: Sendable {
  let fileDescriptor: Int32

  static let standardOutput = Terminal(fileDescriptor: STDOUT_FILENO)
  static let standardError = Terminal(fileDescriptor: STDERR_FILENO)

  var isInteractive: Bool { isatty(fileDescriptor) == 1 }

  /// The terminal's width: asked of this stream, then of the other standard stream (one of them may
  /// be redirected), else `COLUMNS`, else 80.
  var columns: Int {
    let other = fileDescriptor == STDERR_FILENO ? STDOUT_FILENO : STDERR_FILENO
    return TerminalWidth.resolve(
      reported: Self.windowColumns(fileDescriptor) ?? Self.windowColumns(other),
      columnsVariable: ProcessInfo.processInfo.environment["COLUMNS"])
  }

  private static func windowColumns(_ fileDescriptor: Int32) -> Int? {
    var size = winsize()
    guard ioctl(fileDescriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
    return Int(size.ws_col)
  }

  /// Colour only on a terminal, and never when NO_COLOR is set (https://no-color.org).
  var usesColor: Bool {
    let env = ProcessInfo.processInfo.environment
    if env["NO_COLOR"].map({ !$0.isEmpty }) == true { return false }
    if env["CLICOLOR_FORCE"].map({ !$0.isEmpty && $0 != "0" }) == true { return true }
    return isInteractive && env["TERM"] != "dumb"
  }

  func write(_ text: String) {
    var bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
      let n = bytes.withUnsafeMutableBytes {
        Foundation.write(fileDescriptor, $0.baseAddress! + offset, $0.count - offset)
      }
      if n <= 0 { return }
      offset += n
    }
  }
}
