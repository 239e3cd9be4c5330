import Foundation
import RippleCore
import TestSupport
import Testing

@testable import SystemClients

/// Executables named without a slash are looked up on PATH once and spawned by absolute path.
@Suite struct ExecutableLookupTests {
  /// A folder holding an executable script `name` that prints `text`.
  private func toolFolder(_ name: String, printing text: String) throws -> TemporaryDirectory {
    let folder = try TemporaryDirectory(prefix: "ripple-lookup")
    let tool = folder.child(name)
    try "#!/bin/sh\necho \(text)\n".write(toFile: tool, atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: tool)
    return folder
  }

  @Test func findsTheFirstExecutableFileOnPath() throws {
    let first = try toolFolder("ripple-tool", printing: "first")
    let second = try toolFolder("ripple-tool", printing: "second")
    // A folder of that name and a non-executable file of that name come earlier and are skipped.
    let decoys = try TemporaryDirectory(prefix: "ripple-lookup")
    try FileManager.default.createDirectory(atPath: decoys.child("dir/ripple-tool"), withIntermediateDirectories: true)
    try "not runnable".write(toFile: decoys.child("ripple-tool"), atomically: true, encoding: .utf8)
    let path = ["relative/bin", "", decoys.child("dir"), decoys.path, first.path + "/", second.path].joined(
      separator: ":")
    #expect(ExecutableLookup().resolve("ripple-tool", path: path) == first.child("ripple-tool"))
  }

  @Test func aNameOnNoPathEntryIsNotFoundWithTodaysMessage() async throws {
    let empty = try TemporaryDirectory(prefix: "ripple-lookup")
    #expect(ExecutableLookup().resolve("ripple-tool", path: empty.path) == nil)
    let request = ProcessRequest("ripple-no-such-tool-xyz", environment: ["PATH": empty.path + ":/usr/bin:/bin"])
    let error = await #expect(throws: ProcessError.self) { _ = try await ProcessClient.live.run(request) }
    #expect(
      error?.description
        == "`ripple-no-such-tool-xyz` was not found on PATH; install it or add its directory to PATH")
    #expect(error?.category == .environment)
    // The streaming path reports it the same way.
    let streamed = await #expect(throws: ProcessError.self) {
      _ = try await ProcessClient.live.runStreaming(request, { _ in })
    }
    #expect(streamed?.description == error?.description)
  }

  @Test func theRequestsOwnPathIsTheOneSearched() async throws {
    let folder = try toolFolder("ripple-only-here", printing: "ran from the override")
    let result = try await ProcessClient.live.run(
      ProcessRequest("ripple-only-here", environment: ["PATH": "/nonexistent:" + folder.path]))
    #expect(result.outputString == "ran from the override\n")
    // Without the override the process's own PATH is searched, which does not hold it.
    await #expect(throws: ProcessError.self) {
      _ = try await ProcessClient.live.run(ProcessRequest("ripple-only-here"))
    }
  }

  @Test func aNameWithASlashIsNotLookedUp() throws {
    let lookup = ExecutableLookup()
    let absolute = try ProcessClient.resolvedExecutable(ProcessRequest("/bin/sh"), lookup: lookup)
    let relative = try ProcessClient.resolvedExecutable(ProcessRequest("tools/run"), lookup: lookup)
    #expect("\(absolute)" == "/bin/sh")
    #expect("\(relative)" == "tools/run")
    #expect(lookup.searchCount == 0)
  }

  @Test func theAnswerIsCachedPerNameAndPath() throws {
    let first = try toolFolder("ripple-tool", printing: "first")
    let second = try toolFolder("ripple-tool", printing: "second")
    let lookup = ExecutableLookup()
    let request = ProcessRequest("ripple-tool", environment: ["PATH": first.path])
    #expect("\(try ProcessClient.resolvedExecutable(request, lookup: lookup))" == first.child("ripple-tool"))
    #expect("\(try ProcessClient.resolvedExecutable(request, lookup: lookup))" == first.child("ripple-tool"))
    #expect(lookup.searchCount == 1)
    // Another PATH is another entry.
    let other = ProcessRequest("ripple-tool", environment: ["PATH": second.path + ":" + first.path])
    #expect("\(try ProcessClient.resolvedExecutable(other, lookup: lookup))" == second.child("ripple-tool"))
    #expect(lookup.searchCount == 2)
    // A cached tool that went away is looked up again.
    try FileManager.default.removeItem(atPath: second.child("ripple-tool"))
    #expect("\(try ProcessClient.resolvedExecutable(other, lookup: lookup))" == first.child("ripple-tool"))
    #expect(lookup.searchCount == 3)
  }
}
