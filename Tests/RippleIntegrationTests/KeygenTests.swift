import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `ripple results keygen --out FILE` (issue 52): the private key alone, mode 0600, never over a file; the
/// public half and the lines to paste on stdout. rippled reading the file is DaemonIntegrationTests'
/// `CheckConfigTests`.
@Suite(.serialized, .exclusive(.cooperativeThread)) struct KeygenTests {
  @Test func outWritesTheKeyAloneMode0600AndPrintsThePublicHalfAndTheLines() throws {
    let folder = try TemporaryDirectory.make(prefix: "ripple-keygen")
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let keygen = try RippleBinary.run(["results", "keygen", "--name", "ci-main", "--out", "signing.key"], in: folder)
    #expect(keygen.status == 0, "\(keygen.standardError)")
    let path = folder + "/signing.key"
    let text = try String(contentsOfFile: path, encoding: .utf8)
    #expect(text.hasSuffix("\n") && text.split(separator: "\n").count == 1, "\(text)")
    #expect(Data(base64Encoded: text.trimmingCharacters(in: .newlines))?.count == 32, "\(text)")
    let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
    #expect(mode == 0o600)
    let output = keygen.standardOutput
    #expect(!output.contains(text.trimmingCharacters(in: .newlines)), "the private key is never printed with --out")
    #expect(output.contains("publicKeys:\n      - name: ci-main\n        key: "), "\(output)")
    #expect(output.contains("records:\n  signingKeyFile: \(path)"), "\(output)")
    #expect(output.contains("RIPPLE_RESULT_SIGNING_KEY"), "\(output)")
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder)
    #expect(leftovers == ["signing.key"], "no temporary file is left: \(leftovers)")
  }

  @Test func anExistingOutIsNeverOverwritten() throws {
    let folder = try TemporaryDirectory.make(prefix: "ripple-keygen")
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/signing.key"
    try "the key in use\n".write(toFile: path, atomically: true, encoding: .utf8)
    try FileManager.default.createSymbolicLink(
      atPath: folder + "/dangling.key", withDestinationPath: folder + "/nowhere")
    for name in ["signing.key", "dangling.key"] {
      let again = try RippleBinary.run(["results", "keygen", "--out", folder + "/" + name], in: folder)
      #expect(again.status == 2, "\(again.standardOutput)\(again.standardError)")
      #expect(again.standardError.contains("\(folder)/\(name) already exists"), "\(again.standardError)")
      #expect(again.standardOutput.isEmpty)
    }
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "the key in use\n")
    #expect(!FileManager.default.fileExists(atPath: folder + "/nowhere"))
  }

  @Test func aMissingOrUnwritableFolderFailsNamingIt() throws {
    let folder = try TemporaryDirectory.make(prefix: "ripple-keygen")
    defer {
      chmod(folder + "/locked", 0o755)
      try? FileManager.default.removeItem(atPath: folder)
    }
    let missing = try RippleBinary.run(["results", "keygen", "--out", folder + "/no/such/signing.key"], in: folder)
    #expect(missing.status == 2, "\(missing.standardError)")
    #expect(missing.standardError.contains("the folder \(folder)/no/such does not exist"), "\(missing.standardError)")

    // Not writable: a folder without write permission (root writes anyway: then /proc, which nobody can).
    try FileManager.default.createDirectory(atPath: folder + "/locked", withIntermediateDirectories: false)
    chmod(folder + "/locked", 0o555)
    let target = geteuid() == 0 ? "/proc/ripple-signing.key" : folder + "/locked/signing.key"
    let locked = try RippleBinary.run(["results", "keygen", "--out", target], in: folder)
    #expect(locked.status == 3, "\(locked.standardError)")
    #expect(locked.standardError.contains("--out \(target): cannot write the key there ("), "\(locked.standardError)")
    #expect(!FileManager.default.fileExists(atPath: target))
  }
}
