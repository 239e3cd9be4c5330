import Affected
import PackageModel
import Testing
import XcodeFixtures
import XcodeLoading
import XcodeModel

/// A dependency on a target of another project (a `PBXContainerItemProxy` whose `containerPortal` is the
/// other `.xcodeproj`, as in a workspace) is an edge of the graph.
@Suite struct CrossProjectTests {
  /// The thin app plus `Lib/Lib.xcodeproj` (LibKit), and an app `Shell` in the app's project that depends
  /// on LibKit through a reference to the other project; `ShellTests` is hosted in Shell.
  static func app() -> ThinApp {
    ThinApp { app in
      var lib = PBXProjFixture()
      let source = lib.file("LibKit/Lib.swift")
      let libKit = lib.target("LibKit", .framework, sources: [source])
      app.files["Lib/Lib.xcodeproj/project.pbxproj"] = lib.text()
      app.files["Lib/LibKit/Lib.swift"] = ""
      let portal = app.project.file("../Lib/Lib.xcodeproj")
      let shell = app.project.target(
        "Shell", .app, foreignDependencies: [(portal: portal, remoteID: libKit, name: "LibKit")])
      app.project.target("ShellTests", .unitTest, host: shell)
    }
  }

  @Test func theTargetRecordsTheOtherProjectsTarget() throws {
    let graph = try mergedGraph(Self.app())
    let shell = try #require(graph.package(at: "App/MyApp.xcodeproj")?.target(named: "Shell"))
    #expect(shell.dependencies.contains(.product("LibKit", package: "lib.xcodeproj")))
    #expect(graph.package(at: "Lib/Lib.xcodeproj")?.product(named: "LibKit")?.targets == ["LibKit"])
  }

  @Test func aChangeInTheOtherProjectReachesTheDependentAndItsTests() throws {
    let app = Self.app()
    let result = try analyze(base: app, head: app, changes: [modified("Lib/LibKit/Lib.swift")])
    #expect(result.byName["Lib/Lib.xcodeproj:LibKit"] == ["changed Lib/LibKit/Lib.swift"])
    #expect(result.byName["App/MyApp.xcodeproj:Shell"] == ["depends on Lib/Lib.xcodeproj:LibKit"])
    #expect(result.testNames == ["ShellTests"])
  }
}
