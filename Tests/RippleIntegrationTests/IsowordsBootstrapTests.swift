import Foundation
import TestSupport
import Testing

/// examples/isowords/ripple.yml, the file itself, run by the real `ripple bootstrap` on a generated repository of
/// isowords' shape, and the Makefile's own steps (examples/isowords/makefile-steps.sh) run on a second clone of it
/// with the same inputs; the two work trees are then compared file by file. Real peers throughout: git-lfs with a
/// bare repository as the LFS remote, the loopback HTTPS server of the asset tests (Tests/AssetFetchTests/Helpers)
/// serving the private archives, ffmpeg, sqlite3, curl. `heroku` is a loopback stand-in: a script printing the
/// config values the test set.
@Suite(.serialized) struct IsowordsBootstrapTests {
  /// Ripple's LFS install: the public audio, flattened into a folder of its own (the Makefile pulls in place).
  static let publicAudio = ["Sources/AppAudioLibrary/Public/click.wav", "Sources/AppAudioLibrary/Public/intro.wav"]
  static let emptyMP3s = [
    "Sources/AppAudioLibrary/Resources/empty.mp3", "Sources/AppClipAudioLibrary/Resources/empty.mp3",
  ]
  static let convertedMP3s = [
    "Sources/AppAudioLibrary/Resources/tap.mp3", "Sources/AppAudioLibrary/Resources/theme.mp3",
    "Sources/AppClipAudioLibrary/Resources/clip.mp3", "Sources/AppClipAudioLibrary/Resources/cube.mp3",
  ]
  static let lfsPointers = ["Assets/Public/Music/intro.wav", "Assets/Public/Sounds/click.wav"]

