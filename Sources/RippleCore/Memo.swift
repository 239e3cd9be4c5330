/// A value computed at most once, on first use, then shared: for answers several callers of one run ask
/// (a tree's manifests, asked by its own side and by a side derived from it).
public final class Memo<Value: Sendable>: Sendable {
  private let state = Locked<Value?>(nil)

  public init() {}

  /// The value, made by `make` the first time (a thrown error is not remembered).
  public func value(_ make: () throws -> Value) rethrows -> Value {
    try state.withLock { stored in
      if let stored { return stored }
      let made = try make()
      stored = made
      return made
    }
  }
}
