import PackageLoading
import PackageModel
import XcodeFixtures

typealias ThinApp = ThinAppFixture

extension ThinAppFixture {
  /// The package graph SwiftPM would give for `Packages/Core`, built in code.
  static let packageGraph = PackageGraph(packages: [
    Package(
      path: "Packages/Core", name: "Core", packageFingerprint: "tools 6.0",
      targets: [
        Target(name: "Core", kind: .library, directory: "Packages/Core/Sources/Core", fingerprint: "core"),
        Target(
          name: "Feature", kind: .library, directory: "Packages/Core/Sources/Feature", dependencies: [.target("Core")],
          fingerprint: "feature"),
        Target(
          name: "CoreTests", kind: .test, directory: "Packages/Core/Tests/CoreTests", dependencies: [.target("Core")],
          fingerprint: "tests"),
      ],
      products: [Product(name: "Core", targets: ["Core"]), Product(name: "Feature", targets: ["Feature"])])
  ])

  func tree(label: String = "worktree") -> TreeSnapshot {
    let files = self.files
    return TreeSnapshot(label: label, rootName: "repo", files: files.keys.sorted(), workingDirectoryRoot: nil) { path in
      files[path].map { Array($0.utf8) }
    }
  }
}
