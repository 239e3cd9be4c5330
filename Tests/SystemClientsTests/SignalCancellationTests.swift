import Foundation
import Testing

@testable import SystemClients

@Suite struct SignalCancellationTests {
  @Test func aSignalCallsTheHandlerInsteadOfKillingTheProcess() async throws {
    let task = Task { try await Task.sleep(for: .seconds(30)) }
    let signals = SignalCancellation.install(signals: [SIGUSR2], exitOnSecondSignal: false) { task.cancel() }
    defer { signals.uninstall() }
    // The source is armed asynchronously and the signal is ignored until then: send until it is seen.
    for _ in 0..<100 where signals.count == 0 {
      kill(getpid(), SIGUSR2)
      try await Task.sleep(for: .milliseconds(50))
    }
    let outcome = await task.result
    #expect(throws: CancellationError.self) { try outcome.get() }
    #expect(signals.count >= 1)
  }
}
