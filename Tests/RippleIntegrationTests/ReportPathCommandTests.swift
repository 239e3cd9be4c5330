import Foundation
import TestSupport
import Testing

/// Report paths are checked before the run, and a device is written in place, never replaced (docs/DESIGN.md,
/// "Report files").
@Suite(.serialized, .exclusive(.cooperativeThread)) struct ReportPathCommandTests {
  @Test func aFolderOrAFIFOIsAUsageErrorBeforeAnythingRuns() throws {
    let repo = try TestCommandTests.makeRepository()
    try repo.append("Packages/Shared/Sources/Greeting/Greeting.swift", "// edit\n")
    let folder = repo.root + "/out"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let fifo = repo.root + "/pipe.xml"
    #expect(mkfifo(fifo, 0o600) == 0)
    for (option, path, what) in [
      ("--junit", folder, "is a folder"), ("--junit", fifo, "is a FIFO"), ("--report-json", folder, "is a folder"),
      ("--summary-md", fifo, "is a FIFO"), ("--coverage-lcov", folder, "is a folder"),
    ] {
      let result = try RippleBinary.test([option, path], in: repo.root)
      #expect(result.status == 2, "\(option) \(path): \(result.standardOutput)\(result.standardError)")
      #expect(result.standardError.contains("\(option) \(path): \(what)"), "\(result.standardError)")
      #expect(!result.standardOutput.contains("AppTests"), "nothing ran: \(result.standardOutput)")
    }
    #expect(!FileManager.default.fileExists(atPath: repo.root + "/.build/debug"), "nothing was built")
    var info = stat()
    #expect(lstat(fifo, &info) == 0 && (info.st_mode & S_IFMT) == S_IFIFO, "the FIFO is still a FIFO")
  }

  @Test func devStdoutGetsTheReportAndDevNullStaysADevice() throws {
    let repo = try TestCommandTests.makeRepository()
    let stdout = try RippleBinary.run(["test", "--junit", "/dev/stdout"], in: repo.root)
    #expect(stdout.status == 0, "\(stdout.standardError)")
    #expect(stdout.standardOutput.contains("no test target is affected"))
    #expect(stdout.standardOutput.contains("<testsuites"), "the report is on stdout: \(stdout.standardOutput)")

    let null = try RippleBinary.run(["test", "--report-json", "/dev/null", "--junit", "/dev/null"], in: repo.root)
    #expect(null.status == 0, "\(null.standardError)")
    var info = stat()
    #expect(lstat("/dev/null", &info) == 0 && (info.st_mode & S_IFMT) == S_IFCHR, "/dev/null is still a device")

    // A link to a report elsewhere is written through, not replaced by a file (outside the work tree: a new
    // file there would be a change).
    let outside = try TemporaryDirectory(prefix: "ripple-report-link")
    let target = outside.path + "/elsewhere.xml"
    try "old".write(toFile: target, atomically: true, encoding: .utf8)
    let link = outside.path + "/junit-link.xml"
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
    let linked = try RippleBinary.run(["test", "--junit", link], in: repo.root)
    #expect(linked.status == 0, "\(linked.standardError)")
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == target, "still a link")
    #expect(try String(contentsOfFile: target, encoding: .utf8).contains("<testsuites"))
  }
}
