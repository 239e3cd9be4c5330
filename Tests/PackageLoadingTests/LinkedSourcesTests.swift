import PackageModel
import RippleCore
import Testing

@testable import PackageLoading

/// What targets reach through symbolic links, as SwiftPM follows them (checked with Swift 6.3.1: `swift package
/// describe` lists, and `swift build` compiles, `Shared/X.swift` as a source of `PluginA` through
/// `Sources/PluginA/Shared -> ../../Shared`, nested folders and links inside the linked folder included).
@Suite struct LinkedSourcesTests {
  static func link(_ path: String, _ destination: String) -> SymbolicLink {
    SymbolicLink(path: path, destination: destination)
  }

  @Test func aLinkedFolderAndALinkedFileAreReached() {
    let links = LinkedSources(links: [
      Self.link("Sources/PluginA/Shared", "../../Shared"), Self.link("Sources/PluginB/O.swift", "../../Other/O.swift"),
      Self.link("Elsewhere/Unrelated", "../Shared"),
    ])
    let a = links.reached(from: "Sources/PluginA", owner: "PluginA")
    #expect(a.paths == [LinkedPath(path: "Shared", link: "Sources/PluginA/Shared")])
    #expect(a.warnings.isEmpty)
    #expect(
      links.reached(from: "Sources/PluginB", owner: "PluginB").paths == [
        LinkedPath(path: "Other/O.swift", link: "Sources/PluginB/O.swift")
      ])
    #expect(links.reached(from: "Sources/PluginC", owner: "PluginC").paths.isEmpty)
  }

  @Test func linksInsideALinkedFolderAndChainsOfLinksAreFollowed() {
    let links = LinkedSources(links: [
      Self.link("Sources/A/Shared", "../../Shared"), Self.link("Shared/Chain", "../Other"),
      Self.link("Sources/B/Hop", "../../Alias"), Self.link("Alias", "Real/Code"),
      // `..` after a link climbs from where the link leads: Shared/Up/.. is Packages/Deep, not Shared.
      Self.link("Sources/C/Climb", "../../Shared/Up/../Kit"), Self.link("Shared/Up", "../Packages/Deep/Inner"),
    ])
    #expect(
      links.reached(from: "Sources/A", owner: "A").paths == [
        LinkedPath(path: "Shared", link: "Sources/A/Shared"), LinkedPath(path: "Other", link: "Shared/Chain"),
        LinkedPath(path: "Packages/Deep/Inner", link: "Shared/Up"),
      ])
    #expect(links.reached(from: "Sources/B", owner: "B").paths.map(\.path) == ["Real/Code"])
    #expect(links.resolve("Sources/C/Climb") == .inside("Packages/Deep/Kit"))
  }

  @Test func aTargetDirectoryThatIsALinkReachesItsDestination() {
    let links = LinkedSources(links: [Self.link("Sources/PluginA", "../Shared/PluginA")])
    #expect(
      links.reached(from: "Sources/PluginA", owner: "PluginA").paths == [
        LinkedPath(path: "Shared/PluginA", link: "Sources/PluginA")
      ])
  }

  @Test func aDanglingLinkStillCountsForWhatMayBeAddedThere() {
    let links = LinkedSources(links: [Self.link("Sources/A/Gen", "../../Generated")])
    #expect(links.reached(from: "Sources/A", owner: "A").paths.map(\.path) == ["Generated"])
  }

  /// Out of the repository, cycles of links and links to a folder holding them: bounded, a warning each, no crash.
  @Test func linksOutOfTheRepositoryAndCyclesAreWarnedAboutAndNotFollowed() {
    let links = LinkedSources(links: [
      Self.link("Sources/A/Absolute", "/usr/share"), Self.link("Sources/A/Up", "../../../outside"),
      Self.link("Sources/A/Loop", "Loop"), Self.link("Sources/A/Ping", "Pong"), Self.link("Sources/A/Pong", "Ping"),
      Self.link("Sources/A/Shared", "../../Shared"), Self.link("Shared/Back/Up", "../../Shared"),
      Self.link("Sources/A/Root", "../.."),
    ])
    #expect(links.resolve("Sources/A/Loop") == .cycle)
    #expect(links.resolve("Sources/A/Up") == .outside)
    let reached = links.reached(from: "Sources/A", owner: "pkg:A")
    #expect(reached.paths == [LinkedPath(path: "Shared", link: "Sources/A/Shared")])
    let named = "the symbolic link Sources/A/"
    #expect(
      reached.warnings == [
        "\(named)Absolute (→ /usr/share) in pkg:A leads out of the repository: SwiftPM compiles what it reaches, "
          + "but Ripple sees no change there.",
        "\(named)Loop (→ Loop) in pkg:A does not resolve within 40 links (a cycle); not followed.",
        "\(named)Ping (→ Pong) in pkg:A does not resolve within 40 links (a cycle); not followed.",
        "\(named)Pong (→ Ping) in pkg:A does not resolve within 40 links (a cycle); not followed.",
        "\(named)Root (→ ../..) in pkg:A leads to a folder holding it (a cycle); not followed.",
        "\(named)Up (→ ../../../outside) in pkg:A leads out of the repository: SwiftPM compiles what it reaches, "
          + "but Ripple sees no change there.",
        "the symbolic link Shared/Back/Up (→ ../../Shared) in pkg:A leads to a folder holding it (a cycle); "
          + "not followed.",
      ])
  }

  @Test func attachSetsEachSwiftPMTargetsLinkedPathsAndWarnsOnce() {
    let graph = PackageGraph(packages: [
      Package(
        path: ".", name: "Root", packageFingerprint: "",
        targets: [
          Target(name: "PluginA", kind: .plugin, directory: "Plugins/PluginA"),
          Target(name: "PluginB", kind: .plugin, directory: "Plugins/PluginB"),
        ]),
      Package(
        path: "App.xcodeproj", name: "App", packageFingerprint: "",
        targets: [Target(name: "App", kind: .app, directory: "Plugins/PluginA")], origin: .xcodeProject),
    ])
    let links = LinkedSources(links: [
      Self.link("Plugins/PluginA/Shared", "../../Shared"), Self.link("Plugins/PluginB/Shared", "../../Shared"),
      Self.link("Shared/Out", "/tmp"),
    ])
    let (attached, warnings) = links.attach(to: graph)
    #expect(attached.packages[0].targets[0].linkedPaths == [LinkedPath(path: "Shared", link: "Plugins/PluginA/Shared")])
    #expect(attached.packages[0].targets[1].link(reaching: "Shared/Sub/X.swift") == "Plugins/PluginB/Shared")
    #expect(attached.packages[1].targets[0].linkedPaths == nil, "Xcode targets list what they own")
    #expect(
      warnings.count == 2 && warnings.allSatisfy { $0.hasPrefix("the symbolic link Shared/Out (→ /tmp) in Plugin") })
    #expect(LinkedSources(links: []).attach(to: graph).graph == graph)
  }

  @Test func theOverlayAnswersTheNewTreesLinks() {
    let overlay = TreeOverlay(changes: [
      ChangedFile(path: "Sources/A/Shared", status: .modified), ChangedFile(path: "Sources/B/Gone", status: .deleted),
      ChangedFile(path: "Sources/C/New", status: .added), ChangedFile(path: "Sources/C/file.swift", status: .added),
    ])
    let old = [
      Self.link("Sources/A/Shared", "../../Old"), Self.link("Sources/B/Gone", "x"), Self.link("Sources/B/Kept", "y"),
    ]
    let new = overlay.symbolicLinks(over: old) { path in
      ["Sources/A/Shared": "../../Shared", "Sources/C/New": "../../New"][path].map { Self.link(path, $0) }
    }
    #expect(
      new == [
        Self.link("Sources/A/Shared", "../../Shared"), Self.link("Sources/B/Kept", "y"),
        Self.link("Sources/C/New", "../../New"),
      ])
  }
}
