import Dispatch

/// Bounded parallelism: the one task-group pattern the runners share (manifests, packages, assets), and
/// `concurrentMap` for pure work on every core.
public enum Concurrently {
  /// Runs `body` on every item, at most `limit` at a time, and returns the outputs in item order.
  ///
  /// `onResult` sees each output as it arrives (index, output); when it returns false, no further item
  /// is started and the running ones are cancelled: their slots, and those never started, are nil.
  /// An error thrown by `body` cancels the rest and is rethrown.
  public static func map<Item: Sendable, Output: Sendable>(
    _ items: [Item], limit: Int, _ body: @escaping @Sendable (Item) async throws -> Output,
    onResult: (Int, Output) -> Bool = { _, _ in true }
  ) async throws -> [Output?] {
    try await withThrowingTaskGroup(of: (Int, Output).self) { group in
      var outputs = [Output?](repeating: nil, count: items.count)
      var next = 0
      var starting = true
      func startNext() {
        guard starting, next < items.count else { return }
        let index = next
        let item = items[index]
        next += 1
        group.addTask { (index, try await body(item)) }
      }
      for _ in 0..<max(1, limit) { startNext() }
      while let (index, output) = try await group.next() {
        outputs[index] = output
        if onResult(index, output) {
          startNext()
        } else {
          starting = false
          group.cancelAll()
        }
      }
      return outputs
    }
  }
}

extension RandomAccessCollection where Index == Int, Self: Sendable, Element: Sendable {
  /// `map` on every core, the results in order: for pure work over thousands of independent elements (a
  /// change of a base library walks and keys ~2,000 closures, issue 50).
  public func concurrentMap<T: Sendable>(_ transform: @Sendable (Element) -> T) -> [T] {
    guard count > 1 else { return map(transform) }
    return [T](unsafeUninitializedCapacity: count) { buffer, initialized in
      // Each iteration initializes its own element only.
      nonisolated(unsafe) let base = buffer.baseAddress!
      DispatchQueue.concurrentPerform(iterations: count) { offset in
        (base + offset).initialize(to: transform(self[startIndex + offset]))
      }
      initialized = count
    }
  }
}
