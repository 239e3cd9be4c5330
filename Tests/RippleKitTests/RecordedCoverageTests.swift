import Coverage
import Foundation
import PassRecords
import ResultStore
import TestRunner
import Testing

@testable import RippleKit

/// The recorded coverage of a target that did not run (docs/DESIGN.md, "Coverage"): read only through a
/// trusted record and a blob at the digest the record names; anything else is "not measured", never a number.
@Suite struct RecordedCoverageTests {
  let unit: KeyedUnit = {
    var inputs = KeyInputs()
    inputs.add("file", "Sources/Lib/Lib.swift", "abc")
    return KeyedUnit(package: ".", target: "LibTests", run: nil, inputs: inputs)
  }()
  let coverage = LineCoverage(files: ["Sources/Lib/Lib.swift": [1: 1, 2: 0]])

  func recording(_ store: ResultStoreClient) -> PassRecording {
    PassRecording(
      store: store, keys: [unit], branch: "feature", commit: "c0ffee", runLabel: "ripple test on host",
      writer: "me@host", signingKey: nil, userFiltered: false,
      policy: TrustPolicy(trustedKeys: [], branch: "feature", branchIsProtected: false, now: Date()))
  }

  func save(_ store: ResultStoreClient, blob: RecordKey?) async throws {
    let record = PassRecord(
      key: unit.key, package: ".", target: "LibTests", commit: "1234567890abcdef", branch: "feature",
      run: "ripple test on host", writer: "me@host", time: Date(), duration: 1, tests: ["S/t": 1], coverage: blob)
    try await store.save(unit.key, try RecordEnvelope.seal(record, signingKey: nil))
  }

  @Test func aTrustedRecordsBlobIsReadAtItsDigest() async throws {
    let store = ResultStoreClient.memory()
    let (key, data) = try CoverageBlob.encode(coverage)
    try await store.save(key, data)
    try await save(store, blob: key)
    var warnings: [String] = []
    let source = await recording(store).recordedCoverage(of: unit, warnings: &warnings)
    #expect(source == .recorded(coverage, origin: "ripple test on host of feature (1234567890)"))
    #expect(warnings.isEmpty)
  }

  @Test func aMissingBlobIsNotMeasuredWithAWarning() async throws {
    let store = ResultStoreClient.memory()
    let (key, _) = try CoverageBlob.encode(coverage)
    try await save(store, blob: key)
    var warnings: [String] = []
    let source = await recording(store).recordedCoverage(of: unit, warnings: &warnings)
    #expect(source == .notMeasured(reason: "its coverage blob \(key.hex.prefix(12)) is missing from the store"))
    #expect(warnings.count == 1 && warnings[0].contains("is missing from memory"))
  }

  @Test func aCorruptBlobIsNotMeasuredWithAWarning() async throws {
    let store = ResultStoreClient.memory()
    let (key, data) = try CoverageBlob.encode(coverage)
    var corrupt = data
    corrupt[corrupt.count / 2] ^= 0x55
    try await store.save(key, corrupt)
    try await save(store, blob: key)
    var warnings: [String] = []
    let source = await recording(store).recordedCoverage(of: unit, warnings: &warnings)
    guard case .notMeasured(let reason) = source else {
      Issue.record("a corrupt blob was read: \(source)")
      return
    }
    #expect(reason.contains("is unusable") && reason.contains("SHA-256"), "\(reason)")
    #expect(warnings.count == 1)
  }

  @Test func aRecordWithoutCoverageOrNoRecordIsNotMeasured() async throws {
    let store = ResultStoreClient.memory()
    var warnings: [String] = []
    #expect(
      await recording(store).recordedCoverage(of: unit, warnings: &warnings)
        == .notMeasured(reason: "not run, and no pass record at its key"))
    try await save(store, blob: nil)
    #expect(
      await recording(store).recordedCoverage(of: unit, warnings: &warnings)
        == .notMeasured(reason: "not run, and its pass record holds no coverage (written without --coverage)"))
    #expect(warnings.isEmpty)
  }

  @Test func anOldRecordWithoutTheCoverageFieldStillDecodes() throws {
    let json = """
      {"version":1,"key":"\(unit.key.hex)","package":".","target":"LibTests","commit":"c","branch":"b","run":"r",
      "writer":"w","time":"2026-11-28T10:00:00Z","duration":1,"tests":{}}
      """
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    let record = try decoder.decode(PassRecord.self, from: Data(json.utf8))
    #expect(record.coverage == nil)
  }

  @Test func aToolchainWithoutLLVMCovIsAnEnvironmentError() throws {
    let folder = NSTemporaryDirectory() + "ripple-cov-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    for tool in ["swift", "llvm-profdata"] {
      FileManager.default.createFile(
        atPath: folder + "/" + tool, contents: Data("#!/bin/sh\n".utf8), attributes: [.posixPermissions: 0o755])
    }
    #expect(throws: CoverageSetupError.toolsMissing(directory: folder, missing: ["llvm-cov"])) {
      try CoverageRunOptions.locate(swift: folder + "/swift", environment: [:])
    }
    #expect((try? CoverageRunOptions.locate(swift: "swift", environment: ["PATH": folder])) == nil)
    #expect(CoverageSetupError.toolsMissing(directory: folder, missing: ["llvm-cov"]).category == .environment)
    FileManager.default.createFile(
      atPath: folder + "/llvm-cov", contents: Data("#!/bin/sh\n".utf8), attributes: [.posixPermissions: 0o755])
    #expect(try CoverageRunOptions.locate(swift: "swift", environment: ["PATH": folder]).toolDirectory == folder)
  }
}
