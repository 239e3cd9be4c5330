import Foundation
import TestSupport
import Testing

@testable import SystemClients

/// Issue 23, item 4: a line over 128 KiB is cut with a marker instead of ending the run, and a streamed process
/// keeps only the end of its output in memory. Item 1: the descriptor headroom a spawn checks.
@Suite(.exclusive(.descriptorTable)) struct LongOutputTests {
  @Test func anOverLongLineIsCutWithAMarkerAndTheNextLineIsWhole() {
    var splitter = LineSplitter(maxLineBytes: 16)
    var lines = splitter.feed(Array("short\r\n0123456789abcdefXYZ".utf8))
    lines += splitter.feed(Array("more\nnext".utf8))
    #expect(lines == ["short", "0123456789abcdef [… line cut: 7 more bytes]"])
    #expect(splitter.finish() == "next")
    #expect(splitter.finish() == nil)
  }

  @Test func aCharacterSplitAcrossBuffersStaysWhole() {
    var splitter = LineSplitter()
    let bytes = Array("grüße\n".utf8)
    var lines = splitter.feed(bytes.prefix(3))
    lines += splitter.feed(bytes.dropFirst(3))
    #expect(lines == ["grüße"])
  }

  @Test func aProcessPrintingA300KiBLineIsNotAnError() async throws {
    let log = LineLog()
    // 300 KiB without a line break, then a normal line: swift-subprocess's own reader threw here.
    let request = ProcessRequest(
      "/bin/sh", ["-c", "head -c 307200 /dev/zero | tr '\\0' x; echo; echo after; echo done >&2"])
    let result = try await ProcessClient.live.runStreaming(request, log.append)
    #expect(result.exitStatus == 0)
    let lines = log.lines
    let out = lines.filter { $0.stream == .standardOutput }.map(\.text)
    #expect(out.count == 2)
    #expect(out.first?.hasPrefix(String(repeating: "x", count: 1000)) == true)
    #expect(out.first?.hasSuffix("[… line cut: \(307_200 - 64 * 1024) more bytes]") == true)
    #expect(out.last == "after")
    #expect(lines.contains(OutputLine(.standardError, "done")))
  }

  @Test func aStreamedProcessKeepsOnlyTheEndOfALongOutput() async throws {
    let count = LineCounter()
    var request = ProcessRequest("/bin/sh", ["-c", "seq 1 200000"])
    request.retainedOutput = 64 * 1024
    let result = try await ProcessClient.live.runStreaming(request) { _ in count.add() }
    #expect(count.value == 200_000, "every line is handed over")
    #expect(result.standardOutput.count <= 2 * 64 * 1024)
    #expect(result.outputString.hasSuffix("199999\n200000\n"))
  }

  @Test func theHeadroomCountsTheEntriesOfTheDescriptorFolder() throws {
    // Exact on a folder of its own: other tests running at once open and close descriptors of this process.
    let folder = NSTemporaryDirectory() + "ripple-fd-count-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    for name in ["0", "1", "2", ".hidden"] {
      #expect(FileManager.default.createFile(atPath: folder + "/" + name, contents: Data()))
    }
    #expect(DescriptorHeadroom.entries(in: folder) == 3)
    #expect(DescriptorHeadroom.entries(in: folder + "/missing") == nil)
  }

  @Test func theHeadroomCountsThisProcesssOpenDescriptors() throws {
    // 32 pipes hold 64 descriptors; half of that is a margin for the tests running alongside.
    let before = try #require(DescriptorHeadroom.free())
    let pipes = (0..<32).map { _ in Pipe() }
    let after = try #require(DescriptorHeadroom.free())
    #expect(before - after >= 32, "32 pipes hold 64 descriptors: \(before) → \(after)")
    _ = pipes
    #expect(
      DescriptorHeadroom.isShortage(ProcessError.couldNotStart(command: "x", reason: DescriptorHeadroom.shortage)))
  }
}

final class LineCounter: @unchecked Sendable {
  private let lock = NSLock()
  private var count = 0
  func add() {
    lock.lock()
    count += 1
    lock.unlock()
  }
  var value: Int {
    lock.lock()
    defer { lock.unlock() }
    return count
  }
}
