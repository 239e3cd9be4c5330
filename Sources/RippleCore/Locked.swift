import Foundation

/// A value behind a lock, for state shared between threads and tasks. `Synchronization.Mutex` would do,
/// but it needs macOS 15 and the package supports macOS 14.
public final class Locked<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Value

  public init(_ value: Value) { self.value = value }

  public func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }
}
