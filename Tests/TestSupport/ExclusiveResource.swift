// Only where Swift Testing is: `swift build -c release` without `--product` builds this target too (a regular
// one, so the test targets can share it), and with `--static-swift-stdlib` (swift_static has no Testing) or a
// toolchain without Swift Testing there is no `Testing` module to import.
#if canImport(Testing)
  import Foundation
  import Testing

  /// A trait for suites that share something only one of them may use at a time (rippled's integration tests
  /// share a cache folder: mirrors, work trees and build folders named by repository). The suites that carry the
  /// same resource run one after the other; every other test of the run goes on alongside them. `.serialized` only
  /// orders the tests inside one suite. Inside the suite, `ExclusiveResource.current` is the resource held.
  ///
  ///     @Suite(.serialized, .exclusive(.daemonCache(1))) struct BranchRunTests { … }
  public struct ExclusiveResource: SuiteTrait, TestTrait, TestScoping {
    public let name: String
    private let lock: AsyncLock

    /// rippled's integration suites run in five lanes, each with a cache folder of its own (`DaemonHarness.sharedCache`
    /// names it after the lane held): the fixture builds incrementally within a lane, and the lanes run at the same
    /// time. With two lanes their chain was the end of the whole suite. The lanes are balanced by serial time: the
    /// branch suite; the policies and clean-up; the interfaces with the watch and open-file suites; the sandbox
    /// suite alone, whose runs build without the shared module cache (TestSupport's `SharedModuleCache`, which the
    /// sandbox cannot write): in a lane with other suites, every switch of build arguments rebuilt the whole fixture;
    /// and start-up, which builds nothing and so costs no second fixture build by running alongside.
    public static func daemonCache(_ lane: Int) -> ExclusiveResource { daemonLanes[lane - 1] }
    private static let daemonLanes = (1...5).map { ExclusiveResource(name: "rippled integration cache \($0)") }

    /// The resource the running suite holds (nil outside `.exclusive` suites).
    @TaskLocal public static var current: ExclusiveResource?

    /// This process's descriptor table, for suites that compare it with a snapshot: two at once would see each
    /// other's descriptors.
    public static let descriptorTable = ExclusiveResource(name: "this process's descriptor table")

    /// A thread of Swift's cooperative pool (one per core: two on the CI machine). The `ripple` integration tests
    /// wait for the binary synchronously (`Process.waitUntilExit`), holding a pool thread for the whole run of a
    /// real `swift build`: two at once would leave none for the rest of the suite (timers, in-process servers).
    /// `make test` turns the cooperative pool off (SWIFT_DEBUG_CONCURRENCY_ENABLE_COOPERATIVE_QUEUES=false: a blocked
    /// thread makes the runtime add one), and then there is nothing to share: the suites run alongside each other.
    public static let cooperativeThread = ExclusiveResource(
      name: "a cooperative thread",
      needed: ProcessInfo.processInfo.environment["SWIFT_DEBUG_CONCURRENCY_ENABLE_COOPERATIVE_QUEUES"] != "false")

    /// False: the resource is not scarce in this run and the trait does nothing.
    private let needed: Bool

    init(name: String, needed: Bool = true) {
      self.name = name
      self.needed = needed
      lock = AsyncLock()
    }

    public func provideScope(
      for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
      guard needed else { return try await function() }
      await lock.acquire()
      do {
        try await Self.$current.withValue(self) { try await function() }
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
#endif
