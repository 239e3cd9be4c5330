import RippleCore

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

extension ProcessClient {
  /// The test double to start from: every process fails with the command line it was asked to run, so a
  /// test that needs a process says which one and replaces this with its own stand-in.
  public static var failing: ProcessClient {
    ProcessClient { request in
      throw UnimplementedClientError(client: "ProcessClient", call: "run `\(request.commandLine)`")
    }
  }
}
