import Affected
import PackageModel
import RippleConfig
import RippleCore
import Testing

/// `KeyAttribution.counts(_:for:folderOwner:)`, the walk's shortcut, answers as `destination(of:)` does.
@Suite struct KeyAttributionCountsTests {
  @Test func countsAgreesWithDestinationForEveryFileAndTarget() {
    let graph = PackageGraph(packages: [appPackage()])
    var assets = AssetsConfig(generate: [
      GenerateSpec(id: "words", command: ["gzip"], inputs: [Glob("Bootstrap/*.txt")], destination: "Sources/Core/Words")
    ])
    assets.secrets = [
      SecretSpec(id: "api", template: "Config/Secrets.swift.template", output: "Sources/Api/Secrets.swift", values: [:])
    ]
    let attribution = KeyAttribution(
      graph: graph,
      selection: SelectionConfig(ignore: [Glob("**/*.md")], global: [Glob("Sources/Core/Global.swift")]),
      assets: assets, configPath: "ripple.yml")
    let paths = [
      "Sources/Core/Core.swift", "Sources/Core/Global.swift", "Sources/Core/Notes.md", "Sources/Core/Words/a.gz",
      "Sources/Net/Net.swift", "Sources/Api/Api.swift", "Tests/CoreTests/CoreTests.swift", "Bootstrap/words.txt",
      "Config/Secrets.swift.template", "Package.swift", "Package.resolved", "ripple.yml", "README.md",
    ]
    let targets = graph.packages[0].targets.map { TargetRef(package: ".", name: $0.name) }
    var counted = 0
    for path in paths {
      let owners: Set<TargetRef> =
        if case .targets(let owners) = attribution.destination(of: path) { owners } else { [] }
      for target in targets {
        let counts = attribution.counts(path, for: target, folderOwner: attribution.index.owner(of: path))
        #expect(counts == owners.contains(target), "\(path) for \(target)")
        if counts { counted += 1 }
      }
    }
    // Owners by folder, by a `generate:` input and by a secret's template; none for the ignored, global,
    // manifest and configuration files.
    #expect(counted == 7)
  }
}
