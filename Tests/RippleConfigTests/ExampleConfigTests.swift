import ConfigLoading
import Foundation
import RippleConfig
import RippleCore
import Testing

/// The annotated example shipped in Config/ must stay a valid config.
@Suite struct ExampleConfigTests {
  @Test func theShippedExampleParses() throws {
    let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("../../Config/ripple.example.yml").standardized.path
    let config = try ConfigLoader.parse(String(contentsOfFile: path, encoding: .utf8), path: path)
    #expect(config.selection.manifestEnvironments.count == 2)
    #expect(config.assets.assets.map(\.id) == ["audio", "fonts", "words-private"])
    #expect(config.assets.generate.map(\.id) == ["words", "words-db"])
    #expect(config.assets.assets.first?.transform?.variants.count == 2)
    #expect(config.assets.secrets.map(\.id) == ["server-secrets"])
    #expect(config.testRuns.map(\.name) == ["server", "client", "ios"])
    #expect(config.testRuns.last?.xcodebuild?.scheme == "MyApp")
    #expect(config.test.requires.map(\.name) == ["postgres"])
    #expect(config.test.resultCache.store == .local(path: nil))
    #expect(config.test.resultCache.publicKeys.map(\.name) == ["ci-main"])
    #expect(config.test.resultCache.protectedBranches == ["main", "release/*"])
  }

  /// The reference user's `make bootstrap-client` as ripple.yml (examples/isowords).
  @Test func theIsowordsExampleParses() throws {
    let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("../../examples/isowords/ripple.yml").standardized.path
    let config = try ConfigLoader.parse(String(contentsOfFile: path, encoding: .utf8), path: path).assets
    #expect(config.assets.map(\.id) == ["app-audio", "clip-audio", "public-audio", "fonts", "words-private"])
    #expect(config.assets[0].source == .runtimeURL(.environment(variable: "AUDIO_URL")))
    #expect(config.assets[0].archive?.flatten == true)
    #expect(config.assets[2].source == .lfs(LFSSource(paths: [Glob("Assets/Public/**/*.wav")], flatten: true)))
    #expect(
      config.assets[3].source == .runtimeURL(.command(["heroku", "config:get", "FONTS_URL", "-a", "isowords-staging"])))
    #expect(config.generate.map(\.id) == ["words", "words-db"])
    #expect(config.secrets.map(\.id) == ["api-secrets"])
  }
}
