import Clibgit2
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Process-wide libgit2 set-up: `git_libgit2_init()` runs once, the first time a repository is opened.
package enum LibGit2 {
  private static let initResult: Int32 = git_libgit2_init()

  package static func ensureInitialized() throws {
    let result = initResult
    if result < 0 { throw lastError(result, "initialise libgit2") }
  }
}

extension GitLibrary {
  /// Starts libgit2's process-wide set-up on a thread of its own, so that it overlaps the command line's
  /// parsing: it takes ~5 ms (a libgit2 built with mbedTLS, as Debian's is, parses the system's CA bundle
  /// there), a fifth of a warm `ripple affected` on a repository of isowords' size. The first repository
  /// opened waits for it (a Swift `static let` is initialised once, under a lock).
  ///
  /// Returns what waits for the set-up to end; call it before the process exits. Exiting while libgit2 is
  /// half set up runs the TLS libraries' exit handlers under it: about 1 in 100 early exits crashed so.
  public static func prepareInBackground() -> @Sendable () -> Void {
    Thread.detachNewThread { _ = try? LibGit2.ensureInitialized() }
    return { _ = try? LibGit2.ensureInitialized() }
  }
}

/// The `GitError` for a failed libgit2 call: `git_error_last()`'s message, the operation and the return code.
/// Call it right after the failing call, on the same thread (libgit2 keeps the last error per thread).
package func lastError(_ code: Int32, _ operation: String) -> GitError {
  .libgit2(operation: operation, code: code, message: lastErrorMessage())
}

/// `git_error_last()`'s message (same thread, right after the failing call).
package func lastErrorMessage() -> String {
  guard let error = git_error_last(), let text = error.pointee.message else { return "no further detail from libgit2" }
  return String(cString: text)
}

/// Turns every negative libgit2 return code into a `GitError`.
package func check(_ code: Int32, _ operation: @autoclosure () -> String) throws {
  if code < 0 { throw lastError(code, operation()) }
}

extension git_error_code {
  /// Whether a libgit2 return code is this error code.
  package static func ~= (pattern: git_error_code, code: Int32) -> Bool { pattern.rawValue == code }
}

/// Whether `path` exists and belongs to another user than the effective one.
func isOwnedByAnotherUser(_ path: String) -> Bool {
  var info = stat()
  guard stat(path, &info) == 0 else { return false }
  return info.st_uid != geteuid()
}

/// Removes trailing slashes (keeps "/" itself).
func withoutTrailingSlash(_ path: String) -> String {
  var p = Substring(path)
  while p.count > 1 && p.hasSuffix("/") { p = p.dropLast() }
  return String(p)
}
