import Affected
import PackageModel
import RippleCore
import Testing
import XcodeLoading
import XcodeModel

/// A workspace holding the thin app's project and package: its Package.resolved covers both.
@Suite struct WorkspaceTests {
  static let contents = """
    <?xml version="1.0" encoding="UTF-8"?>
    <Workspace
       version = "1.0">
       <FileRef
          location = "group:App/MyApp.xcodeproj">
       </FileRef>
       <Group
          location = "container:Packages"
          name = "Packages">
          <FileRef
             location = "group:Core">
          </FileRef>
       </Group>
       <FileRef
          location = "absolute:/Users/someone/Elsewhere.xcodeproj">
       </FileRef>
    </Workspace>

    """

  let app = ThinApp { app in app.files["MyApp.xcworkspace/contents.xcworkspacedata"] = WorkspaceTests.contents }

  @Test func aWorkspaceListsItsProjectsAndPackages() throws {
    let workspace = try WorkspaceReader.workspace(
      Array(Self.contents.utf8), path: "MyApp.xcworkspace", revision: "worktree")
    #expect(workspace.references == ["App/MyApp.xcodeproj", "Packages/Core"])
    let graph = try mergedGraph(app)
    let node = try #require(graph.package(at: "MyApp.xcworkspace"))
    #expect(node.origin == .xcodeWorkspace)
    #expect(node.targets.isEmpty)
    let nothing = AffectedReport(
      result: AffectedResult(), base: "b", head: "worktree", mergeBase: nil, changedFiles: [])
    #expect(!AffectedFormatter.dot(graph: graph, nothing).contains("MyApp.xcworkspace"))
  }

  @Test func theWorkspacesPinsCoverItsProjects() throws {
    let path = "MyApp.xcworkspace/xcshareddata/swiftpm/Package.resolved"
    let result = try analyze(
      base: app, head: app, changes: [modified(path)],
      resolved: [
        path: (
          ResolvedPins(pins: ["swift-collections": "1.1.0@a"]), ResolvedPins(pins: ["swift-collections": "1.2.0@b"])
        )
      ])
    #expect(result.byName["App/MyApp.xcodeproj:Widget"] == ["Package.resolved: swift-collections 1.1.0@a → 1.2.0@b"])
    #expect(!result.runAll)
  }

  @Test func theWorkspaceListItselfSelectsNothing() throws {
    let result = try analyze(base: app, head: app, changes: [modified("MyApp.xcworkspace/contents.xcworkspacedata")])
    #expect(result.targets.isEmpty)
    #expect(!result.runAll)
  }

  @Test func aTruncatedWorkspaceIsAnErrorNamingTheFile() {
    #expect {
      _ = try WorkspaceReader.workspace(
        Array(Self.contents.utf8.prefix(120)), path: "MyApp.xcworkspace", revision: "worktree")
    } throws: { error in
      "\(error)".contains("MyApp.xcworkspace/contents.xcworkspacedata")
    }
  }
}
