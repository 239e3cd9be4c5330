import Affected
import PackageModel
import Testing
import XcodeFixtures
import XcodeLoading
import XcodeModel

/// Xcode's "Find Implicit Dependencies" across a workspace's projects (docs/DESIGN.md, rule 12): the app of
/// `App/MyApp.xcodeproj` links and embeds `Library.framework` (a `BUILT_PRODUCTS_DIR` reference, no target
/// dependency), the product of `Library/Library.xcodeproj:Library`.
@Suite struct ImplicitDependencyTests {
  static let libraryReason = "links Library.framework, the product of Library/Library.xcodeproj:Library, implicitly"

  /// `workspace`: the projects `MyApp.xcworkspace` lists (nil: no workspace). `linked`/`embedded`: whether
  /// App has the product in its Frameworks / Embed Frameworks phase. `extraLibrary`: a second project
  /// whose target builds a product of the same name.
  static func app(
    workspace: [String]? = ["App/MyApp.xcodeproj", "Library/Library.xcodeproj"], linked: Bool = true,
    embedded: Bool = true, extraLibrary: Bool = false, workspaceIndent: String = "   "
  ) -> ThinApp {
    ThinApp { app in
      app.files["Library/Library.xcodeproj/project.pbxproj"] = library(folder: "Library").text()
      app.files["Library/Library/Library.swift"] = ""
      app.files["Library/LibraryTests/LibraryTests.swift"] = ""
      if extraLibrary {
        app.files["Vendor/Library.xcodeproj/project.pbxproj"] = library(folder: "Library").text()
        app.files["Vendor/Library/Library.swift"] = ""
      }
      let frameworks = app.project.group(nil, name: "Frameworks")
      let product = app.project.builtProduct("Library.framework", in: frameworks)
      let group = app.project.group("App")
      let source = app.project.file("App.swift", in: group)
      app.files["App/App/App.swift"] = ""
      let shell = app.project.target(
        "App", .app, sources: [source], linked: linked ? [product] : [], embedded: embedded ? [product] : [])
      app.project.target("AppTests", .unitTest, host: shell)
      app.project.target("AppUITests", .uiTest, host: shell)
      if let workspace {
        let entries = workspace.map {
          "\(workspaceIndent)<FileRef\n\(workspaceIndent)   location = \"group:\($0)\">\n\(workspaceIndent)</FileRef>\n"
        }
        app.files["MyApp.xcworkspace/contents.xcworkspacedata"] =
          "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Workspace\n   version = \"1.0\">\n" + entries.joined()
          + "</Workspace>\n"
      }
    }
  }

  /// A project with the framework `Library` (product `Library.framework`) and its tests.
  static func library(folder: String) -> PBXProjFixture {
    var project = PBXProjFixture()
    let group = project.group(folder)
    let source = project.file("Library.swift", in: group)
    let tests = project.group("LibraryTests")
    let test = project.file("LibraryTests.swift", in: tests)
    let library = project.target("Library", .framework, sources: [source])
    project.target("LibraryTests", .unitTest, sources: [test], dependencies: [library])
    return project
  }