  @Test func withAccessTheInstalledTreeIsTheMakefilesLessItsLeftovers() async throws {
    try await IsowordsWorld.with { world in
      let ripple = try world.runRipple(access: true)
      #expect(ripple.status == 0, "\(ripple.standardOutput)\n\(ripple.standardError)")
      // The pre-signed link is a secret: not in ripple's output, nor anywhere in the checkout (receipts included).
      #expect(!(ripple.standardOutput + ripple.standardError).contains(IsowordsWorld.signature))
      #expect(try world.files(containing: IsowordsWorld.signature, under: world.rippleClone).isEmpty)
      // app-audio and clip-audio share one download (one sha256, one cached object); each checks access first
      // with a one-byte range request.
      let requests = try world.requests()
      #expect(requests.filter { $0 == "/files/Audio.zip" }.count == 1, "\(requests)")
      #expect(requests.filter { $0 == "/files/Audio.zip bytes=0-0" }.count == 2, "\(requests)")

      let make = try world.runMakefileSteps(access: true)
      #expect(make.status == 0, "\(make.standardOutput)\n\(make.standardError)")

      let diff = TreeDiff(ripple: snapshot(world.rippleClone), make: snapshot(world.makeClone))
      // The Makefile also touches empty.mp3 with access, leaves the unpacked archive in Assets/Audio (git-ignored)
      // and needs its `.private` marker; Ripple installs the public LFS audio in every mode.
      #expect(diff.onlyInMake == [".private"] + IsowordsWorld.archiveWAVs.map { "Assets/Audio/" + $0 } + Self.emptyMP3s)
      #expect(diff.onlyInRipple == Self.publicAudio)
      #expect(diff.differing == [])
      let installed =
        Self.convertedMP3s + [
          "Sources/ApiClientLive/Secrets.swift", "Sources/DictionaryFileClient/Dictionaries/Words.en.txt.gz",
          "Sources/DictionarySqliteClient/Dictionaries/Words.en.db", "Sources/Styleguide/Fonts/Matter-Medium.otf",
          "Sources/Styleguide/Fonts/Matter-Regular.otf",
        ]
      #expect(Set(installed).isSubset(of: diff.same), "every installed file is byte for byte the Makefile's")
      #expect(Set(Self.lfsPointers).isSubset(of: diff.same), "with access neither side pulls LFS in place")
      for mp3 in Self.convertedMP3s {
        #expect(
          try probe(world.rippleClone + "/" + mp3) == "mp3 44100 2 64000", "\(mp3): the Makefile's ffmpeg arguments")
      }
      #expect(try wordCount(world.rippleClone) == 5)
      let secrets = world.rippleClone + "/Sources/ApiClientLive/Secrets.swift"
      #expect(try String(contentsOfFile: secrets, encoding: .utf8).contains(IsowordsWorld.secret))
      #expect(try FileManager.default.attributesOfItem(atPath: secrets)[.posixPermissions] as? Int == 0o600)
    }
  }

  @Test func withoutAccessPlaceholdersAndTheLFSAudioMatchTheMakefile() async throws {
    try await IsowordsWorld.with { world in
      let ripple = try world.runRipple(access: false)
      #expect(ripple.status == 0, "\(ripple.standardOutput)\n\(ripple.standardError)")
      let make = try world.runMakefileSteps(access: false)
      #expect(make.status == 0, "\(make.standardOutput)\n\(make.standardError)")
      #expect(try world.requests().isEmpty, "no access: nothing is downloaded")

      let rippleTree = snapshot(world.rippleClone)
      let makeTree = snapshot(world.makeClone)
      let diff = TreeDiff(ripple: rippleTree, make: makeTree)
      #expect(diff.onlyInMake == [])
      #expect(diff.onlyInRipple == Self.publicAudio)
      // `git lfs pull` replaces the pointers in place; Ripple leaves them and installs verified copies instead.
      #expect(diff.differing == Self.lfsPointers)
      #expect(rippleTree["Sources/AppAudioLibrary/Public/click.wav"] == makeTree["Assets/Public/Sounds/click.wav"])
      #expect(rippleTree["Sources/AppAudioLibrary/Public/intro.wav"] == makeTree["Assets/Public/Music/intro.wav"])
      #expect(rippleTree["Sources/AppAudioLibrary/Public/click.wav"] == Data(IsowordsWorld.publicFiles[0].1.utf8))
      for pointer in Self.lfsPointers {
        #expect(
          rippleTree[pointer].map { String(decoding: $0, as: UTF8.self) }?.hasPrefix("version https://git-lfs") == true)
      }
      let placeholders =
        Self.emptyMP3s + [
          "Sources/Styleguide/Fonts/empty.otf", "Sources/ApiClientLive/Secrets.swift",
          "Sources/DictionaryFileClient/Dictionaries/Words.en.txt.gz",
          "Sources/DictionarySqliteClient/Dictionaries/Words.en.db",
        ]
      #expect(Set(placeholders).isSubset(of: diff.same), "placeholders, the public dictionary and the example secrets")
      // The public dictionary is /usr/share/dict/words, not an empty pipeline's output.
      #expect(try wordCount(world.rippleClone) > 1000)
    }
  }
}

/// Two work trees, file by file (paths relative to the root; `.git` and `.build` left out).
struct TreeDiff {
  var same: Set<String> = []
  var differing: [String] = []
  var onlyInRipple: [String] = []
  var onlyInMake: [String] = []

  init(ripple: [String: Data], make: [String: Data]) {
    for (path, bytes) in ripple {
      guard let other = make[path] else {
        onlyInRipple.append(path)
        continue
      }
      if bytes == other { same.insert(path) } else { differing.append(path) }
    }
    onlyInMake = make.keys.filter { ripple[$0] == nil }.sorted()
    onlyInRipple.sort()
    differing.sort()
  }
}

/// Every regular file under `root` → its bytes, but for `.git` and Ripple's state in `.build`.
func snapshot(_ root: String) -> [String: Data] {
  var files: [String: Data] = [:]
  guard let enumerator = FileManager.default.enumerator(atPath: root) else { return [:] }
  while let path = enumerator.nextObject() as? String {
    if path == ".git" || path == ".build" {
      enumerator.skipDescendants()
      continue
    }
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: root + "/" + path, isDirectory: &isDirectory), !isDirectory.boolValue {
      files[path] = FileManager.default.contents(atPath: root + "/" + path)
    }
  }
  return files
}

