import Foundation
import RippleCore
import SystemClients
import Testing

@Suite("the process group observer")
struct ProcessGroupObserverTests {
  @Test func liveChildrenReportTheGroupTheyLeadWhenTheyStartAndEnd() async throws {
    let events = Locked<[String]>([])
    let observer = ProcessGroupObserver(
      started: { pid in events.withLock { $0.append("started \(pid)") } },
      ended: { pid in events.withLock { $0.append("ended \(pid)") } })
    // `$$` is the shell's pid; `ps -o pgid=` would need procps, /proc does not.
    let script = "echo $$; cut -d' ' -f5 /proc/$$/stat"
    let result = try await ProcessClient.$groupObserver.withValue(observer) {
      try await ProcessClient.live.run(ProcessRequest("/bin/sh", ["-c", script]))
    }
    let lines = result.outputString.split(separator: "\n").map(String.init)
    #expect(lines.count == 2 && lines[0] == lines[1], "the child leads its own group: \(lines)")
    #expect(events.withLock { $0 } == ["started \(lines[0])", "ended \(lines[0])"])

    let streamed = try await ProcessClient.$groupObserver.withValue(observer) {
      try await ProcessClient.live.runStreaming(ProcessRequest("/bin/sh", ["-c", "echo $$"])) { _ in }
    }
    let pid = streamed.outputString.trimmingCharacters(in: .whitespacesAndNewlines)
    #expect(events.withLock { $0.suffix(2) } == ["started \(pid)", "ended \(pid)"])
  }
}
