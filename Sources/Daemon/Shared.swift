import Synchronization

/// A value several tasks read and write (a `Mutex` that closures and structs can hold).
final class Shared<Value: Sendable>: Sendable {
  private let mutex: Mutex<Value>

  init(_ value: Value) { mutex = Mutex(value) }

  var value: Value { mutex.withLock { $0 } }

  @discardableResult
  func update<T: Sendable>(_ body: (inout Value) -> T) -> T { mutex.withLock { body(&$0) } }
}
