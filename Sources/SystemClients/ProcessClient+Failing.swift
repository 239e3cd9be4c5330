import RippleCore

extension ProcessClient {
  /// The test double to start from: every process is reported to the test and fails with the command line it
  /// was asked to run, so a test that needs a process says which one (TestSupport's `ScriptedProcess`).
  public static var failing: ProcessClient {
    ProcessClient { request in
      throw unimplemented("ProcessClient", "run `\(request.commandLine)`")
    }
  }
}
