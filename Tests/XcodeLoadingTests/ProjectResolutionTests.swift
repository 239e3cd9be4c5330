import PackageModel
import Testing
import XcodeFixtures
import XcodeLoading
import XcodeModel

@Suite struct ProjectResolutionTests {
  private func project(_ app: ThinApp = ThinApp()) throws -> XcodeProject {
    let text = app.files[ThinApp.projectPath + "/project.pbxproj"]!
    let document = try ProjectFileReader.document(
      Array(text.utf8), projectPath: ThinApp.projectPath, revision: "worktree")
    return try ProjectResolver.resolve(document)
  }

  @Test func eachNativeTargetHasItsKind() throws {
    let kinds = Dictionary(uniqueKeysWithValues: try project().targets.map { ($0.name, $0.kind) })
    #expect(kinds == ["MyApp": .app, "Widget": .appExtension, "MyAppTests": .unitTest, "MyAppUITests": .uiTest])
  }

  @Test func productTypesMapToKinds() {
    #expect(XcodeTarget.kind(ofProductType: "com.apple.product-type.application.on-demand-install-capable") == .app)
    #expect(XcodeTarget.kind(ofProductType: "com.apple.product-type.framework") == .framework)
    #expect(XcodeTarget.kind(ofProductType: "com.apple.product-type.extensionkit-extension") == .appExtension)
    #expect(XcodeTarget.kind(ofProductType: "com.apple.product-type.bundle") == .bundle)
  }

  @Test func buildPhaseFilesResolveThroughTheGroupTree() throws {
    let app = try #require(try project().target(named: "MyApp"))
    #expect(
      app.paths == [
        "App/MyApp/App.swift", "App/MyApp/ContentView.swift", "App/MyApp/Info.plist", "App/MyApp/MyApp.entitlements",
        "App/MyApp/de.lproj/Localizable.strings", "App/MyApp/en.lproj/Localizable.strings",
      ])
    #expect(app.dependencies.sorted() == ["Widget"])
    #expect(app.productDependencies.map(\.name) == ["Feature"])
  }

  @Test func sourceRootAndNestedGroupsResolve() throws {
    let app = ThinApp { app in
      let nested = app.project.group("Sources", in: app.project.group("Deep"))
      let rooted = app.project.file("Shared/Rooted.swift", in: nested, sourceTree: "SOURCE_ROOT")
      let inNested = app.project.file("Inner.swift", in: nested)
      let built = app.project.file("Generated.swift", in: nested, sourceTree: "BUILT_PRODUCTS_DIR")
      let outside = app.project.file("../../Elsewhere.swift", in: nil)
      app.project.target("Tool", .framework, sources: [rooted, inNested, built, outside])
    }
    let tool = try #require(try project(app).target(named: "Tool"))
    #expect(tool.paths == ["App/Deep/Sources/Inner.swift", "App/Shared/Rooted.swift"])
  }

  @Test func synchronisedFolderOwnsItsFilesButItsExceptions() throws {
    let tests = try #require(try project().target(named: "MyAppTests"))
    #expect(tests.paths == ["App/MyAppTests"])
    #expect(tests.excludedPaths == ["App/MyAppTests/Fixtures/big.json"])
    #expect(tests.host == "MyApp")
    #expect(tests.dependencies == ["MyApp"])
  }

  @Test func anExceptionOnAFolderATargetLacksAddsTheFile() throws {
    let app = ThinApp { app in
      let folder = app.project.synchronizedFolder("Shared")
      let other = app.project.target("Other", .framework)
      app.project.membershipException(folder: folder, target: other, files: ["Only.swift"])
    }
    let other = try #require(try project(app).target(named: "Other"))
    #expect(other.paths == ["App/Shared/Only.swift"])
    #expect(other.excludedPaths.isEmpty)
  }

  @Test func uiTestsFindTheirHostByTargetName() throws {
    #expect(try project().target(named: "MyAppUITests")?.host == "MyApp")
  }

  @Test func packageReferencesAreLocalOrRemote() throws {
    let references = try project().packageReferences
    #expect(references.map(\.identity) == ["core", "swift-collections"])
    #expect(references.first?.location == .local(path: "Packages/Core"))
    #expect(references.last?.location == .remote("https://github.com/apple/swift-collections.git"))
  }

  @Test func truncatedProjectFileIsAnErrorNamingThePath() throws {
    let text = ThinApp().files[ThinApp.projectPath + "/project.pbxproj"]!
    let truncated = Array(text.utf8.prefix(text.utf8.count / 2))
    #expect {
      _ = try ProjectFileReader.document(truncated, projectPath: ThinApp.projectPath, revision: "abc1234")
    } throws: { error in
      guard case .malformedProject(let path, let revision, _) = error as? XcodeError else { return false }
      return path == "App/MyApp.xcodeproj/project.pbxproj" && revision == "abc1234"
        && "\(error)".contains("App/MyApp.xcodeproj/project.pbxproj")
    }
  }

  @Test func notAPropertyListIsAnError() {
    #expect(throws: XcodeError.self) {
      _ = try ProjectFileReader.document(Array("<<<<<<< HEAD".utf8), projectPath: "A.xcodeproj", revision: "worktree")
    }
  }

  @Test func aGroupNamingAMissingChildIsAnError() throws {
    let missing = "FFFFFFFFFFFFFFFFFFFFFFFF"
    var text = ThinApp().files[ThinApp.projectPath + "/project.pbxproj"]!
    // The main group's first child is the products group; point it at an object that does not exist.
    text = text.replacingOccurrences(of: "\t\t\t\t0000000000000000000000AC,", with: "\t\t\t\t\(missing),")
    let document = try ProjectFileReader.document(
      Array(text.utf8), projectPath: ThinApp.projectPath, revision: "worktree")
    #expect {
      _ = try ProjectResolver.resolve(document)
    } throws: { error in
      guard case .missingObject(let path, _, let id, let referrer) = error as? XcodeError else { return false }
      return path == "App/MyApp.xcodeproj/project.pbxproj" && id == missing && referrer.contains("group")
    }
  }

  @Test func fingerprintsFollowTheTargetEntryAndTheProjectSettings() throws {
    let base = try project()
    let changedTarget = try project(
      ThinApp { app in
        app.project.target("Extra", .framework)
      })
    #expect(base.fingerprint == changedTarget.fingerprint)
    #expect(base.target(named: "MyApp")?.fingerprint == changedTarget.target(named: "MyApp")?.fingerprint)
    var settings = ThinApp()
    settings.project.projectSettings["IPHONEOS_DEPLOYMENT_TARGET"] = "18.0"
    settings.files[ThinApp.projectPath + "/project.pbxproj"] = settings.project.text()
    #expect(try project(settings).fingerprint != base.fingerprint)
  }
}
