import Foundation
import TestSupport
import Testing

/// Store write access is not push access (issue 48), through the real binary: a branch believes its own
/// unsigned records only from a store no other account can write, unless ripple.yml says
/// `unsignedRecords: any`.
@Suite(.serialized, .exclusive(.cooperativeThread)) struct UnsignedTrustCommandTests {
  @Test func aBranchsUnsignedRecordsCountOnlyFromAStoreOnlyItsUserWrites() throws {
    let repo = try TestCommandTests.makeRepository()
    let shared = try TemporaryDirectory()
    let folder = shared.child("team-records")
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    #expect(chmod(folder, 0o777) == 0, "a folder every account on the runner may write")
    func configure(_ extra: String = "") throws {
      try repo.write("ripple.yml", "test:\n  resultCache:\n    store: \(folder)\n\(extra)")
    }
    try configure()
    _ = try repo.commitAll("a shared store")
    try repo.append("Sources/Other/Other.swift", "// edit\n")
    let env = [
      "RIPPLE_NO_CACHE_RESULTS": "0", "RIPPLE_BRANCH": "feature/x",
      "RIPPLE_CACHE_DIR": RippleBinary.privateCache(repo.root + "/.build/c"),
    ]
    let run = try RippleBinary.test([], in: repo.root, environment: env)
    #expect(run.status == 0, "\(run.standardOutput)\(run.standardError)")

    func cached() throws -> (Set<String>, String) {
      let plan = try RippleBinary.test(["--dry-run", "--format", "json"], in: repo.root, environment: env)
      let json = try #require(try JSONSerialization.jsonObject(with: Data(plan.standardOutput.utf8)) as? [String: Any])
      return (Set((json["cached"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }), plan.standardError)
    }
    let (none, warning) = try cached()
    #expect(none.isEmpty, "the record was written, but anyone could have written it")
    #expect(warning.contains("is written by others too"), "\(warning)")

    try configure("    unsignedRecords: any\n")
    #expect(try cached().0 == ["OtherTests"], "the team said so")
    try configure()
    #expect(chmod(folder, 0o755) == 0)
    #expect(try cached().0 == ["OtherTests"], "now only this user can write it")
  }
}
