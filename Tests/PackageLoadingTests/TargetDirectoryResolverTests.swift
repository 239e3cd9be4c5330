import PackageModel
import RippleCore
import Testing

@testable import PackageLoading

@Suite struct TargetDirectoryResolverTests {
  func directory(
    _ name: String, _ kind: TargetKind = .library, path: String? = nil, in packagePath: String = ".",
    alone: Bool = false, toolsVersion: [Int] = [5, 9, 0], files: [String]
  ) -> String {
    let tree = TreeSnapshot(label: "test", rootName: "repo", files: files, workingDirectoryRoot: nil) { _ in nil }
    return TargetDirectoryResolver.directory(
      name: name, kind: kind, declaredPath: path, packagePath: packagePath, aloneOfItsKind: alone,
      toolsVersion: toolsVersion, directories: tree.directories())
  }

  @Test func conventionalSourcesDirectory() {
    #expect(directory("Net", files: ["Sources/Net/Client.swift"]) == "Sources/Net")
  }

  @Test func alternativeSourceRoots() {
    #expect(directory("Net", files: ["Source/Net/Client.swift"]) == "Source/Net")
    #expect(directory("Net", files: ["src/Net/Client.swift"]) == "src/Net")
    #expect(directory("Net", in: "Tools", files: ["Tools/srcs/Net/deep/Client.swift"]) == "Tools/srcs/Net")
  }

  @Test func customPathIsRelativeToThePackage() {
    let files = ["Sub/Custom/B/B.swift", "Sub/Sources/B/Other.swift"]
    #expect(directory("B", path: "Custom/B", in: "Sub", files: files) == "Sub/Custom/B")
    #expect(directory("B", path: "./Custom/B/", in: "Sub", files: files) == "Sub/Custom/B")
    #expect(directory("Root", path: ".", in: "Sub", files: files) == "Sub")
  }

  @Test func testsLookInTestsFirstThenSourceRoots() {
    let files = ["Sources/NetTests/A.swift", "Tests/NetTests/B.swift"]
    #expect(directory("NetTests", .test, files: files) == "Tests/NetTests")
    #expect(directory("NetTests", .test, files: ["Sources/NetTests/A.swift"]) == "Sources/NetTests")
    #expect(directory("NetTests", .library, files: files) == "Sources/NetTests")
  }

  @Test func pluginsLiveInPlugins() {
    #expect(directory("Gen", .plugin, files: ["Plugins/Gen/plugin.swift", "Sources/Gen/x.swift"]) == "Plugins/Gen")
  }

  @Test func missingDirectoryFallsBackToTheConventionalOne() {
    #expect(directory("New", files: ["Sources/Net/Client.swift"]) == "Sources/New")
    #expect(directory("NewTests", .test, files: []) == "Tests/NewTests")
    #expect(directory("New", files: ["src/Net/Client.swift"]) == "src/New", "uses the existing source root")
  }

  @Test func aloneTargetMayOccupyTheWholeRootFromToolsVersion5_9() {
    let files = ["Sources/main.swift"]
    #expect(directory("Tool", alone: true, files: files) == "Sources")
    #expect(directory("Tool", alone: true, toolsVersion: [5, 8, 0], files: files) == "Sources/Tool")
    #expect(directory("Tool", alone: false, files: files) == "Sources/Tool")
  }
}
