import Foundation
import PassRecords
import Testing

@testable import Coverage

#if canImport(FoundationXML)
  import FoundationXML
#endif

@Suite struct LCOVTests {
  @Test func parsesWhatLLVMCovWritesAndKeepsLinesOnly() throws {
    let text = """
      SF:/repo/Sources/Lib/Lib.swift
      FN:1,$s3Lib1ayS2iF
      FNDA:1,$s3Lib1ayS2iF
      FNF:1
      FNH:1
      DA:1,1
      DA:2,12
      DA:3,0
      BRF:0
      BRH:0
      LF:3
      LH:2
      end_of_record
      SF:/repo/Tests/ATests/A.swift
      DA:3,1
      end_of_record

      """
    let coverage = try LCOV.parse(text)
    #expect(coverage.files["/repo/Sources/Lib/Lib.swift"] == [1: 1, 2: 12, 3: 0])
    #expect(coverage.files["/repo/Tests/ATests/A.swift"] == [3: 1])
    #expect(coverage.totals == LineTotals(lines: 4, covered: 3))
  }

  @Test func rendersSortedAndRoundTrips() throws {
    let coverage = LineCoverage(files: ["b.swift": [10: 0, 2: 3], "a b/ü.swift": [1: 1]])
    let text = LCOV.render(coverage)
    #expect(
      text == """
        SF:a b/ü.swift
        DA:1,1
        LF:1
        LH:1
        end_of_record
        SF:b.swift
        DA:2,3
        DA:10,0
        LF:2
        LH:1
        end_of_record

        """)
    #expect(try LCOV.parse(text) == coverage)
  }

  @Test func aLineListedTwiceHasItsHitsAdded() throws {
    let coverage = try LCOV.parse("SF:x.swift\nDA:4,2\nDA:4,3\nend_of_record\n")
    #expect(coverage.files["x.swift"] == [4: 5])
  }

  @Test func malformedRecordsAreErrorsNamingTheLine() {
    #expect(throws: CoverageError.malformedLCOV(line: 1, reason: "DA: outside a file record")) {
      try LCOV.parse("DA:1,1\n")
    }
    #expect(throws: CoverageError.self) { try LCOV.parse("SF:x\nDA:one,1\n") }
    #expect(throws: CoverageError.self) { try LCOV.parse("SF:x\nDA:3,-1\n") }
  }

  @Test func relativizingDropsFilesOutsideTheRepositoryAndUnderBuild() {
    let coverage = LineCoverage(files: [
      "/repo/Sources/Lib/A File.swift": [1: 1],
      "/repo/Sources/Lib/Ünïcode.swift": [1: 0],
      "/repo/.build/x86_64-unknown-linux-gnu/debug/Lib.build/DerivedSources/resource_bundle_accessor.swift": [1: 1],
      "/repo/Packages/Core/.build/plugins/outputs/Gen.swift": [1: 1],
      "/elsewhere/Other.swift": [1: 1],
      "/repo2/Sources/X.swift": [1: 1],
    ])
    let relative = coverage.relativized(to: "/repo")
    #expect(Set(relative.files.keys) == ["Sources/Lib/A File.swift", "Sources/Lib/Ünïcode.swift"])
  }

  @Test func addingSumsHitsAndUnitesLines() {
    var a = LineCoverage(files: ["x": [1: 1, 2: 0]])
    a.add(LineCoverage(files: ["x": [2: 4, 3: 0], "y": [1: 1]]))
    #expect(a.files == ["x": [1: 1, 2: 4, 3: 0], "y": [1: 1]])
  }
}

@Suite struct CoberturaTests {
  @Test func rendersOnePackagePerFolderWithEscapedNames() {
    let coverage = LineCoverage(files: ["Sources/A&B/x \"q\".swift": [1: 2, 2: 0], "top.swift": [5: 1]])
    let xml = Cobertura.render(coverage, timestamp: 42)
    #expect(xml.contains("<coverage line-rate=\"0.6667\" branch-rate=\"0\" lines-covered=\"2\" lines-valid=\"3\""))
    #expect(xml.contains("timestamp=\"42\""))
    #expect(xml.contains("<package name=\"Sources/A&amp;B\" line-rate=\"0.5000\""))
    #expect(xml.contains("filename=\"Sources/A&amp;B/x &quot;q&quot;.swift\""))
    #expect(xml.contains("<package name=\".\" line-rate=\"1.0000\""))
    #expect(xml.contains("<line number=\"1\" hits=\"2\"/>"))
    // Well-formed: Foundation's parser reads it.
    let parser = XMLParser(data: Data(xml.utf8))
    #expect(parser.parse())
  }

  /// A control character in a file name (git allows it) is replaced, never written raw: the XML stays readable.
  @Test func aControlCharacterInAFileNameKeepsTheDocumentWellFormed() {
    let xml = Cobertura.render(LineCoverage(files: ["Sources/bell\u{07}.swift": [1: 1]]), timestamp: 1)
    #expect(xml.contains("filename=\"Sources/bell\u{FFFD}.swift\""))
    #expect(XMLParser(data: Data(xml.utf8)).parse())
  }
}

