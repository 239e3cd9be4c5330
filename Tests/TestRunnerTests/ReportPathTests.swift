import Foundation
import RippleCore
import TestSupport
import Testing

@testable import TestRunner

@Suite struct ReportPathTests {
  static func kind(_ path: String) -> mode_t {
    var info = stat()
    return lstat(path, &info) == 0 ? info.st_mode & S_IFMT : 0
  }

  @Test func aFolderAFIFOAndALinkToNothingAreRefusedNamingTheOption() throws {
    let folder = try TemporaryDirectory()
    let fifo = folder.path + "/pipe"
    #expect(mkfifo(fifo, 0o600) == 0)
    try FileManager.default.createSymbolicLink(atPath: folder.path + "/dangling", withDestinationPath: "/nonexistent/x")
    for (path, reason) in [
      (folder.path, "is a folder"), (fifo, "is a FIFO"), (folder.path + "/dangling", "link to nothing"),
    ] {
      let error = #expect(throws: ReportPath.Refused.self) { try ReportPath.check(path, option: "--junit") }
      #expect(error?.category == .usage)
      #expect(error?.description.hasPrefix("--junit \(path): ") == true && error?.description.contains(reason) == true)
    }
  }

  @Test func aMissingFolderIsMadeAndAFolderThatIsAFileIsRefused() throws {
    let folder = try TemporaryDirectory()
    try ReportPath.check(folder.path + "/a/b/report.json", option: "--report-json")
    #expect(Self.kind(folder.path + "/a/b") == S_IFDIR)
    try "x".write(toFile: folder.path + "/file", atomically: true, encoding: .utf8)
    #expect(throws: ReportPath.Refused.self) {
      try ReportPath.check(folder.path + "/file/report.json", option: "--junit")
    }
  }

  @Test func aRegularFileIsReplacedAndALinkOrADeviceWrittenInPlace() throws {
    let folder = try TemporaryDirectory()
    let file = folder.path + "/report.xml"
    try "old".write(toFile: file, atomically: true, encoding: .utf8)
    try ReportPath.write(Data("new".utf8), to: file)
    #expect(try String(contentsOfFile: file, encoding: .utf8) == "new")

    let link = folder.path + "/link.xml"
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: file)
    try ReportPath.check(link, option: "--junit")
    try ReportPath.write(Data("through the link".utf8), to: link)
    #expect(Self.kind(link) == S_IFLNK, "the link is not replaced by a file")
    #expect(try String(contentsOfFile: file, encoding: .utf8) == "through the link")

    try ReportPath.check("/dev/null", option: "--report-json")
    try ReportPath.write(Data("gone".utf8), to: "/dev/null")
    #expect(Self.kind("/dev/null") == S_IFCHR, "/dev/null stays a device")
    let devLink = folder.path + "/null-link"
    try FileManager.default.createSymbolicLink(atPath: devLink, withDestinationPath: "/dev/null")
    try ReportPath.write(Data("gone".utf8), to: devLink)
    #expect(Self.kind(devLink) == S_IFLNK)
  }

  @Test func appendingAddsToTheFile() throws {
    let folder = try TemporaryDirectory()
    let file = folder.path + "/summary.md"
    try ReportPath.append(Data("a\n".utf8), to: file)
    try ReportPath.append(Data("b\n".utf8), to: file)
    #expect(try String(contentsOfFile: file, encoding: .utf8) == "a\nb\n")
  }
}
