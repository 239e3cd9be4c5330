/// Writes a shared scheme (`.xcscheme` XML, as Xcode 16 writes it) and test plans (`.xctestplan` JSON).
public enum SchemeFixture {
  /// A test target a scheme or plan names: `container` as written (`container:App.xcodeproj`).
  public struct Testable: Sendable {
    public var container: String
    public var identifier: String
    public var name: String
    /// Skipped (scheme) or disabled (plan).
    public var off: Bool

    public init(container: String, identifier: String, name: String, off: Bool = false) {
      self.container = container
      self.identifier = identifier
      self.name = name
      self.off = off
    }
  }

  /// A scheme building `buildTarget` that tests `testables`, or runs `testPlans` (`container:` references,
  /// the first one the default) when given.
  /// `implicitDependencies`: the build action's `buildImplicitDependencies` (Xcode's "Find Implicit
  /// Dependencies").
  public static func scheme(
    buildTarget: Testable, testables: [Testable], testPlans: [String] = [], implicitDependencies: Bool = true
  ) -> String {
    var xml = """
      <?xml version="1.0" encoding="UTF-8"?>
      <Scheme
         LastUpgradeVersion = "1600"
         version = "1.7">
         <BuildAction
            parallelizeBuildables = "YES"
            buildImplicitDependencies = "\(implicitDependencies ? "YES" : "NO")">
            <BuildActionEntries>
               <BuildActionEntry
                  buildForTesting = "YES"
                  buildForRunning = "YES">
                  \(reference(buildTarget, suffix: ".app"))
               </BuildActionEntry>
            </BuildActionEntries>
         </BuildAction>
         <TestAction
            buildConfiguration = "Debug"
            selectedDebuggerIdentifier = "Xcode.DebuggerFoundation.Debugger.LLDB"
            shouldUseLaunchSchemeArgsEnv = "YES">

      """
    if !testPlans.isEmpty {
      xml += "      <TestPlans>\n"
      for (index, plan) in testPlans.enumerated() {
        xml +=
          "         <TestPlanReference\n            reference = \"\(plan)\"\(index == 0 ? "\n            default = \"YES\"" : "")>\n         </TestPlanReference>\n"
      }
      xml += "      </TestPlans>\n"
    }
    xml += "      <Testables>\n"
    for testable in testables {
      xml += """
               <TestableReference
                  skipped = "\(testable.off ? "YES" : "NO")"
                  parallelizable = "YES">
                  \(reference(testable, suffix: ".xctest"))
                  <SkippedTests>
                     <Test Identifier = "Flaky/testSometimes()"></Test>
                  </SkippedTests>
               </TestableReference>

        """
    }
    xml += """
            </Testables>
         </TestAction>
         <LaunchAction buildConfiguration = "Debug" launchStyle = "0">
         </LaunchAction>
      </Scheme>

      """
    return xml
  }

  private static func reference(_ testable: Testable, suffix: String) -> String {
    """
    <BuildableReference
                     BuildableIdentifier = "primary"
                     BlueprintIdentifier = "\(testable.identifier)"
                     BuildableName = "\(testable.name)\(suffix)"
                     BlueprintName = "\(testable.name)"
                     ReferencedContainer = "\(testable.container)">
                  </BuildableReference>
    """
  }

  /// A test plan, with an option Ripple does not know (`testTimeoutsEnabled`, an `extra` key) kept around.
  public static func testPlan(_ targets: [Testable]) -> String {
    let entries = targets.map { target in
      """
          {
            \(target.off ? "\"enabled\" : false,\n      " : "")"parallelizable" : true,
            "target" : {
              "containerPath" : "\(target.container)",
              "identifier" : "\(target.identifier)",
              "name" : "\(target.name)"
            }
          }
      """
    }
    return """
      {
        "configurations" : [
          {
            "id" : "6F1E1B0C-0000-4000-8000-000000000001",
            "name" : "Configuration 1",
            "options" : {

            }
          }
        ],
        "defaultOptions" : {
          "testTimeoutsEnabled" : true
        },
        "rippleUnknownKey" : {
          "kept" : [1, 2]
        },
        "testTargets" : [
      \(entries.joined(separator: ",\n"))
        ],
        "version" : 1
      }

      """
  }
}
