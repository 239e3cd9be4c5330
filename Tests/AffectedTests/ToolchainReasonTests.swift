import Affected
import PackageModel
import RippleConfig
import RippleCore
import Testing

/// Reasons under `selection.toolchains` (docs/DESIGN.md, rule 4): they name each version's manifest.
@Suite struct ToolchainReasonTests {
  /// A fingerprint over Swift 6.0 (reading `Package@swift-6.0.swift`), 6.1 and 6.3 (reading `Package.swift`).
  static func fingerprint(_ old: String, _ new61: String, _ new63: String) -> String {
    ToolchainFingerprint.joined([
      .init(manifest: "Package@swift-6.0.swift", version: "6.0", fingerprint: old),
      .init(manifest: "Package.swift", version: "6.1", fingerprint: new61),
      .init(manifest: "Package.swift", version: "6.3", fingerprint: new63),
    ])
  }

  static func graph(net: String, api: String) -> PackageGraph {
    PackageGraph(packages: [
      pkg(
        ".",
        [
          lib("Net").with(fingerprint: net), lib("Api", .target("Net")).with(fingerprint: api),
          test("ApiTests", .target("Api")),
        ])
    ])
  }

  @Test func aChangeSeenByOneVersionNamesItsManifestAndVersion() {
    let base = Self.graph(net: Self.fingerprint("n", "n", "n"), api: Self.fingerprint("a", "a", "a"))
    let head = Self.graph(net: Self.fingerprint("n2", "n", "n"), api: Self.fingerprint("a", "a2", "a2"))
    let result = analyze([.modified("Package@swift-6.0.swift"), .modified("Package.swift")], base: base, head: head)
    #expect(result.reasons("Net") == ["Package@swift-6.0.swift (Swift 6.0): entry changed"])
    #expect(result.reasons("Api")?.first == "Package.swift (Swift 6.1, 6.3): entry changed")
    #expect(result.testNames == ["ApiTests"])
  }

  @Test func equalFingerprintsSelectNothing() {
    let graph = Self.graph(net: Self.fingerprint("n", "n", "n"), api: Self.fingerprint("a", "a", "a"))
    #expect(analyze([.modified("Package.swift")], base: graph).targets.isEmpty)
  }

  @Test func segmentsRoundTrip() {
    let text = Self.fingerprint("{\"a\":1}", "x", "y")
    #expect(ToolchainFingerprint.segments(of: text)?.map(\.fingerprint) == ["{\"a\":1}", "x", "y"])
    #expect(ToolchainFingerprint.segments(of: "{\"a\":1}") == nil)
    #expect(ToolchainFingerprint.changedSources(old: "a", new: "b") == nil)
  }
}
