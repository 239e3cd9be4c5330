/// What kind of failure an error is; executables map categories to exit codes in one place.
///
/// 0 success, 1 tests or a check failed, 2 usage or config error, 3 environment error
/// (missing tool, unreadable repository), 4 internal error.
public enum ErrorCategory: Int32, Sendable, Hashable {
  case checkFailed = 1
  case usage = 2
  case environment = 3
  case `internal` = 4

  public var exitCode: Int32 { rawValue }
}

/// An error a user can act on. Its `description` is a full sentence: what failed, where, what to do.
public protocol RippleError: Error, CustomStringConvertible, Sendable {
  var category: ErrorCategory { get }
}

/// A bug in Ripple rather than in the user's input or environment.
public struct InternalError: RippleError {
  public var message: String
  public init(_ message: String) { self.message = message }
  public var category: ErrorCategory { .internal }
  public var description: String { "internal error: \(message) (please report this)" }
}
