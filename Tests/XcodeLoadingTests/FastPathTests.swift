import RippleCore
import Testing

@testable import XcodeModel

/// The resolver's path join gives exactly `RepoPath.join`'s answer, fast path or not.
@Suite struct FastPathTests {
  @Test func joinAgreesWithRepoPath() {
    let bases = [".", "", "App", "App/Sources", "App/", "/abs", "a/../b", "./a", "a//b", "...", "a/.", ".."]
    let relatives = [
      "File.swift", "Dir/File.swift", "", ".", "..", "../x", "./x", "x/", "x//y", "/root", "...", "a.b/.c", "x/..",
    ]
    for base in bases {
      for relative in relatives {
        #expect(FastPath.join(base, relative) == RepoPath.join(base, relative), "\(base) + \(relative)")
      }
    }
    #expect(FastPath.isNormal("App/Sources/File.swift"))
    #expect(!FastPath.isNormal("App/./File.swift"))
  }
}
