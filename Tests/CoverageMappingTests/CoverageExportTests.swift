import Foundation
import Testing

@testable import CoverageMapping
@testable import SourceChanges
@testable import TestImpact

/// llvm-cov's export, the test listings and the binary ids, read from text shaped like the toolchain's (Swift 6.3.1).
@Suite struct CoverageExportTests {
  /// Trimmed from `llvm-cov export -format=text` of a fixture package: two executed functions, one not, a closure in
  /// an expansion, SwiftPM's generated runner and a file outside the repository.
  static let export = #"""
    {"data":[{"files":[],"functions":[
      {"count":1,"filenames":["/repo/Sources/Core/Parser.swift"],"name":"$s4Core6ParserV5parseySiSSF",
       "regions":[[3,44,6,4,1,0,0,0],[4,8,4,20,1,0,0,0],[40,1,41,2,1,1,0,0]]},
      {"count":0,"filenames":["/repo/Sources/Core/Parser.swift"],"name":"$s4Core6ParserV5other1xS2i_tF",
       "regions":[[7,36,7,45,0,0,0,0]]},
      {"count":2,"filenames":["/repo/Tests/CoreTests/CoreTests.swift"],"name":"$s9CoreTests06ParserB0C9testParseyyF",
       "regions":[[6,20,6,63,2,0,0,0]]},
      {"count":1,"filenames":["/repo/.build/x86_64-unknown-linux-gnu/debug/TinyPackageTests.derived/runner.swift"],
       "name":"$s16TinyPackageTests6RunnerV4mainyyFZ","regions":[[527,25,546,6,1,0,0,0]]},
      {"count":5,"filenames":["/elsewhere/Lib.swift"],"name":"$s3Lib1fyyF","regions":[[1,1,2,2,5,0,0,0]]}
    ],"totals":{}}],"type":"llvm.coverage.json.export","version":"3.0.1"}
    """#

  @Test func executedFunctionsOfTheRepositoryWithTheirOwnLines() throws {
    let regions = try CoverageExport.executedRegions(Data(Self.export.utf8), repositoryRoot: "/repo")
    #expect(
      regions == [
        CoveredRegion(file: "Sources/Core/Parser.swift", lines: LineRange(3, 6)),
        CoveredRegion(file: "Tests/CoreTests/CoreTests.swift", lines: LineRange(6, 6)),
      ])
  }

  @Test func somethingElseIsRefused() {
    #expect(throws: CoverageExportError.self) {
      try CoverageExport.executedRegions(Data("SF:x\nend_of_record\n".utf8), repositoryRoot: "/repo")
    }
    #expect(throws: CoverageExportError(detail: "it is of type lcov with 0 data entries")) {
      try CoverageExport.executedRegions(Data(#"{"type":"lcov","data":[]}"#.utf8), repositoryRoot: "/repo")
    }
  }

  @Test func listingsKeepTheTargetsTestsExactly() {
    let xctest = """
      Listing 3 tests in debug.xctest:

      CoreTests.ParserTests/testParse
      CoreTests.LexerTests/testParse
      OtherTests.ParserTests/testParse
      """
    #expect(
      TestListing.tests(in: xctest, module: "CoreTests") == [
        TestID("CoreTests.ParserTests/testParse"), TestID("CoreTests.LexerTests/testParse"),
      ])
    let swiftTesting = "CoreTests.Suite/`naïve name (with spaces)`()\nCoreTests/free(x:)\nCoreTestsMore.S/f()\n"
    #expect(
      TestListing.tests(in: swiftTesting, module: "CoreTests") == [
        TestID("CoreTests.Suite/`naïve name (with spaces)`()"), TestID("CoreTests/free(x:)"),
      ])
  }

  @Test func oneTestRunsAloneByAnAnchoredPattern() {
    let test = TestID("CoreTests.Suite/parse(_:)")
    #expect(
      TestLibrary.xctest.runArguments(TestID("CoreTests.ParserTests/testParse")) == ["CoreTests.ParserTests/testParse"])
    #expect(
      TestLibrary.swiftTesting.runArguments(test) == [
        "--testing-library", "swift-testing", "--filter", #"^CoreTests\.Suite/parse\(_:\)(/|$)"#,
      ])
    let pattern = try! Regex(TestLibrary.anchoredPattern(TestID("M.S/`a b (ü)`()")))
    #expect("M.S/`a b (ü)`()/file.swift:3:4".contains(pattern))
    #expect(!"M.S/`a b (ü)`()x".contains(pattern))
  }

  @Test func profileBinaryIDsAreRead() {
    let output =
      "Instrumentation level: Front-end\nTotal functions: 61\nMaximum function count: 1\n"
      + "Maximum internal block count: 0\nTotal count: 14\nBinary IDs: \n8065BD3ABD09FBB931463F8319543BD48B8034CC\n"
    #expect(BinaryIdentity.profileBinaryIDs(output) == ["8065bd3abd09fbb931463f8319543bd48b8034cc"])
    #expect(BinaryIdentity.profileBinaryIDs("Total count: 14\n") == [])
  }

  @Test func theELFBuildIDIsRead() throws {
    #expect(BinaryIdentity.elfBuildID(ELFFixture.make(buildID: [0xAB, 0x01, 0xFF])) == "ab01ff")
    #expect(BinaryIdentity.elfBuildID(Data("#!/bin/sh\n".utf8)) == nil)
    #if os(Linux)
      // This test binary is linked with a build id, as SwiftPM links every binary on Linux.
      let own = try Data(contentsOf: URL(fileURLWithPath: "/proc/self/exe"), options: .alwaysMapped)
      #expect(BinaryIdentity.elfBuildID(own)?.count == 40)
    #endif
  }
}

/// A minimal 64-bit little-endian ELF file: a header, one `.note.gnu.build-id` section, its section table.
enum ELFFixture {
  static func make(buildID: [UInt8]) -> Data {
    func bytes(_ value: Int, _ size: Int) -> [UInt8] { (0..<size).map { UInt8((value >> (8 * $0)) & 0xFF) } }
    var note = bytes(4, 4) + bytes(buildID.count, 4) + bytes(3, 4) + Array("GNU\0".utf8) + buildID
    note += Array(repeating: 0, count: (4 - note.count % 4) % 4)
    let sectionTable = 64 + note.count
    var header = [0x7F, 0x45, 0x4C, 0x46, 2, 1, 1] + Array(repeating: UInt8(0), count: 57)
    header.replaceSubrange(0x28..<0x30, with: bytes(sectionTable, 8))
    header.replaceSubrange(0x3A..<0x3C, with: bytes(64, 2))
    header.replaceSubrange(0x3C..<0x3E, with: bytes(2, 2))
    var noteSection = Array(repeating: UInt8(0), count: 64)
    noteSection.replaceSubrange(4..<8, with: bytes(7, 4))
    noteSection.replaceSubrange(0x18..<0x20, with: bytes(64, 8))
    noteSection.replaceSubrange(0x20..<0x28, with: bytes(note.count, 8))
    return Data(header + note + Array(repeating: 0, count: 64) + noteSection)
  }
}