/// "codec sample_rate channels bit_rate" of an audio file, by ffprobe.
func probe(_ path: String) throws -> String {
  let result = try run([
    "ffprobe", "-v", "error", "-select_streams", "a:0", "-show_entries",
    "stream=codec_name,sample_rate,channels,bit_rate",
    "-of", "default=noprint_wrappers=1:nokey=1", path,
  ])
  return result.standardOutput.split(separator: "\n").joined(separator: " ")
}

/// The rows of the installed SQLite dictionary.
func wordCount(_ root: String) throws -> Int {
  let result = try run([
    "sqlite3", root + "/Sources/DictionarySqliteClient/Dictionaries/Words.en.db", "select count(*) from words",
  ])
  return Int(result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
}

/// The generated isowords: a bare remote with LFS objects, two clones of it (one for ripple, one for the Makefile's
/// steps), the private archives served over loopback HTTPS, and a `heroku` stand-in.
struct IsowordsWorld {
  static let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../../examples/isowords").standardized.path
  static let server = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../AssetFetchTests/Helpers/https_server.py").standardized.path
  static let signature = "X-Amz-Signature=5ec7e7a11d0"
  static let secret = "deadbeef-isowords-secret"
  static let archiveWAVs = ["Music/App/theme.wav", "Music/Core/clip.wav", "Sounds/App/tap.wav", "Sounds/Core/cube.wav"]
  static let publicFiles = [
    ("Assets/Public/Sounds/click.wav", "public click"), ("Assets/Public/Music/intro.wav", "intro"),
  ]

  var base: String
  var certificates: TestCertificates
  var port: Int
  var rippleClone: String { base + "/ripple" }
  var makeClone: String { base + "/make" }

  private struct Ports: Decodable { var https: Int }

  static func with(_ body: (IsowordsWorld) async throws -> Void) async throws {
    _ = try requireTool("git-lfs", install: "apt-get install git-lfs (scripts/install-deps.sh --test)")
    _ = try requireTool("ffmpeg", install: "apt-get install ffmpeg (scripts/install-deps.sh --test)")
    let directory = try TemporaryDirectory(prefix: "ripple-isowords")
    defer { withExtendedLifetime(directory) {} }
    let base = directory.path
    let served = base + "/served"
    try FileManager.default.createDirectory(atPath: served, withIntermediateDirectories: true)
    try generateArchives(into: served)
    let certificates = try TestCertificates.make(in: base)
    let (server, ready) = try await HelperProcess.start(
      script: Self.server, arguments: [certificates.certificatePath, certificates.keyPath, "unused-token", served],
      directory: base)
    defer { server.stop() }
    let world = IsowordsWorld(
      base: base, certificates: certificates, port: try JSONDecoder().decode(Ports.self, from: ready).https)
    try world.makeRepository()
    try world.writeHeroku()
    try await body(world)
  }

  var audioURL: String { "https://127.0.0.1:\(port)/files/Audio.zip?X-Amz-Expires=600&\(Self.signature)" }

  /// `ripple bootstrap --config examples/isowords/ripple.yml`: with access, AUDIO_URL and SECRETS set and `heroku`
  /// on PATH; without, neither (an empty variable is no access) and no `heroku` anywhere on PATH.
  func runRipple(access: Bool) throws -> CommandResult {
    var environment = [
      "RIPPLE_CACHE_DIR": base + "/cache", "AUDIO_URL": access ? audioURL : "", "SECRETS": access ? Self.secret : "",
      "PATH": access ? base + "/bin:" + Self.pathWithoutHeroku : Self.pathWithoutHeroku,
    ]
    environment["LC_ALL"] = "C"
    return try RippleBinary.run(
      ["bootstrap", "--config", Self.example + "/ripple.yml", "--ca-bundle", certificates.caPath], in: rippleClone,
      environment: environment)
  }

  /// examples/isowords/makefile-steps.sh: with access, `.private` and `heroku` on PATH, as isowords' maintainers have.
  func runMakefileSteps(access: Bool) throws -> CommandResult {
    if access { _ = FileManager.default.createFile(atPath: makeClone + "/.private", contents: Data()) }
    return try run(
      ["/bin/sh", Self.example + "/makefile-steps.sh"], in: makeClone,
      environment: [
        "CURL_CA_BUNDLE": certificates.caPath, "LC_ALL": "C",
        "PATH": access ? base + "/bin:" + Self.pathWithoutHeroku : Self.pathWithoutHeroku,
      ], check: false)
  }

  /// The paths the HTTPS server has answered so far, each followed by its Range header if it had one.
  func requests() throws -> [String] {
    let log = try run(["curl", "-sS", "--cacert", certificates.caPath, "https://127.0.0.1:\(port)/_log"])
    let entries = try JSONSerialization.jsonObject(with: Data(log.standardOutput.utf8)) as? [[String: Any]] ?? []
    return entries.compactMap { entry in
      guard let path = entry["path"] as? String, path != "/_log" else { return nil }
      return (entry["range"] as? String).map { "\(path) \($0)" } ?? path
    }
  }

  func files(containing text: String, under folder: String) throws -> [String] {
    try run(["grep", "-rl", "--", text, folder], check: false).standardOutput.split(separator: "\n").map(String.init)
  }

  static let pathWithoutHeroku: String = {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    return path.split(separator: ":").filter { !FileManager.default.fileExists(atPath: "\($0)/heroku") }
      .joined(separator: ":")
  }()

  /// isowords' shape: its .gitignore lines, the Bootstrap files, the folders the Makefile writes into, and public
  /// `*.wav` files through Git LFS, pushed to a bare remote; then two clones without their LFS objects.
  private func makeRepository() throws {
    let seed = try GitFixture(folderName: "seed")
    try seed.write(
      ".gitignore",
      """
      /.build
      .private
      Assets/Audio/*
      Audio.zip
      Sources/ApiClientLive/Secrets.swift
      Sources/AppAudioLibrary/Resources/**/*.mp3
      Sources/AppClipAudioLibrary/Resources/**/*.mp3
      Sources/DictionaryFileClient/Dictionaries/*.gz
      Sources/DictionarySqliteClient/Dictionaries/*.db
      Sources/Styleguide/Fonts/*.otf

      """)
    try seed.write(
      "Bootstrap/sqlite-words-import.sql",
      "CREATE TABLE words (word varchar(256) NOT NULL UNIQUE);\n.separator ,\n.import /dev/stdin words\n")
    // isowords has no template: Ripple's secrets need one (the Makefile builds the file with echo).
    try seed.write(
      "Bootstrap/Secrets.swift.template",
      "// This is generated by `make secrets`. Don't edit.\nlet secrets = \"{{SECRETS}}\"\n")
    try seed.write("Sources/ApiClientLive/Secrets.swift.example", "let secrets = \"example\"\n")
    for folder in ["Styleguide/Fonts", "DictionaryFileClient/Dictionaries", "DictionarySqliteClient/Dictionaries"] {
      try seed.write("Sources/\(folder)/.gitkeep", "")
    }
    try seed.git("lfs", "install", "--local")
    try seed.git("lfs", "track", "*.wav")
    for (path, text) in Self.publicFiles { try seed.write(path, text) }
    try seed.git("add", "-A")
    try seed.git("commit", "-q", "-m", "isowords")
    try GitFixture.git(["init", "-q", "--bare", base + "/remote.git"], in: base)
    try seed.git("remote", "add", "origin", base + "/remote.git")  // git-lfs pushes to a named remote only
    try seed.git("push", "-q", "origin", "HEAD:main")
    var environment = ProcessInfo.processInfo.environment.merging(GitFixture.environmentOverrides) { $1 }
    environment["GIT_LFS_SKIP_SMUDGE"] = "1"  // a fresh clone before `git lfs pull`: pointers only
    for clone in [rippleClone, makeClone] {
      let result = try Command.run(
        ["/usr/bin/git", "clone", "-q", base + "/remote.git", clone], in: base, environment: environment)
      guard result.status == 0 else { throw CommandFailure(argv: ["git", "clone"], result: result) }
      try GitFixture.git(["lfs", "install", "--local"], in: clone)
    }
  }

  /// `heroku config:get NAME -a isowords-staging`: prints the value the test set, as the real CLI would.
  private func writeHeroku() throws {
    let config = base + "/heroku"
    try FileManager.default.createDirectory(atPath: config, withIntermediateDirectories: true)
    try FileManager.default.createDirectory(atPath: base + "/bin", withIntermediateDirectories: true)
    let values = [
      "AUDIO_URL": audioURL, "FONTS_URL": "https://127.0.0.1:\(port)/files/fonts.zip",
      "DICTIONARY_URL": "https://127.0.0.1:\(port)/files/Words.en.txt.gz", "SECRETS": Self.secret,
    ]
    for (name, value) in values { try Data((value + "\n").utf8).write(to: URL(fileURLWithPath: config + "/" + name)) }
    let script = """
      #!/bin/sh
      [ "$1" = config:get ] && [ "$3" = -a ] && [ "$4" = isowords-staging ] || { echo "heroku: unexpected $*" >&2; exit 2; }
      cat "\(config)/$2"

      """
    try Data(script.utf8).write(to: URL(fileURLWithPath: base + "/bin/heroku"))
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: base + "/bin/heroku")
  }

  /// Audio.zip, fonts.zip and Words.en.txt.gz, byte for byte the same everywhere (stored zip entries with a fixed
  /// date, integer samples, a stored gzip block), so examples/isowords/ripple.yml can pin their sha256.
  private static func generateArchives(into directory: String) throws {
    let script = """
      import io, struct, sys, wave, zipfile, zlib
      out = sys.argv[1]

      def wav(period):
          frames = b"".join(struct.pack("<h", 8000 if i % period < period // 2 else -8000) for i in range(4410))
          buffer = io.BytesIO()
          with wave.open(buffer, "wb") as w:
              w.setnchannels(1); w.setsampwidth(2); w.setframerate(22050); w.writeframes(frames)
          return buffer.getvalue()

      def stored_zip(path, entries):
          with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as z:
              for name, data in entries:
                  info = zipfile.ZipInfo(name, date_time=(2021, 4, 1, 0, 0, 0))
                  info.external_attr = 0o100644 << 16
                  info.create_system = 3
                  z.writestr(info, data)

      def stored_gzip(path, data):
          block = b"\\x01" + struct.pack("<HH", len(data), len(data) ^ 0xFFFF) + data
          trailer = struct.pack("<II", zlib.crc32(data), len(data))
          open(path, "wb").write(b"\\x1f\\x8b\\x08\\x00\\x00\\x00\\x00\\x00\\x00\\x03" + block + trailer)

      stored_zip(out + "/Audio.zip", [
          ("Audio/Sounds/App/tap.wav", wav(50)), ("Audio/Sounds/Core/cube.wav", wav(40)),
          ("Audio/Music/App/theme.wav", wav(60)), ("Audio/Music/Core/clip.wav", wav(70)),
      ])
      stored_zip(out + "/fonts.zip", [
          ("Matter-Regular.otf", b"OTTO Matter Regular"), ("Matter-Medium.otf", b"OTTO Matter Medium"),
      ])
      stored_gzip(out + "/Words.en.txt.gz", b"APPLE\\nBANANA\\nCUBE\\nISOWORDS\\nPUZZLE\\n")
      """
    try run([try python3Executable(), "-c", script, directory])
    // The example pins these digests; a change here must change them there.
    let example = try String(contentsOfFile: example + "/ripple.yml", encoding: .utf8)
    for name in ["Audio.zip", "fonts.zip", "Words.en.txt.gz"] {
      let digest = String(try run(["sha256sum", directory + "/" + name]).standardOutput.prefix(64))
      #expect(example.contains("sha256: \"\(digest)\""), "examples/isowords/ripple.yml must pin \(name): \(digest)")
    }
  }
}
