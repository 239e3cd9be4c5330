import Affected
import Foundation
import Testing
import XcodeFixtures
import XcodeModel

@testable import XcodeLoading

/// A scheme with `buildImplicitDependencies = "NO"` (docs/DESIGN.md, rule 12): `App` of
/// `App/MyApp.xcodeproj` links `Library.framework` of `Library/Library.xcodeproj` without a dependency.
@Suite struct ImplicitSchemeTests {
  /// `schemes`: name → (implicit dependencies on, builds Library too, tests LibraryTests too).
  static func app(_ schemes: [String: (implicit: Bool, buildsLibrary: Bool, testsLibrary: Bool)]) -> ThinApp {
    ThinApp { app in
      var library = PBXProjFixture()
      let source = library.file("Library.swift", in: library.group("Library"))
      let test = library.file("LibraryTests.swift", in: library.group("LibraryTests"))
      let framework = library.target("Library", .framework, sources: [source])
      let libraryTests = library.target("LibraryTests", .unitTest, sources: [test], dependencies: [framework])
      app.files["Library/Library.xcodeproj/project.pbxproj"] = library.text()
      app.files["Library/Library/Library.swift"] = ""
      app.files["Library/LibraryTests/LibraryTests.swift"] = ""
      let product = app.project.builtProduct("Library.framework", in: app.project.group(nil, name: "Frameworks"))
      let appSource = app.project.file("App.swift", in: app.project.group("App"))
      app.files["App/App/App.swift"] = ""
      let shell = app.project.target("App", .app, sources: [appSource], linked: [product])
      let tests = app.project.target("AppTests", .unitTest, host: shell)
      let here = "container:MyApp.xcodeproj"
      let there = "container:../Library/Library.xcodeproj"
      for (name, scheme) in schemes {
        var testables = [SchemeFixture.Testable(container: here, identifier: tests, name: "AppTests")]
        if scheme.testsLibrary {
          testables.append(.init(container: there, identifier: libraryTests, name: "LibraryTests"))
        }
        var xml = SchemeFixture.scheme(
          buildTarget: .init(container: here, identifier: shell, name: "App"), testables: testables,
          implicitDependencies: scheme.implicit)
        if scheme.buildsLibrary {
          let entry = SchemeFixture.scheme(
            buildTarget: .init(container: there, identifier: framework, name: "Library"), testables: [])
          let start = entry.range(of: "<BuildActionEntry")!
          let end = entry.range(of: "</BuildActionEntry>")!
          xml = xml.replacingOccurrences(
            of: "</BuildActionEntries>",
            with: String(entry[start.lowerBound..<end.upperBound]) + "\n</BuildActionEntries>")
        }
        app.files["App/MyApp.xcodeproj/xcshareddata/xcschemes/\(name).xcscheme"] = xml
      }
    }
  }

  static func libraryEdit(_ app: ThinApp) throws -> AffectedResult {
    try analyze(base: app, head: app, changes: [modified("Library/Library/Library.swift")])
  }

  static let reason = ImplicitDependencyTests.libraryReason

  @Test func theSchemeReadsItsBuildAction() throws {
    let app = Self.app(["App": (implicit: false, buildsLibrary: true, testsLibrary: false)])
    let path = "App/MyApp.xcodeproj/xcshareddata/xcschemes/App.xcscheme"
    let scheme = try SchemeReader.scheme(
      Array(app.files[path]!.utf8), path: path, container: "App/MyApp.xcodeproj", revision: "worktree")
    #expect(!scheme.buildsImplicitDependencies)
    #expect(
      scheme.buildEntries.map { "\($0.container):\($0.name)" } == [
        "App/MyApp.xcodeproj:App", "Library/Library.xcodeproj:Library",
      ])
    let shared = try SchemeReader.scheme(
      Array(app.files["App/MyApp.xcodeproj/xcshareddata/xcschemes/MyApp.xcscheme"]!.utf8), path: path,
      container: "App/MyApp.xcodeproj", revision: "worktree")
    #expect(shared.buildsImplicitDependencies)
  }

  @Test func aSchemeWithoutImplicitDependenciesDropsTheEdge() throws {
    let result = try Self.libraryEdit(Self.app(["App": (implicit: false, buildsLibrary: false, testsLibrary: false)]))
    #expect(result.byName["App/MyApp.xcodeproj:App"] == nil)
    #expect(result.testNames == ["LibraryTests"])
  }

  @Test func theEdgeStaysWhenTheSchemeBuildsTheLibraryItself() throws {
    let result = try Self.libraryEdit(Self.app(["App": (implicit: false, buildsLibrary: true, testsLibrary: false)]))
    #expect(result.byName["App/MyApp.xcodeproj:App"] == [Self.reason])
    #expect(result.testNames.contains("AppTests"))
  }

  @Test func theEdgeStaysWhenATestableDependsOnTheLibraryExplicitly() throws {
    let result = try Self.libraryEdit(Self.app(["App": (implicit: false, buildsLibrary: false, testsLibrary: true)]))
    #expect(result.byName["App/MyApp.xcodeproj:App"] == [Self.reason])
  }

  @Test func theEdgeStaysWhenAnotherSchemeFindsImplicitDependencies() throws {
    let app = Self.app([
      "App": (implicit: false, buildsLibrary: false, testsLibrary: false),
      "AppAll": (implicit: true, buildsLibrary: false, testsLibrary: false),
    ])
    #expect(try Self.libraryEdit(app).byName["App/MyApp.xcodeproj:App"] == [Self.reason])
  }

  @Test func theSchemesSettingSurvivesTheCache() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("scheme-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let app = Self.app(["App": (implicit: false, buildsLibrary: true, testsLibrary: false)])
    XcodeCache.forgetRecent()
    let cold = XcodeLoader.load(app.tree(), excludePackages: [], cache: XcodeCache(directory: directory))
    XcodeCache.forgetRecent()
    let warm = XcodeLoader.load(app.tree(), excludePackages: [], cache: XcodeCache(directory: directory))
    #expect(warm.fromCache)
    #expect(warm.schemes == cold.schemes)
    #expect(warm.schemes.contains { !$0.buildsImplicitDependencies && $0.buildEntries.count == 2 })
  }
}
