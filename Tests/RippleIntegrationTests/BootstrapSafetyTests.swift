import Foundation
import Testing

/// `ripple bootstrap` with a hostile config: a destination in `.git/hooks`.
@Suite(.serialized) struct BootstrapSafetyTests {
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
    let repo = try TestRepository()
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
}
