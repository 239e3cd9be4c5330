import AssetFetch
import Foundation
import RippleConfig
import RippleCore
import Testing

@testable import Assets

@Suite("bootstrap core: paths, plans, rendering")
struct PureCoreTests {
  @Test func entryPaths() {
    #expect(EntryPolicy.path("a/./b//c.wav", strip: 0) == .extract("a/b/c.wav"))
    #expect(EntryPolicy.path("top/a.wav", strip: 1) == .extract("a.wav"))
    #expect(EntryPolicy.path("top/", strip: 1) == .skip)
    #expect(EntryPolicy.path("/etc/passwd", strip: 0) == .reject("absolute path"))
    #expect(EntryPolicy.path("a/../../b", strip: 0) == .reject("`..` component (path traversal)"))
    #expect(EntryPolicy.path("C:evil", strip: 0) == .reject("drive-letter path"))
    #expect(EntryPolicy.path("a\\..\\b", strip: 0) == .reject("backslash in the name (a Windows path?)"))
  }

  @Test func symlinkTargets() {
    #expect(EntryPolicy.symlinkStaysInside(entry: "a/b/link", target: "../c"))
    #expect(!EntryPolicy.symlinkStaysInside(entry: "a/link", target: "../../c"))
    #expect(!EntryPolicy.symlinkStaysInside(entry: "link", target: "/etc"))
  }

  @Test func collisions() {
    var names = FileNameRegistry()
    #expect(names.insert("Res/Sound.wav") == nil)
    #expect(names.insert("res/sound.wav") == .sameName(earlier: "Res/Sound.wav"))
    #expect(names.insert("caf\u{E9}") == nil)
    #expect(names.insert("cafe\u{301}") == .sameName(earlier: "caf\u{E9}"))
    #expect(names.insert("STRASSE") == nil)
    // One name as a file and as a folder, in either order and in any case.
    #expect(names.insert("strasse/x") == .fileAndFolder(earlier: "STRASSE"))
    #expect(names.insert("RES") == .fileAndFolder(earlier: "Res/Sound.wav"))
    #expect(names.insert("Res/other.wav") == nil)
  }

  @Test func gitAndStagingNamesAreRefusedInArchives() {
    for name in [".git/hooks/pre-commit", "a/.GIT/config", "a/.Git", "x/.g\u{200C}it/hooks/x", "GIT~1/x", ".git./x"] {
      guard case .reject = EntryPolicy.path(name, strip: 0) else {
        Issue.record("\(name) was not refused")
        continue
      }
    }
    #expect(EntryPolicy.path("a/.gitignore", strip: 0) == .extract("a/.gitignore"))
    #expect(EntryPolicy.path("a/.build/x", strip: 0) == .extract("a/.build/x"))
  }

