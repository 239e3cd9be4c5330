/// A thin app over a local package, in memory: `App/MyApp.xcodeproj` (app, widget extension, unit tests
/// in a synchronised folder, UI tests) over `Packages/Core` (Core, Feature, CoreTests), plus shared schemes
/// and a test plan.
public struct ThinAppFixture: Sendable {
  public var project = PBXProjFixture()
  /// Repo-relative path → contents: the app sources, the project, schemes and the test plan.
  public var files: [String: String] = [:]
  /// Target name → object id.
  public var ids: [String: String] = [:]

  public static let projectPath = "App/MyApp.xcodeproj"

  public init(configure: (inout ThinAppFixture) -> Void = { _ in }) {
    var p = PBXProjFixture()
    let core = p.localPackage("../Packages/Core")
    let collections = p.remotePackage("https://github.com/apple/swift-collections.git", minimumVersion: "1.1.0")
    let appGroup = p.group("MyApp")
    let appSwift = p.file("App.swift", in: appGroup)
    let content = p.file("ContentView.swift", in: appGroup)
    _ = p.file("Info.plist", in: appGroup)
    let strings = p.variantGroup("Localizable.strings", languages: ["en", "de"], in: appGroup)
    let widgetGroup = p.group("Widget")
    let widgetSwift = p.file("Widget.swift", in: widgetGroup)
    let testsFolder = p.synchronizedFolder("MyAppTests")
    let uiGroup = p.group("MyAppUITests")
    let uiSwift = p.file("UITests.swift", in: uiGroup)
    let widget = p.target(
      "Widget", .appExtension, sources: [widgetSwift], products: [.init("Collections", package: collections)])
    let app = p.target(
      "MyApp", .app, sources: [appSwift, content], resources: [strings],
      settings: [
        "INFOPLIST_FILE": "MyApp/Info.plist", "CODE_SIGN_ENTITLEMENTS": "$(SRCROOT)/MyApp/MyApp.entitlements",
      ],
      dependencies: [widget], products: [.init("Feature", package: core)])
    let tests = p.target("MyAppTests", .unitTest, synchronized: [testsFolder], host: app)
    p.membershipException(folder: testsFolder, target: tests, files: ["Fixtures/big.json"])
    let ui = p.target("MyAppUITests", .uiTest, sources: [uiSwift], host: app)
    project = p
    ids = ["MyApp": app, "Widget": widget, "MyAppTests": tests, "MyAppUITests": ui]
    let container = "container:MyApp.xcodeproj"
    files = [
      "App/MyApp/App.swift": "", "App/MyApp/ContentView.swift": "", "App/MyApp/Info.plist": "",
      "App/MyApp/MyApp.entitlements": "", "App/MyApp/en.lproj/Localizable.strings": "",
      "App/MyApp/de.lproj/Localizable.strings": "", "App/Widget/Widget.swift": "",
      "App/MyAppTests/AppTests.swift": "", "App/MyAppTests/Fixtures/big.json": "",
      "App/MyAppUITests/UITests.swift": "", "App/README.md": "",
      "Packages/Core/Package.swift": "", "Packages/Core/Sources/Core/Core.swift": "",
      "Packages/Core/Sources/Feature/Feature.swift": "", "Packages/Core/Tests/CoreTests/CoreTests.swift": "",
      "App/MyApp.xcodeproj/xcshareddata/xcschemes/MyApp.xcscheme": SchemeFixture.scheme(
        buildTarget: .init(container: container, identifier: app, name: "MyApp"),
        testables: [
          .init(container: container, identifier: tests, name: "MyAppTests"),
          .init(container: container, identifier: ui, name: "MyAppUITests", off: true),
          .init(container: "container:../Packages/Core", identifier: "CoreTests", name: "CoreTests"),
        ]),
      "App/MyApp.xcodeproj/xcshareddata/xcschemes/Planned.xcscheme": SchemeFixture.scheme(
        buildTarget: .init(container: container, identifier: app, name: "MyApp"), testables: [],
        testPlans: ["container:MyApp/MyApp.xctestplan"]),
      "App/MyApp/MyApp.xctestplan": SchemeFixture.testPlan([
        .init(container: container, identifier: tests, name: "MyAppTests"),
        .init(container: container, identifier: ui, name: "MyAppUITests", off: true),
      ]),
    ]
    configure(&self)
    files[Self.projectPath + "/project.pbxproj"] = project.text()
  }
}
