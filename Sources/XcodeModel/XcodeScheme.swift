import RippleCore

/// A shared scheme (`xcshareddata/xcschemes/NAME.xcscheme`) as far as testing goes: what its test action
/// tests, directly or through test plans, and what its build action builds and whether it finds implicit
/// dependencies. A container's user schemes (`xcuserdata`) are read only when it shares none.
public struct XcodeScheme: Sendable, Hashable {
  public var name: String
  /// The repo-relative `.xcscheme` file.
  public var path: String
  /// The repo-relative `.xcodeproj` or `.xcworkspace` holding it.
  public var container: String
  /// `TestAction` → `Testables` (used when the scheme has no test plan).
  public var testables: [TestEntry]
  /// `TestAction` → `TestPlans`, repo-relative.
  public var testPlans: [TestPlanReference]
  /// `BuildAction` → `BuildActionEntries`: the targets it builds (`enabled` unused).
  public var buildEntries: [TestEntry] = []
  /// `BuildAction`'s `buildImplicitDependencies` ("Find Implicit Dependencies"): false only for `NO`.
  public var buildsImplicitDependencies = true

  public init(name: String, path: String, container: String, testables: [TestEntry], testPlans: [TestPlanReference]) {
    self.name = name
    self.path = path
    self.container = container
    self.testables = testables
    self.testPlans = testPlans
  }

  public struct TestPlanReference: Sendable, Hashable {
    public var path: String
    public var isDefault: Bool

    public init(path: String, isDefault: Bool) {
      self.path = path
      self.isDefault = isDefault
    }
  }

  /// The plan `xcodebuild test -scheme NAME` runs: the default one, else the first.
  public var defaultTestPlan: TestPlanReference? { testPlans.first(where: \.isDefault) ?? testPlans.first }

  /// What the scheme tests: the enabled targets of its default test plan when it has one (nil when that
  /// plan is not in `plans`), else its testables that are not skipped.
  public func testedTargets(plans: [String: XcodeTestPlan]) -> [TestEntry]? {
    guard let plan = defaultTestPlan else { return testables.filter(\.enabled) }
    return plans[plan.path]?.targets.filter(\.enabled)
  }

  /// The folder `container:` references of a scheme or test plan of `container` are relative to.
  public static func referenceBase(ofContainer container: String) -> String { RepoPath.parent(container) }

  /// `container:App.xcodeproj` → `Dir/App.xcodeproj` (with `base` = `Dir`); nil for other reference kinds.
  public static func resolveReference(_ reference: String, base: String) -> String? {
    for prefix in ["container:", "group:"] where reference.hasPrefix(prefix) {
      let path = RepoPath.join(base, String(reference.dropFirst(prefix.count)))
      return path == ".." || path.hasPrefix("../") ? nil : path
    }
    return nil
  }
}

/// A test target as a scheme or test plan names it.
public struct TestEntry: Sendable, Hashable {
  /// Repo-relative: an `.xcodeproj`, or a Swift package folder.
  public var container: String
  /// The target's object id in a project, its name in a package.
  public var identifier: String
  public var name: String
  /// False for a skipped testable or a disabled test plan target.
  public var enabled: Bool

  public init(container: String, identifier: String, name: String, enabled: Bool) {
    self.container = container
    self.identifier = identifier
    self.name = name
    self.enabled = enabled
  }
}

/// A test plan (`*.xctestplan`): its test targets, enabled or not.
public struct XcodeTestPlan: Sendable, Hashable {
  public var path: String
  public var targets: [TestEntry]

  public init(path: String, targets: [TestEntry]) {
    self.path = path
    self.targets = targets
  }
}
