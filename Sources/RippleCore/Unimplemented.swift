import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What a failing test double throws: a test reached a dependency it did not set up.
public struct UnimplementedClientError: RippleError {
  public var client: String
  public var call: String

  public init(client: String, call: String) {
    self.client = client
    self.call = call
  }

  public var category: ErrorCategory { .internal }
  public var description: String { "unimplemented: \(client) was asked to \(call), which this test does not expect" }
}

/// The one way a `failing` double says it was reached (isowords' `unimplemented`): the call is reported to the
/// running test as an issue, so a caller that swallows the error still fails the test, and the error is
/// returned for the double to throw. No double crashes the test binary.
///
///     static let failing = Client(run: { request in throw unimplemented("Client", "run \(request)") })
public func unimplemented(
  _ client: String, _ call: String, fileID: String = #fileID, line: Int = #line
) -> UnimplementedClientError {
  let error = UnimplementedClientError(client: client, call: call)
  IssueReporter.report(error.description, fileID: fileID, line: line)
  return error
}

/// For a double whose call cannot throw (a clock's `now`): reports like `unimplemented(_:_:)` and returns
/// `placeholder`, which the test that reached it must not rely on (it has already failed).
public func unimplemented<Value>(
  _ client: String, _ call: String, placeholder: Value, fileID: String = #fileID, line: Int = #line
) -> Value {
  _ = unimplemented(client, call, fileID: fileID, line: line) as UnimplementedClientError
  return placeholder
}

/// Reports a problem to the running test: Swift Testing's `Issue.record`, reached through the C symbol
/// `ripple_record_issue` that Tests/TestSupport exports (production code cannot link Testing). Outside a test
/// binary the symbol is absent and the message goes to standard error.
public enum IssueReporter {
  typealias Hook = @convention(c) (UnsafePointer<CChar>, UnsafePointer<CChar>, Int) -> Void

  nonisolated(unsafe) private static let hook: Hook? = {
    guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "ripple_record_issue") else { return nil }
    return unsafeBitCast(symbol, to: Hook.self)
  }()

  /// Whether reports reach a test (the test binary links TestSupport).
  public static var reachesTests: Bool { hook != nil }

  public static func report(_ message: String, fileID: String = #fileID, line: Int = #line) {
    guard let hook else {
      FileHandle.standardError.write(Data("\(fileID):\(line): \(message)\n".utf8))
      return
    }
    message.withCString { text in fileID.withCString { file in hook(text, file, line) } }
  }
}
