import Testing

/// A trait for suites that share something only one of them may use at a time (rippled's integration tests
/// share one cache folder: mirrors, work trees and build folders named by repository). The suites that carry the
/// same resource run one after the other; every other test of the run goes on alongside them. `.serialized` only
/// orders the tests inside one suite.
///
///     @Suite(.serialized, .exclusive(.daemonCache)) struct BranchRunTests { … }
public struct ExclusiveResource: SuiteTrait, TestTrait, TestScoping {
  public let name: String
  private let lock: AsyncLock

  public static let daemonCache = ExclusiveResource(name: "rippled integration cache")

  /// This process's descriptor table, for suites that compare it with a snapshot: two at once would see each
  /// other's descriptors.
  public static let descriptorTable = ExclusiveResource(name: "this process's descriptor table")

  /// A thread of Swift's cooperative pool (one per core: two on the CI machine). The `ripple` integration tests
  /// wait for the binary synchronously (`Process.waitUntilExit`), holding a pool thread for the whole run of a
  /// real `swift build`: two at once would leave none for the rest of the suite (timers, in-process servers).
  public static let cooperativeThread = ExclusiveResource(name: "a cooperative thread")

  init(name: String) {
    self.name = name
    lock = AsyncLock()
  }

  public func provideScope(
    for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
  ) async throws {
    await lock.acquire()
    do {
      try await function()
    } catch {
      await lock.release()
      throw error
    }
    await lock.release()
  }
}

extension Trait where Self == ExclusiveResource {
  /// Runs the suite while no other suite holding `resource` runs.
  public static func exclusive(_ resource: ExclusiveResource) -> ExclusiveResource { resource }
}

/// A FIFO lock for async code: waiters suspend, they do not block a thread.
actor AsyncLock {
  private var held = false
  private var waiters: [CheckedContinuation<Void, Never>] = []

  func acquire() async {
    if !held {
      held = true
      return
    }
    await withCheckedContinuation { waiters.append($0) }
  }

  func release() {
    if waiters.isEmpty {
      held = false
    } else {
      waiters.removeFirst().resume()
    }
  }
}
