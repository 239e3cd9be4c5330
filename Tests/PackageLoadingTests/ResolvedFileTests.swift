import PackageModel
import Testing

@testable import PackageLoading

@Suite struct ResolvedFileTests {
  @Test func version1() throws {
    let text = """
      {"object": {"pins": [
        {"package": "Swift-Tagged", "repositoryURL": "https://github.com/pointfreeco/swift-tagged.git",
         "state": {"branch": null, "revision": "abc123", "version": "0.10.0"}},
        {"package": "Overture", "repositoryURL": "https://github.com/pointfreeco/Overture",
         "state": {"branch": "main", "revision": "def456", "version": null}}
      ]}, "version": 1}
      """
    let pins = try ResolvedFile.parse(Array(text.utf8), path: "Package.resolved")
    #expect(pins.pins == ["swift-tagged": "0.10.0@abc123", "overture": "branch main@def456"])
  }

  @Test func versions2And3() throws {
    for version in [2, 3] {
      let text = """
        {"originHash": "ff", "pins": [
          {"identity": "swift-nio", "kind": "remoteSourceControl", "location": "https://github.com/apple/swift-nio.git",
           "state": {"revision": "aaa", "version": "2.65.0"}},
          {"identity": "pinned", "kind": "remoteSourceControl", "location": "https://example.com/pinned",
           "state": {"revision": "bbb"}},
          {"identity": "scope.thing", "kind": "registry", "location": "", "state": {"version": "1.0.0"}}
        ], "version": \(version)}
        """
      let pins = try ResolvedFile.parse(Array(text.utf8), path: "Package.resolved")
      #expect(pins.pins == ["swift-nio": "2.65.0@aaa", "pinned": "bbb", "scope.thing": "1.0.0"])
    }
  }

  @Test func invalidFilesAreErrorsNamingTheFile() {
    for text in ["not json", #"{"version": 9, "pins": []}"#, #"{"version": 2}"#] {
      #expect {
        try ResolvedFile.parse(Array(text.utf8), path: "Sub/Package.resolved")
      } throws: { error in
        guard let error = error as? PackageGraphError, case .invalidResolvedFile(let path, _) = error else {
          return false
        }
        return path == "Sub/Package.resolved" && error.category == .environment
      }
    }
  }
}
