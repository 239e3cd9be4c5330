import Foundation
import SystemClients
import Testing

/// git quotes a remote with the token CI puts in it, in its argv and in its errors; `ProcessError` is shown in
/// run reasons and logs (issue 39, item 11).
@Suite struct ProcessErrorRedactionTests {
  @Test func aFailedCommandsDescriptionHasNoCredentials() {
    let remote = "https://x-access-token:ghs_S3CRET@github.com/o/r.git"
    let request = ProcessRequest("git", ["fetch", remote, "--", "?sig=1"])
    let stderr = "fatal: unable to access '\(remote)/': The requested URL returned error: 403\n"
    let result = ProcessResult(
      request: request, exitStatus: 128, standardOutput: Data(), standardError: Data(stderr.utf8))
    let description = ProcessError.failed(result).description
    #expect(!description.contains("ghs_S3CRET") && !description.contains("x-access-token"), "\(description)")
    #expect(description.contains("'https://github.com/o/r.git/'"), "\(description)")
    #expect(description.contains("exited with status 128"), "\(description)")
  }
}
