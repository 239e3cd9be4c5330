import Foundation

/// Where human output goes, and whether it may use colour and progress lines.
struct Terminal: Sendable {
  let fileDescriptor: Int32

  static let standardOutput = Terminal(fileDescriptor: STDOUT_FILENO)
  static let standardError = Terminal(fileDescriptor: STDERR_FILENO)

  var isInteractive: Bool { isatty(fileDescriptor) == 1 }

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
