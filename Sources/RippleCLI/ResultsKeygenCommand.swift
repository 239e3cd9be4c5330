import ArgumentParser
import Crypto
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Makes an Ed25519 key pair: the private key for the trusted writers' secret store (protected-branch CI
/// jobs, rippled), the public key for `test.resultCache.publicKeys`.
struct ResultsKeygenCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "keygen",
    abstract: "Make a new signing key pair for pass records.",
    discussion: """
      The private key goes, as a secret, only to jobs of protected branches (RIPPLE_RESULT_SIGNING_KEY, or \
      the variable test.resultCache.signingKeyEnv names) and to rippled's records.signingKeyFile; the public \
      key goes into ripple.yml. With --out FILE the private key is written to FILE (mode 0600, never over an \
      existing file) in the one format both read: base64 of its 32 bytes on one line. Without --out nothing is \
      written to disk and the key is printed.
      """
  )

  @Option(help: "The name readers will see for records this key signs.")
  var name = "ci"

  @Option(help: "Write the private key to this new file (mode 0600) instead of printing it.")
  var out: String?

  func validate() throws {
    guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || "-_.".contains($0) }) else {
      throw ValidationError("--name must be letters, digits, '-', '_' or '.' (got '\(name)').")
    }
  }

  func run() throws {
    let key = Curve25519.Signing.PrivateKey()
    let secret = key.rawRepresentation.base64EncodedString()
    let publicKey = key.publicKey.rawRepresentation.base64EncodedString()
    let publicKeys = """
      test:
        resultCache:
          publicKeys:
            - name: \(name)
              key: \(publicKey)
      """
    guard let out else {
      print(
        """
        # The secret: only for jobs of protected branches (e.g. a CI secret named RIPPLE_RESULT_SIGNING_KEY).
        # To write it to a file (rippled's records.signingKeyFile), use --out FILE.
        RIPPLE_RESULT_SIGNING_KEY=\(secret)

        # For ripple.yml:
        \(publicKeys)
        """)
      return
    }
    let path = URL(fileURLWithPath: out).standardizedFileURL.path
    try KeyFileWriter.writeNew(path: path, contents: secret + "\n")
    print(
      """
      Wrote the private key to \(path) (mode 0600). Its public half: \(publicKey)

      # For ripple.yml (every branch reads it; readers see records this key signs as '\(name)'):
      \(publicKeys)

      # For rippled.yml, if rippled signs its protected branches' runs with this key:
      records:
        signingKeyFile: \(path)

      # For CI: the file's content as a secret only jobs of protected branches see, in
      # RIPPLE_RESULT_SIGNING_KEY (or the variable test.resultCache.signingKeyEnv names).
      """)
  }
}

/// Writes a secret to a new file: mode 0600 from the start, atomically (a temporary file in the same folder,
/// then a hard link, which never replaces an existing file), never over anything already at the path.
enum KeyFileWriter {
  static func writeNew(path: String, contents: String) throws {
    let manager = FileManager.default
    if manager.fileExists(atPath: path) || (try? manager.destinationOfSymbolicLink(atPath: path)) != nil {
      throw CLIError.keyFileExists(path: path)
    }
    let folder = (path as NSString).deletingLastPathComponent
    var isFolder: ObjCBool = false
    guard manager.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
      throw CLIError.keyFolderMissing(path: path, folder: folder)
    }
    let temporary = folder + "/.ripple-key-\(UUID().uuidString).tmp"
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { throw CLIError.cannotWriteKey(path: path, reason: Self.reason(errno)) }
    var failure: Int32 = 0
    let bytes = Array(contents.utf8)
    if fchmod(descriptor, 0o600) != 0 { failure = errno }
    if failure == 0 {
      let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
      if written != bytes.count { failure = written < 0 ? errno : EIO }
    }
    if failure == 0, fsync(descriptor) != 0 { failure = errno }
    close(descriptor)
    defer { unlink(temporary) }
    guard failure == 0 else { throw CLIError.cannotWriteKey(path: path, reason: Self.reason(failure)) }
    if link(temporary, path) != 0 {
      let error = errno
      if error == EEXIST { throw CLIError.keyFileExists(path: path) }
      throw CLIError.cannotWriteKey(path: path, reason: Self.reason(error))
    }
  }

  private static func reason(_ code: Int32) -> String { String(cString: strerror(code)) }
}
