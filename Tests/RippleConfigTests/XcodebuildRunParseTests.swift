import ConfigLoading
import RippleConfig
import RippleCore
import Testing

/// `runner: xcodebuild` runs in `test.runs`: their keys, defaults and bad input.
@Suite struct XcodebuildRunParseTests {
  @Test func anXcodebuildRunWithEveryKey() throws {
    let config = try ConfigLoader.parse(
      """
      test:
        runs:
          - name: server
            environment: {TEST_SERVER: "1"}
            platforms: [linux]
          - name: ios
            runner: xcodebuild
            project: App/MyApp.xcodeproj/
            scheme: MyApp
            destination: "platform=iOS Simulator,name=iPhone 16"
            configuration: Debug
            testPlan: Smoke
            arguments: [-parallel-testing-enabled, "NO"]
      """, path: "ripple.yml")
    let ios = try #require(config.testRuns.last)
    #expect(ios.runner == .xcodebuild)
    #expect(ios.platforms == [.macos], "xcodebuild runs default to macOS")
    let spec = try #require(ios.xcodebuild)
    #expect(spec.scheme == "MyApp")
    #expect(spec.project == "App/MyApp.xcodeproj" && spec.workspace == nil)
    #expect(spec.destination == "platform=iOS Simulator,name=iPhone 16")
    #expect(spec.configuration == "Debug" && spec.testPlan == "Smoke")
    #expect(spec.arguments == ["-parallel-testing-enabled", "NO"])
    #expect(spec.location?.line == 6)
    // An xcodebuild run is not a graph environment of its own.
    #expect(config.graphEnvironments == [[:], ["TEST_SERVER": "1"]])
  }

  @Test func onlyXcodebuildRunsKeepTheDefaultSwiftRunsFirst() throws {
    let config = try ConfigLoader.parse(
      """
      test:
        runs:
          - name: ios
            runner: xcodebuild
            workspace: App.xcworkspace
            scheme: MyApp
            destination: platform=macOS
      """, path: "ripple.yml")
    #expect(config.testRuns.map(\.name) == ["default", "ios"])
    #expect(config.testRuns.map(\.runner) == [.swift, .xcodebuild])
    #expect(config.testRuns.last?.xcodebuild?.workspace == "App.xcworkspace")
  }

  static let run = "test:\n  runs:\n    - name: ios\n      runner: xcodebuild\n"

  @Test(arguments: [
    (run + "      destination: platform=macOS\n", 3, "the xcodebuild run `ios` needs a `scheme`"),
    (run + "      scheme: MyApp\n", 3, "the xcodebuild run `ios` needs a `destination`"),
    (
      run + "      scheme: A\n      destination: d\n      platforms: [macos, linux]\n", 3,
      "cannot run on linux: xcodebuild exists only on macos"
    ),
    (
      run + "      scheme: A\n      destination: d\n      project: A.xcodeproj\n      workspace: A.xcworkspace\n", 8,
      "a `project` or a `workspace`, not both"
    ),
    (
      run + "      scheme: A\n      destination: d\n      project: App/MyApp\n", 7,
      "is not a repo-relative `*.xcodeproj`"
    ),
    ("test:\n  runs:\n    - name: a\n      scheme: MyApp\n", 4, "`scheme` is only for `runner: xcodebuild`"),
    ("test:\n  runs:\n    - name: a\n      runner: xcode\n", 4, "expected one of: swift, xcodebuild"),
    (run + "      scheme: A\n      destination: d\n      arguments: -quiet\n", 7, "expected a list"),
  ])
  func badInputIsAConfigErrorWithItsLine(text: String, line: Int, message: String) throws {
    let error = try failure(text)
    #expect(error.line == line, "\(error.description)")
    #expect(error.description.contains(message), "\(error.description)")
  }
}
