import Foundation
import Testing

@testable import SystemClients

@Suite struct SignalCancellationTests {
  @Test func aSignalCallsTheHandlerInsteadOfKillingTheProcess() async throws {
    let task = Task { try await Task.sleep(for: .seconds(30)) }
    let signals = SignalCancellation.install(signals: [SIGUSR2]) { task.cancel() }
    defer { signals.uninstall() }
    kill(getpid(), SIGUSR2)
    let outcome = await task.result
    #expect(throws: CancellationError.self) { try outcome.get() }
    #expect(signals.count == 1)
  }
}
