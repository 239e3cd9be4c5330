import Dispatch
import Foundation

/// Turns SIGINT (Ctrl-C) and SIGTERM into cancellation of one task, so that running child processes
/// are stopped as a group (see `ProcessClient.live`) and the task can still report what finished.
///
/// How the CLI uses it:
/// ```swift
/// let task = Task { try await runner.run(selection, options: options) }
/// let signals = SignalCancellation.install { task.cancel() }
/// defer { signals.uninstall() }
/// let result = try await task.value   // partial, with `cancelled` set, after Ctrl-C
/// ```
/// A second signal while the first is being handled exits at once with 128 + signal.
public final class SignalCancellation: @unchecked Sendable {
  private let lock = NSLock()
  private var sources: [any DispatchSourceSignal] = []
  private var received = 0
  private let signals: [Int32]

  private init(signals: [Int32]) {
    self.signals = signals
  }

  /// Ignores the default action of `signals` and calls `onSignal` on the first one; with
  /// `exitOnSecondSignal`, a second one exits at once with 128 + signal.
  ///
  /// libdispatch arms the sources asynchronously, so a signal sent within microseconds of `install`
  /// may be ignored; install before starting the work.
  public static func install(
    signals: [Int32] = [SIGINT, SIGTERM], exitOnSecondSignal: Bool = true, onSignal: @escaping @Sendable () -> Void
  ) -> SignalCancellation {
    let handler = SignalCancellation(signals: signals)
    for number in signals {
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
      source.setEventHandler { [handler] in
        // `_exit`, not `exit`: exit's flush of stdio waits for a stream's lock, which a thread blocked writing
        // to a full pipe holds forever; the second signal must end the process whatever it is doing.
        if handler.countSignal() > 1 && exitOnSecondSignal { _exit(128 + number) }
        onSignal()
      }
      source.resume()
      handler.sources.append(source)
    }
    return handler
  }

  /// How many signals arrived so far.
  public var count: Int {
    lock.lock()
    defer { lock.unlock() }
    return received
  }

  private func countSignal() -> Int {
    lock.lock()
    defer { lock.unlock() }
    received += 1
    return received
  }

  /// Restores the default actions.
  public func uninstall() {
    lock.lock()
    let current = sources
    sources = []
    lock.unlock()
    for source in current { source.cancel() }
    for number in signals { signal(number, SIG_DFL) }
  }
}
