import Foundation
import TestSupport
import Testing

/// `ripple bootstrap` with hostile configs: a destination in `.git/hooks`, a password in a source URL.
@Suite(.serialized, .exclusive(.cooperativeThread)) struct BootstrapSafetyTests {
  /// A `tar.gz` of `folder/<name>` for each file, outside the repository; returns its path and SHA-256.
  static func archive(_ files: [String: String], in directory: String) throws -> (path: String, sha: String) {
    try FileManager.default.createDirectory(atPath: directory + "/folder", withIntermediateDirectories: true)
    for (name, contents) in files {
      let path = directory + "/folder/" + name
      try Data(contents.utf8).write(to: URL(fileURLWithPath: path))
      try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
    }
    let path = directory + "/asset.tar.gz"
    try run(["/bin/tar", "-czf", path, "-C", directory, "folder"])
    return (path, String(try run(["/usr/bin/sha256sum", path]).standardOutput.prefix(64)))
  }

  static func temporaryDirectory(_ name: String) throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("ripple-\(name)-\(UUID().uuidString)")
      .resolvingSymlinksInPath().path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }

  /// Every file under `root` (skipping `.git`) → contents.
  static func files(under root: String, skipping: Set<String> = []) -> [String: String] {
    var result: [String: String] = [:]
    let enumerator = FileManager.default.enumerator(atPath: root)
    while let name = enumerator?.nextObject() as? String {
      if name == ".git" { enumerator?.skipDescendants() }
      if skipping.contains(name) { continue }
      if let data = FileManager.default.contents(atPath: root + "/" + name) {
        result[name] = String(decoding: data, as: UTF8.self)
      }
    }
    return result
  }

  @Test func aHookIsNeverInstalledIntoGitsFolder() throws {
    let repo = try TestRepository.checkout()
    let outside = try Self.temporaryDirectory("hook")
    defer { try? FileManager.default.removeItem(atPath: outside) }
    let marker = outside + "/hook-ran"
    let (path, sha) = try Self.archive(["pre-commit": "#!/bin/sh\ntouch \(marker)\n"], in: outside)
    for destination in [".git/hooks", ".GIT/hooks", "Vendor/.Git/hooks"] {
      try repo.write(
        "ripple.yml",
        """
        assets:
          - id: hooks
            source: {file: "\(path)"}
            sha256: "\(sha)"
            destination: "\(destination)"
            archive: {format: tar.gz, stripComponents: 1}

        """)
      let before = Self.files(under: repo.root)
      let result = try RippleBinary.run(["bootstrap"], in: repo.root)
      #expect(result.status == 2, "\(destination): \(result.standardError)")
      #expect(result.standardError.contains("ripple.yml:5:"), "the destination's line: \(result.standardError)")
      #expect(result.standardError.contains(".git"))
      #expect(Self.files(under: repo.root) == before, "nothing written, no lock")
      #expect(!FileManager.default.fileExists(atPath: repo.root + "/.build"))
    }
    #expect(!FileManager.default.fileExists(atPath: repo.root + "/.git/hooks/pre-commit"))
    try repo.write("README.md", "x\n")
    try repo.commitAll("a commit runs no planted hook")
    #expect(!FileManager.default.fileExists(atPath: marker))
  }

  /// A password and a presigned signature in a source URL never reach any output or written file, on every
  /// path that can print a source: offline without a cache, a broken source (here: nothing listens on
  /// port 1), auto mode falling back to placeholders without credentials, `--require-private`, `--public`,
  /// `--force`, doctor.
  /// The successful download's origin is redacted in AssetFetchTests' `SecretRedactionTests`.
  @Test func aPasswordInASourceURLIsNeverPrintedOrWritten() throws {
    let repo = try TestRepository.checkout()
    let cache = try Self.temporaryDirectory("cache")
    defer { try? FileManager.default.removeItem(atPath: cache) }
    let password = "s3cretpw-81f2"
    let signature = "sig-0a9b8c"
    let url = "https://ripple:\(password)@127.0.0.1:1/fonts.tar.gz?X-Amz-Signature=\(signature)"
    func config(credentials: String = "") -> String {
      """
      assets:
        - id: fonts
          source: {https: ["\(url)"]}
          sha256: "\(String(repeating: "a", count: 64))"\(credentials)
          archive: {format: tar.gz, stripComponents: 1}
          destination: Sources/Fonts
          placeholders: [{path: empty.otf}]

      """
    }
    try repo.write(".gitignore", ".build/\nSources/Fonts/\n")
    var outputs: [String] = []
    func ripple(_ arguments: [String], expecting status: Int32) throws {
      let result = try RippleBinary.run(arguments, in: repo.root, environment: ["RIPPLE_CACHE_DIR": cache])
      outputs += [result.standardOutput, result.standardError]
      #expect(result.status == status, "\(arguments): \(result.standardError)")
    }

    try repo.write("ripple.yml", config())
    try ripple(["bootstrap", "--offline"], expecting: 3)
    try ripple(["bootstrap"], expecting: 3)  // auto: the connection is refused, a broken source, no placeholders
    try ripple(["bootstrap", "--require-private"], expecting: 3)
    try ripple(["bootstrap", "--force"], expecting: 3)
    try repo.write("ripple.yml", config(credentials: "\n    credentials: {bearerTokenEnv: RIPPLE_NO_SUCH_TOKEN}"))
    try ripple(["bootstrap"], expecting: 0)  // no access: placeholders, with the reason
    #expect(FileManager.default.fileExists(atPath: repo.root + "/Sources/Fonts/empty.otf"))
    try ripple(["bootstrap", "--require-private"], expecting: 3)
    try ripple(["bootstrap", "--public"], expecting: 0)
    try ripple(["doctor"], expecting: 0)

    #expect(outputs.joined().contains("127.0.0.1"), "the runs named the source")
    for (index, text) in outputs.enumerated() {
      #expect(!text.contains(password) && !text.contains(signature), "output \(index): \(text)")
    }
    let written = Self.files(under: repo.root, skipping: ["ripple.yml"]).merging(
      Self.files(under: cache).map { ("cache/" + $0.key, $0.value) }, uniquingKeysWith: { a, _ in a })
    #expect(written.keys.contains { $0.hasPrefix(".build/ripple/") }, "\(written.keys.sorted())")
    for (path, text) in written {
      #expect(!path.contains(password) && !text.contains(password) && !text.contains(signature), "\(path)")
    }
  }
}