  @Test func transformPlanSubstitutesPerArgumentAndVariant() throws {
    let spec = TransformSpec(
      command: ["ffmpeg", "-i", "{input}", "-b:a", "{bitrate}", "{output}"], files: [Glob("**/*.wav")],
      outputName: "{stem}.mp3",
      variants: [
        TransformVariant(name: "full", variables: ["bitrate": "64k"], destination: "A"),
        TransformVariant(name: "clip", variables: ["bitrate": "32k"], destination: "B"),
      ])
    let plan = try TransformPlan.make(
      spec, assetID: "audio", files: ["sfx/Tap 1.wav", "LICENSE"], inputRoot: "/w", stagingRoots: ["/sa", "/sb"])
    #expect(plan.passthrough == ["LICENSE"])
    #expect(
      plan.steps.map(\.argv) == [
        ["ffmpeg", "-i", "/w/sfx/Tap 1.wav", "-b:a", "64k", "/sa/sfx/Tap 1.mp3"],
        ["ffmpeg", "-i", "/w/sfx/Tap 1.wav", "-b:a", "32k", "/sb/sfx/Tap 1.mp3"],
      ])
    #expect(TransformPlan.substitute("{a}{b}{", ["a": "{b}"]) == "{b}{b}{")
  }

  @Test func transformOutputsThatCollideAreRefused() {
    let spec = TransformSpec(command: ["x", "{input}", "{output}"], outputName: "{stem}.mp3")
    #expect(throws: AssetsError.nameCollision(asset: "a", first: "t.mp3", second: "t.mp3")) {
      try TransformPlan.make(spec, assetID: "a", files: ["t.wav", "t.aiff"], inputRoot: "/w", stagingRoots: ["/s"])
    }
  }

  @Test func cacheRootFollowsTheEnvironment() {
    #expect(ContentCache.defaultRoot(environment: ["RIPPLE_CACHE_DIR": "/c", "XDG_CACHE_HOME": "/x"]) == "/c")
    #expect(ContentCache.defaultRoot(environment: ["XDG_CACHE_HOME": "/x", "HOME": "/h"]) == "/x/ripple")
    #if os(macOS)
      #expect(ContentCache.defaultRoot(environment: ["HOME": "/h"]) == "/h/Library/Caches/ripple")
    #else
      #expect(ContentCache.defaultRoot(environment: ["HOME": "/h"]) == "/h/.cache/ripple")
    #endif
  }

  @Test func fingerprintChangesWithWhatDecidesTheFiles() {
    let state = RepositoryState(repositoryRoot: "/r")
    let a = AssetSpec(id: "a", source: .file(path: "x"), sha256: String(repeating: "0", count: 64), destination: "D")
    var b = a
    b.sha256 = String(repeating: "1", count: 64)
    var c = a
    c.placeholders = [PlaceholderSpec(path: "e.mp3")]
    #expect(AssetPlan(a, state: state).fingerprint(.private) != AssetPlan(b, state: state).fingerprint(.private))
    #expect(AssetPlan(a, state: state).fingerprint(.private) == AssetPlan(c, state: state).fingerprint(.private))
    #expect(
      AssetPlan(a, state: state).fingerprint(.placeholder) != AssetPlan(c, state: state).fingerprint(.placeholder))
    #expect(AssetPlan(a, state: state).stagings == ["/r/.ripple-staging.a.D"])
  }

  @Test func progressOnATerminalIsOneLiveLineWithRateAndETA() {
    var renderer = ProgressRenderer(interactive: true)
    _ = renderer.render(.progress(FetchProgress(assetID: "audio", receivedBytes: 0, totalBytes: 4_000_000)), now: 10)
    let line = renderer.render(
      .progress(FetchProgress(assetID: "audio", receivedBytes: 1_000_000, totalBytes: 4_000_000)), now: 12)
    #expect(line == "\r\u{1B}[2Kaudio: 1.0 MB of 4.0 MB (25%), 500.0 KB/s, 6s left")
    let done = renderer.render(.started(asset: "fonts", kind: .private, reason: nil), now: 12)
    #expect(done == "\r\u{1B}[2Kfonts: installing\n")
  }

  @Test func progressWithoutATerminalIsPlainLinesEveryQuarter() {
    var renderer = ProgressRenderer(interactive: false)
    let texts = [0, 100, 250, 300, 600, 1000].map {
      renderer.render(.progress(FetchProgress(assetID: "a", receivedBytes: Int64($0), totalBytes: 1000)), now: 1)
    }
    #expect(texts.filter { !$0.isEmpty }.count == 4)  // 0%, 25%, 50%, 100%
    #expect(texts.allSatisfy { $0.isEmpty || ($0.hasSuffix("\n") && !$0.contains("\r")) })
  }

  /// rippled's run log: a 3 GB copy read in 1 MiB chunks made 3,000 lines; now one per 10% and one per 10 s at
  /// most while bytes arrive, also when the size is unknown.
  @Test func progressInRippledsLogIsALineEveryTenPercentOrTenSeconds() {
    var known = ProgressRenderer(interactive: false, percentStep: 10, interval: 10)
    let mebibyte: Int64 = 1 << 20
    let lines = (0...3000).map { chunk in
      known.render(
        .progress(FetchProgress(assetID: "a", receivedBytes: Int64(chunk) * mebibyte, totalBytes: 3000 * mebibyte)),
        now: Double(chunk) / 1000)
    }.filter { !$0.isEmpty }
    #expect(lines.count == 11, "0%, 10%, …, 100%: \(lines.count)")
    var unknown = ProgressRenderer(interactive: false, percentStep: 10, interval: 10)
    let timed = (0...300).map { second in
      unknown.render(
        .progress(FetchProgress(assetID: "a", receivedBytes: Int64(second) * mebibyte, totalBytes: nil)),
        now: Double(second))
    }.filter { !$0.isEmpty }
    #expect(timed.count == 30, "one each 10 s: \(timed.count)")
    #expect(timed.first == "a: 10.5 MB, 1.0 MB/s\n")
  }

  /// Every event is a sentence in rippled's log, never `started(asset: …, kind: Assets.InstallKind…)`.
  @Test func everyEventIsASentenceWithoutTypeNames() {
    var renderer = ProgressRenderer(interactive: false, percentStep: 10, interval: 10)
    let events: [BootstrapEvent] = [
      .started(asset: "a", kind: .placeholder, reason: "$TOKEN is not set"),
      .started(asset: "a", kind: .private, reason: nil),
      .waitingForRepository(holder: "pid 7"), .recovered(asset: "a"),
      .transforming(asset: "a", file: "x.png", done: 0, total: 2),
      .finished(AssetReport(id: "a", status: .upToDate(.private), placeholderReason: nil, keptEdited: [])),
    ]
    for event in events {
      let text = renderer.render(event, now: 0)
      #expect(text.hasPrefix("a: ") || text.hasPrefix("waiting"), "\(text)")
      #expect(!text.contains("Assets.") && !text.contains("kind:"), "\(text)")
    }
  }

  @Test func installedFilesSetApartOnlyUntrackedFilesWithTheRecordedBytes() {
    let recorded = InstalledFiles.Digest(size: 6, sha256: "aa")
    let installed = InstalledFiles(recorded: ["R/a.txt": recorded, "R/b.txt": recorded, "R/c.txt": recorded])
    let current: [String: InstalledFiles.Digest] = [
      "R/a.txt": recorded, "R/b.txt": .init(size: 6, sha256: "bb"), "R/c.txt": recorded,
    ]
    var measured: [String] = []
    let (changes, set) = installed.split(
      [
        ChangedFile(path: "R/a.txt", status: .added),  // as installed
        ChangedFile(path: "R/b.txt", status: .added),  // edited: same size, other bytes
        ChangedFile(path: "R/c.txt", status: .modified),  // tracked: never Ripple's
        ChangedFile(path: "R/d.txt", status: .added),  // no receipt names it
      ]
    ) { path in
      measured.append(path)
      return current[path]
    }
    #expect(set == ["R/a.txt"])
    #expect(changes.map(\.path) == ["R/b.txt", "R/c.txt", "R/d.txt"])
    #expect(measured == ["R/a.txt", "R/b.txt"], "only recorded, untracked files are read")
  }
}
