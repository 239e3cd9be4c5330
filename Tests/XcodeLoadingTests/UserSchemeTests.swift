import Affected
import Testing
import XcodeFixtures
import XcodeModel

@testable import XcodeLoading

/// User schemes (`xcuserdata/NAME.xcuserdatad/xcschemes`) stand in for shared ones when a project shares
/// none (docs/DESIGN.md, rule 12).
@Suite struct UserSchemeTests {
  static let userScheme = "App/MyApp.xcodeproj/xcuserdata/me.xcuserdatad/xcschemes/Mine.xcscheme"

  /// The thin app with its user scheme testing `MyAppTests`; `shared`: keeps its shared schemes.
  static func app(shared: Bool, scheme: String = "MyAppTests") -> ThinApp {
    ThinApp { app in
      let container = "container:MyApp.xcodeproj"
      if !shared {
        app.files["App/MyApp.xcodeproj/xcshareddata/xcschemes/MyApp.xcscheme"] = nil
        app.files["App/MyApp.xcodeproj/xcshareddata/xcschemes/Planned.xcscheme"] = nil
      }
      app.files[userScheme] = SchemeFixture.scheme(
        buildTarget: .init(container: container, identifier: app.ids["MyApp"]!, name: "MyApp"),
        testables: [.init(container: container, identifier: app.ids[scheme]!, name: scheme)])
      app.files["App/MyApp.xcodeproj/xcuserdata/me.xcuserdatad/xcschemes/xcschememanagement.plist"] = "<plist/>"
    }
  }

  @Test func withoutSharedSchemesTheUsersAreRead() throws {
    let snapshot = XcodeLoader.load(Self.app(shared: false).tree(), excludePackages: [])
    #expect(snapshot.schemes.map(\.path) == [Self.userScheme])
    #expect(snapshot.schemes.first?.testables.map(\.name) == ["MyAppTests"])
    let markers = XcodeLoader.load(
      Self.app(shared: false).tree(), markers: ["App/MyApp.xcodeproj/project.pbxproj"], excludePackages: [])
    #expect(markers.schemes.map(\.path) == [Self.userScheme])
  }

  @Test func aChangedUserSchemeInUseSelectsWhatItTests() throws {
    let result = try analyze(
      base: Self.app(shared: false), head: Self.app(shared: false, scheme: "MyAppUITests"),
      changes: [modified(Self.userScheme)])
    #expect(result.testNames == ["MyAppTests", "MyAppUITests"])
    #expect(!result.runAll)
  }

  @Test func withSharedSchemesUserOnesAreNotReadAndSelectNothing() throws {
    let app = Self.app(shared: true)
    let snapshot = XcodeLoader.load(app.tree(), excludePackages: [])
    #expect(!snapshot.schemes.map(\.path).contains(Self.userScheme))
    let result = try analyze(base: app, head: app, changes: [modified(Self.userScheme)])
    #expect(result.targets.isEmpty)
    #expect(!result.runAll)
    let other = try analyze(
      base: Self.app(shared: false), head: Self.app(shared: false),
      changes: [modified("App/MyApp.xcodeproj/xcuserdata/me.xcuserdatad/xcschemes/xcschememanagement.plist")])
    #expect(other.targets.isEmpty && !other.runAll)
  }
}