@Suite struct CoverageGateTests {
  let report = CoverageMerge.merge(
    [
      TargetCoverage(
        unit: ".:T", source: .fresh(LineCoverage(files: ["a": [1: 1, 2: 1], "b": [1: 0, 2: 0, 3: 1]])), files: nil)
    ], changedFiles: [])

  @Test func passesAtTheMinimumAndNamesTheFilesBelowItOtherwise() {
    #expect(CoverageGate(minimum: 60).check(report) == nil)
    let failure = CoverageGate(minimum: 61).check(report)
    #expect(failure?.files == ["b"])
    #expect(failure.map { Int($0.percent) } == 60)
  }

  @Test func theTerminalTableNamesTargetsFilesAndWhatIsNotMeasured() {
    let merged = CoverageMerge.merge(
      [
        TargetCoverage(unit: ".:ATests", source: .fresh(LineCoverage(files: ["a.swift": [1: 1]])), files: nil),
        TargetCoverage(unit: ".:BTests", source: .notMeasured(reason: "no pass record at its key"), files: ["b.swift"]),
      ], changedFiles: [])
    let text = CoverageDocument(merged).rendered
    #expect(text.contains(".:BTests  not measured: no pass record at its key"))
    #expect(text.contains("not measured  b.swift (unknown: .:BTests)"))
    #expect(text.contains("Coverage: 100.00% of 1 lines in 1 files; 1 files not measured"))
  }
}

@Suite struct CoverageBlobTests {
  let coverage = LineCoverage(files: ["Sources/Ä b/x.swift": [1: 1, 2: 0], "y.swift": [7: 3]])

  @Test func roundTripsThroughGzipAtTheDigestOfItsBytes() throws {
    let (key, data) = try CoverageBlob.encode(coverage)
    #expect(key == CoverageBlob.key(of: data))
    #expect(data.prefix(2) == Data([0x1F, 0x8B]))
    #expect(try CoverageBlob.decode(data, key: key) == coverage)
  }

  @Test func compressesALargeTarget() throws {
    var files: [String: [Int: Int]] = [:]
    for file in 0..<500 {
      files["Sources/Module\(file % 20)/File\(file).swift"] = Dictionary(
        uniqueKeysWithValues: (1...200).map { ($0, $0 % 3) })
    }
    let big = LineCoverage(files: files)
    let (key, data) = try CoverageBlob.encode(big)
    #expect(data.count < LCOV.render(big).utf8.count / 4)
    #expect(try CoverageBlob.decode(data, key: key) == big)
  }

  @Test func aBlobThatDoesNotHashToItsKeyIsRefused() throws {
    let (key, data) = try CoverageBlob.encode(coverage)
    var altered = data
    altered[altered.count - 5] ^= 0xFF
    #expect(throws: CoverageError.self) { try CoverageBlob.decode(altered, key: key) }
    #expect(throws: CoverageError.self) { try CoverageBlob.decode(data.prefix(data.count / 2), key: key) }
  }

  @Test func bytesAtTheirOwnDigestThatAreNotGzipAreRefused() {
    let junk = Data("SF:x\nDA:1,1\n".utf8)
    #expect(throws: CoverageError.self) { try CoverageBlob.decode(junk, key: CoverageBlob.key(of: junk)) }
    let cut = (try? CoverageBlob.encode(coverage).data.prefix(12)) ?? Data()
    #expect(throws: CoverageError.self) { try CoverageBlob.decode(cut, key: CoverageBlob.key(of: cut)) }
  }
}

@Suite struct CoverageDocumentTests {
  @Test func theJSONReportHoldsTheSummaryNotTheLines() throws {
    let report = CoverageMerge.merge(
      [
        TargetCoverage(unit: ".:ATests", source: .fresh(LineCoverage(files: ["a.swift": [1: 1, 2: 0]])), files: nil),
        TargetCoverage(unit: ".:BTests", source: .notMeasured(reason: "no pass record at its key"), files: ["b.swift"]),
      ], changedFiles: [])
    var document = CoverageDocument(report, gate: CoverageGate(minimum: 80).check(report))
    document.lineCoverage = report.coverage
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    let json = String(decoding: try encoder.encode(document), as: UTF8.self)
    #expect(json.contains(#""files":[{"covered":1,"lines":2,"path":"a.swift","percent":50}]"#), "\(json)")
    #expect(json.contains(#""notMeasured":[{"path":"b.swift","targets":[".:BTests"]}]"#), "\(json)")
    #expect(json.contains(#""gate":{"files":["a.swift"],"minimum":80,"percent":50}"#), "\(json)")
    #expect(!json.contains("lineCoverage"))
    let decoded = try JSONDecoder().decode(CoverageDocument.self, from: Data(json.utf8))
    #expect(decoded.lineCoverage == nil && decoded.files == document.files)
  }
}