  @Test func aLibraryEditReachesTheAppLinkingItsProductAndTheAppsTests() throws {
    let app = Self.app()
    let result = try analyze(base: app, head: app, changes: [modified("Library/Library/Library.swift")])
    #expect(result.byName["Library/Library.xcodeproj:Library"] == ["changed Library/Library/Library.swift"])
    #expect(result.byName["App/MyApp.xcodeproj:App"] == [Self.libraryReason])
    #expect(result.testNames == ["LibraryTests", "AppTests", "AppUITests"])
    let explanation = try #require(result.explanation(for: "AppTests"))
    #expect(
      explanation == [
        "changed Library/Library/Library.swift → Library", "Library → App (\(Self.libraryReason))",
        "App → AppTests (depends on App)",
      ])
  }

  @Test func theGraphHasTheEdgeAsAProductOfTheOtherProject() throws {
    let graph = try mergedGraph(Self.app())
    let app = try #require(graph.package(at: "App/MyApp.xcodeproj"))
    let target = try #require(app.target(named: "App"))
    #expect(target.dependencies.contains(.product("Library", package: "library.xcodeproj")))
    #expect(target.implicitEdges == ["Library/Library.xcodeproj:Library": Self.libraryReason])
    #expect(app.dependencies.contains { $0.location == .local(path: "Library/Library.xcodeproj") })
  }

  @Test func anEmbeddedProductAloneIsAnEdge() throws {
    let app = Self.app(linked: false, embedded: true)
    let result = try analyze(base: app, head: app, changes: [modified("Library/Library/Library.swift")])
    #expect(result.byName["App/MyApp.xcodeproj:App"] == [Self.libraryReason])
  }

  @Test func aLinkedProductAloneIsAnEdge() throws {
    let app = Self.app(linked: true, embedded: false)
    let result = try analyze(base: app, head: app, changes: [modified("Library/Library/Library.swift")])
    #expect(result.byName["App/MyApp.xcodeproj:App"] == [Self.libraryReason])
  }

  @Test func everyTargetBuildingAProductOfThatNameIsAnEdge() throws {
    let app = Self.app(
      workspace: ["App/MyApp.xcodeproj", "Library/Library.xcodeproj", "Vendor/Library.xcodeproj"], extraLibrary: true)
    let graph = try mergedGraph(app)
    let edges = try #require(graph.package(at: "App/MyApp.xcodeproj")?.target(named: "App")?.implicitEdges)
    #expect(Set(edges.keys) == ["Library/Library.xcodeproj:Library", "Vendor/Library.xcodeproj:Library"])
    let result = try analyze(base: app, head: app, changes: [modified("Vendor/Library/Library.swift")])
    #expect(
      result.byName["App/MyApp.xcodeproj:App"] == [
        "links Library.framework, the product of Vendor/Library.xcodeproj:Library, implicitly"
      ])
    #expect(result.testNames.contains("AppTests"))
  }

  @Test func aProjectOutsideTheAppsWorkspaceIsNoCandidate() throws {
    let app = Self.app(workspace: ["App/MyApp.xcodeproj"])
    let result = try analyze(base: app, head: app, changes: [modified("Library/Library/Library.swift")])
    #expect(result.byName["App/MyApp.xcodeproj:App"] == nil)
    #expect(result.testNames == ["LibraryTests"])
  }

  @Test func withoutAWorkspaceEveryProjectIsACandidate() throws {
    let app = Self.app(workspace: nil)
    let result = try analyze(base: app, head: app, changes: [modified("Library/Library/Library.swift")])
    #expect(result.byName["App/MyApp.xcodeproj:App"] == [Self.libraryReason])
  }

  @Test func aProjectAddedToTheWorkspaceSelectsWhatNowLinksIt() throws {
    let before = Self.app(workspace: ["App/MyApp.xcodeproj"])
    let after = Self.app()
    let result = try analyze(
      base: before, head: after, changes: [modified("MyApp.xcworkspace/contents.xcworkspacedata")])
    #expect(result.byName["App/MyApp.xcodeproj:App"] == ["implicit dependency added: \(Self.libraryReason)"])
    #expect(result.testNames == ["AppTests", "AppUITests"])
  }

  @Test func aProjectRemovedFromTheWorkspaceSelectsWhatLinkedIt() throws {
    let result = try analyze(
      base: Self.app(), head: Self.app(workspace: ["App/MyApp.xcodeproj"]),
      changes: [modified("MyApp.xcworkspace/contents.xcworkspacedata")])
    #expect(result.byName["App/MyApp.xcodeproj:App"] == ["implicit dependency removed: \(Self.libraryReason)"])
    #expect(result.testNames == ["AppTests", "AppUITests"])
  }

  @Test func aWhitespaceEditOfTheWorkspaceSelectsNothing() throws {
    let before = Self.app()
    let after = Self.app(workspaceIndent: "\t")
    #expect(
      before.files["MyApp.xcworkspace/contents.xcworkspacedata"]
        != after.files["MyApp.xcworkspace/contents.xcworkspacedata"])
    let result = try analyze(
      base: before, head: after, changes: [modified("MyApp.xcworkspace/contents.xcworkspacedata")])
    #expect(result.targets.isEmpty)
    #expect(!result.runAll)
  }
}
