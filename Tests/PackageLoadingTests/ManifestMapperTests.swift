import PackageModel
import Testing

@testable import PackageLoading

@Suite struct ManifestMapperTests {
  let files = [
    "Package.swift", "Sources/A/A.swift", "Custom/B/B.swift", "Tests/ATests/ATests.swift", "Plugins/P/plugin.swift",
    "Nested/Package.swift", "Nested/Sources/N/N.swift",
  ]

  func normalizedFixture(root: String = "/work/checkout") throws -> JSONValue {
    let text = rootDumpFixture.replacingOccurrences(of: "/work/checkout", with: root)
    return PathNormalizer(roots: [root]).normalize(try JSONValue.parse(Array(text.utf8)))
  }

  func mapped() throws -> Package {
    let tree = TreeSnapshot(label: "test", rootName: "repo", files: files, workingDirectoryRoot: nil) { _ in nil }
    return try ManifestMapper.package(
      from: try normalizedFixture(), path: ".", manifestFile: "Package.swift", directories: tree.directories())
  }

  @Test func localPathsBecomeRepoRelative() throws {
    let document = try normalizedFixture()
    #expect(document["packageKind"]?.canonicalText == #"{"root":["."]}"#)
    #expect(!document.canonicalText.contains("/work/checkout"))
  }

  @Test func normalisationDoesNotDependOnWhereTheManifestWasEvaluated() throws {
    #expect(try normalizedFixture() == normalizedFixture(root: "/tmp/ripple-manifests-1234"))
  }

  @Test func rootInOtherStringsIsReplacedByAPlaceholder() {
    let document = JSONValue.object([
      "settings": .array([.string("-I/repo/include"), .string("/repository-other")])
    ])
    let normalized = PathNormalizer(roots: ["/repo", "/private/repo"]).normalize(document)
    #expect(normalized["settings"] == .array([.string("-I$(REPO_ROOT)/include"), .string("/repository-other")]))
    #expect(PathNormalizer(roots: ["/repo", "/private/repo"]).relative("/private/repo/a/../b") == "b")
  }

  @Test func targets() throws {
    let package = try mapped()
    #expect(package.name == "Root")
    #expect(package.targets.map(\.name) == ["A", "B", "ATests", "P"])
    let a = try #require(package.target(named: "A"))
    #expect(a.kind == .library)
    #expect(a.directory == "Sources/A")
    #expect(
      a.dependencies == [.product("N", package: "Nested"), .product("Foo", package: "foo"), .byName("B"), .target("B")])
    #expect(a.pluginUsages == [.target("P")])
    #expect(a.fingerprint.contains(#""exclude":["x"]"#))
    #expect(a.fingerprint.contains(#""platformNames":["linux"]"#), "conditions stay in the fingerprint")
    #expect(a.fingerprint.contains(#""resources":[{"path":"Resources""#))

    let b = try #require(package.target(named: "B"))
    #expect(b.declaredPath == "Custom/B")
    #expect(b.directory == "Custom/B")
    #expect(package.target(named: "ATests")?.kind == .test)
    #expect(package.target(named: "ATests")?.directory == "Tests/ATests")
    #expect(package.target(named: "P")?.kind == .plugin)
    #expect(package.target(named: "P")?.directory == "Plugins/P")
  }

  @Test func productsAndDependencies() throws {
    let package = try mapped()
    #expect(package.products == [Product(name: "A", kind: "library", targets: ["A"])])
    #expect(package.dependencies.map(\.identity) == ["nested", "foo", "bar", "outside"])
    #expect(
      package.dependencies.map(\.location) == [
        .local(path: "Nested"), .remote("https://example.invalid/nowhere/foo.git"),
        .remote("https://example.invalid/bar"),
        .local(path: nil),
      ])
    #expect(package.dependencies[1].fingerprint.contains(#""lowerBound":"1.2.0""#))
    #expect(package.dependencies[3].fingerprint.contains("/opt/outside"), "outside paths stay in the fingerprint")
  }

  @Test func packageFingerprintHoldsPackageLevelFieldsOnly() throws {
    let fingerprint = try mapped().packageFingerprint
    #expect(fingerprint.contains(#""platforms":[{"#))
    #expect(fingerprint.contains(#""swiftLanguageVersions":["5"]"#))
    #expect(fingerprint.contains(#""toolsVersion":{"#))
    for excluded in ["\"targets\"", "\"products\"", "\"dependencies\"", "\"name\"", "\"packageKind\""] {
      #expect(!fingerprint.contains(excluded + ":"), "\(excluded)")
    }
  }

  @Test func dependencyKinds() throws {
    let registry = try JSONValue.parse(Array(#"{"registry":[{"identity":"scope.thing","requirement":{}}]}"#.utf8))
    #expect(try ManifestMapper.dependency(registry).location == .remote("scope.thing"))
    let named = try JSONValue.parse(
      Array(#"{"fileSystem":[{"identity":"foo","nameForTargetDependencyResolutionOnly":"Xyz","path":"Foo"}]}"#.utf8))
    let dependency = try ManifestMapper.dependency(named)
    #expect(dependency.name == "Xyz")
    #expect(dependency.location == .local(path: "Foo"))
  }

  @Test func pluginUsageOfAPluginProductMapsToItsTarget() throws {
    let usage = JSONValue.object(["plugin": .array([.string("GenProduct"), .null])])
    let products = [Product(name: "GenProduct", kind: "plugin", targets: ["GenTarget"])]
    #expect(
      try ManifestMapper.pluginUsage(usage, targetNames: ["GenTarget"], products: products) == .target("GenTarget"))
    let external = JSONValue.object(["plugin": .array([.string("Lint"), .string("swiftlint")])])
    #expect(
      try ManifestMapper.pluginUsage(external, targetNames: [], products: []) == .product("Lint", package: "swiftlint"))
  }
}
