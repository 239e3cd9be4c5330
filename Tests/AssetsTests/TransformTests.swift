import AssetFetch
import Assets
import ConfigLoading
import Foundation
import RippleConfig
import RippleCore
import Testing

@Suite("bootstrap: transforms")
struct TransformTests {
  /// A 16-bit mono PCM WAV with a 440 Hz sine.
  static func wav(seconds: Double = 0.5, rate: Int = 22_050) -> Data {
    let count = Int(Double(rate) * seconds)
    var samples = Data()
    for i in 0..<count {
      let value = Int16(sin(2 * Double.pi * 440 * Double(i) / Double(rate)) * 12_000)
      withUnsafeBytes(of: value.littleEndian) { samples.append(contentsOf: $0) }
    }
    var data = Data("RIFF".utf8)
    func append<T: FixedWidthInteger>(_ value: T) {
      withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
    }
    append(UInt32(36 + samples.count))
    data.append(contentsOf: Data("WAVEfmt ".utf8))
    append(UInt32(16))
    append(UInt16(1))
    append(UInt16(1))
    append(UInt32(rate))
    append(UInt32(rate * 2))
    append(UInt16(2))
    append(UInt16(16))
    data.append(contentsOf: Data("data".utf8))
    append(UInt32(samples.count))
    return data + samples
  }

  @Test func isowordsAudioWithRealFFmpegAtTwoBitrates() async throws {
    guard ToolCheck.onPath("ffmpeg") else {
      Issue.record("ffmpeg is not installed: `apt-get install ffmpeg` (make test installs it)")
      return
    }
    let repo = try TestRepository()
    let tone = Self.wav()
    let zip = repo.base + "/audio.zip"
    try FileManager.default.createDirectory(atPath: repo.base + "/src/audio", withIntermediateDirectories: true)
    try tone.write(to: URL(fileURLWithPath: repo.base + "/src/audio/Tap.wav"))
    try tone.write(to: URL(fileURLWithPath: repo.base + "/src/audio/Win.wav"))
    try Data("notes".utf8).write(to: URL(fileURLWithPath: repo.base + "/src/audio/LICENSE.txt"))
    try shell(["zip", "-q", "-r", zip, "audio"], in: repo.base + "/src")
    let data = try Data(contentsOf: URL(fileURLWithPath: zip))
    let yaml = """
      assets:
        - id: audio
          source: {https: ["https://assets.test/audio.zip"]}
          sha256: "\(sha256Hex(data))"
          archive: {format: zip, stripComponents: 1}
          transform:
            command: [ffmpeg, -nostdin, -loglevel, error, -y, -i, "{input}", -b:a, "{bitrate}", "{output}"]
            files: ["**/*.wav"]
            output: "{stem}.mp3"
            requireVersion: {command: [ffmpeg, -version], contains: "ffmpeg version"}
            variants:
              - {name: full, variables: {bitrate: 64k}, destination: Sources/AppAudioLibrary/Resources}
              - {name: clip, variables: {bitrate: 32k}, destination: Sources/AppClipAudioLibrary/Resources}
          placeholders: [{path: empty.mp3}]
      """
    let config = try ConfigLoader.parse(yaml, path: "ripple.yml")
    let report = try await repo.bootstrapper(testFetcher(["audio": data], log: FetchLog())).run(config.assets)
    try report.check()
    for folder in ["Sources/AppAudioLibrary/Resources", "Sources/AppClipAudioLibrary/Resources"] {
      #expect(Set(repo.snapshot(folder).keys) == ["Tap.mp3", "Win.mp3", "LICENSE.txt"])
    }
    let full = try Data(contentsOf: URL(fileURLWithPath: repo.path("Sources/AppAudioLibrary/Resources/Tap.mp3")))
    let clip = try Data(contentsOf: URL(fileURLWithPath: repo.path("Sources/AppClipAudioLibrary/Resources/Tap.mp3")))
    #expect(full.starts(with: Data("ID3".utf8)) || full.first == 0xFF)
    #expect(clip.count < full.count)  // 32k is smaller than 64k
    let probe = try shell([
      "ffprobe", "-v", "error", "-show_entries", "stream=codec_name", "-of", "csv=p=0",
      repo.path("Sources/AppClipAudioLibrary/Resources/Win.mp3"),
    ])
    #expect(probe.trimmingCharacters(in: .whitespacesAndNewlines) == "mp3")
  }

  @Test func versionRequirementIsCheckedBeforeDownloading() async throws {
    let repo = try TestRepository()
    let data = Data("x".utf8)
    let transform = TransformSpec(
      command: ["sh", "-c", "cp $0 $1", "{input}", "{output}"], outputName: "{name}.out",
      requireVersion: (command: ["sh", "-c", "echo version 1.0"], contains: "version 2"))
    let log = FetchLog()
    let error = try await expectAssetsError {
      _ = try await repo.bootstrapper(testFetcher(["a": data], log: log)).run(
        AssetsConfig(assets: [.test("a", data: data, transform: transform)]))
    }
    #expect(error == .toolVersionMismatch(asset: "a", command: "sh -c 'echo version 1.0'", expected: "version 2"))
    #expect(log.requests.isEmpty)
  }

  /// A version check that cannot run, or fails, says so with its reason instead of blaming the version.
  @Test(arguments: [
    (["/nonexistent/ffmpeg", "-version"], "/nonexistent/ffmpeg"),
    (["sh", "-c", "echo broken >&2; exit 3"], "it exited with status 3:\n    broken"),
  ])
  func aVersionCheckThatFailsNamesWhy(command: [String], says: String) async throws {
    let repo = try TestRepository()
    let data = Data("x".utf8)
    let transform = TransformSpec(
      command: ["sh", "-c", "cp $0 $1", "{input}", "{output}"], outputName: "{name}.out",
      requireVersion: (command: command, contains: "version 2"))
    let log = FetchLog()
    let error = try await expectAssetsError {
      _ = try await repo.bootstrapper(testFetcher(["a": data], log: log)).run(
        AssetsConfig(assets: [.test("a", data: data, transform: transform)]))
    }
    guard case .toolVersionCheckFailed("a", _, let reason) = error else {
      Issue.record("expected a failed version check, got \(error)")
      return
    }
    #expect(reason.contains(says), "\(reason)")
    #expect(error.description.contains("checking the transform tool's version with `"), "\(error)")
    #expect(error.category.exitCode == 3)
    #expect(log.requests.isEmpty, "nothing was downloaded")
  }

  @Test func argumentsAreSubstitutedWithoutAShell() async throws {
    let repo = try TestRepository()
    let data = Data("$(touch /tmp/pwned) ; rm -rf /".utf8)
    let transform = TransformSpec(
      command: ["cp", "{input}", "{output}"], outputName: "{stem} copy; $(x).txt")
    try await repo.bootstrapper(testFetcher(["a": data], log: FetchLog())).run(
      AssetsConfig(assets: [.test("a", data: data, transform: transform, fileName: "in put.bin")])
    ).check()
    #expect(repo.snapshot("Sources/App/Resources") == ["in put copy; $(x).txt": "$(touch /tmp/pwned) ; rm -rf /"])
  }
}

enum ToolCheck {
  static func onPath(_ tool: String) -> Bool {
    (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").contains {
      FileManager.default.isExecutableFile(atPath: "\($0)/\(tool)")
    }
  }
}
