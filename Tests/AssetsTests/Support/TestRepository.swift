import AssetFetch
import Assets
import Crypto
import Foundation
import RippleConfig
import SystemClients
import TestSupport
import Testing

/// The shared git fixture (Tests/TestSupport) with a private asset cache beside the checkout, both removed
/// on deinit, and a `Bootstrapper` wired to them.
final class TestRepository: @unchecked Sendable {
  private let fixture: GitFixture
  /// The folder holding the checkout (`repo/`), the cache and whatever a test puts beside them.
  let base: String
  let root: String
  let cache: String

  init() throws {
    fixture = try GitFixture(folderName: "repo")
    root = fixture.root
    base = (root as NSString).deletingLastPathComponent
    cache = base + "/cache"
    try write(".gitignore", ".build/\n")
  }

  func path(_ relative: String) -> String { fixture.path(relative) }
  func write(_ relative: String, _ text: String) throws { try fixture.write(relative, text) }
  func read(_ relative: String) -> String? { fixture.read(relative) }

  /// Every file under `relative` (hidden ones too) → contents.
  func snapshot(_ relative: String) -> [String: String] {
    let directory = path(relative)
    var result: [String: String] = [:]
    guard let enumerator = FileManager.default.enumerator(atPath: directory) else { return [:] }
    while let name = enumerator.nextObject() as? String {
      var isDirectory: ObjCBool = false
      if FileManager.default.fileExists(atPath: directory + "/" + name, isDirectory: &isDirectory),
        !isDirectory.boolValue
      {
        result[name] = read(relative + "/" + name)
      }
    }
    return result
  }

  /// A command in the checkout; `git` goes through the fixture (fixed identity and config).
  @discardableResult
  func run(_ arguments: String...) throws -> String {
    if arguments.first == "git" { return try fixture.git(Array(arguments.dropFirst())) }
    return try shell(arguments, in: root)
  }

  /// Stages what git does not ignore and commits.
  func commitAll(_ message: String = "commit") throws {
    try fixture.git("add", "-A")
    try fixture.git("commit", "-q", "-m", message)
  }

  func bootstrapper(
    _ fetcher: Fetcher, mode: AccessMode = .auto, offline: Bool = false, force: Bool = false,
    environment: [String: String] = [:], hooks: BootstrapHooks = .init(),
    onEvent: @escaping @Sendable (BootstrapEvent) -> Void = { _ in }
  ) -> Bootstrapper {
    var env = ProcessInfo.processInfo.environment
    env.merge(environment) { _, new in new }
    return Bootstrapper(
      options: BootstrapOptions(
        repositoryRoot: root, mode: mode, offline: offline, force: force, jobs: 2, environment: env,
        cacheRoot: cache),
      fetcher: fetcher, process: .live, hooks: hooks, onEvent: onEvent)
  }
}

/// Runs a command (no shell; looked up on PATH) and returns stdout; a non-zero exit throws with stderr.
@discardableResult
func shell(_ arguments: [String], in directory: String? = nil, environment: [String: String] = [:]) throws -> String {
  let result = try Command.run(
    arguments, in: directory, environment: ProcessInfo.processInfo.environment.merging(environment) { $1 })
  guard result.status == 0 else {
    throw ShellFailure(message: "\(arguments.joined(separator: " ")): \(result.standardError)")
  }
  return result.standardOutput
}

struct ShellFailure: Error, CustomStringConvertible {
  var message: String
  var description: String { message }
}

func sha256Hex(_ data: Data) -> String {
  SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
}

/// Builds an archive with Python's zipfile/tarfile, which can write what no sane tool would:
/// `../` names, absolute paths, symlinks out of the tree, device files.
///
/// Each entry: `["file", name, contents]`, `["symlink", name, target]`, `["hardlink", name, target]`,
/// `["fifo", name]`, `["dir", name]`.
func makeArchive(_ format: ArchiveFormat, _ entries: [[String]], at path: String) throws -> Data {
  let json = path + ".entries.json"
  try JSONSerialization.data(withJSONObject: entries).write(to: URL(fileURLWithPath: json))
  defer { try? FileManager.default.removeItem(atPath: json) }
  let script = """
    import json, sys, io, tarfile, zipfile
    fmt, path, entries = sys.argv[1], sys.argv[2], json.load(open(sys.argv[3]))
    if fmt == "zip":
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
            for e in entries:
                if e[0] == "file":
                    info = zipfile.ZipInfo(e[1]); info.external_attr = 0o100644 << 16
                    info.compress_type = zipfile.ZIP_DEFLATED
                    z.writestr(info, e[2])
                elif e[0] == "symlink":
                    info = zipfile.ZipInfo(e[1]); info.external_attr = 0o120777 << 16
                    z.writestr(info, e[2])
                elif e[0] == "dir":
                    z.writestr(zipfile.ZipInfo(e[1].rstrip("/") + "/"), "")
    else:
        with tarfile.open(path, "w:gz" if fmt == "tar.gz" else "w") as t:
            for e in entries:
                info = tarfile.TarInfo(e[1])
                if e[0] == "file":
                    data = e[2].encode(); info.size = len(data); info.mode = 0o4755 if e[1].endswith(".sh") else 0o644
                    t.addfile(info, io.BytesIO(data))
                    continue
                info.type = {"symlink": tarfile.SYMTYPE, "hardlink": tarfile.LNKTYPE, "fifo": tarfile.FIFOTYPE,
                             "dir": tarfile.DIRTYPE, "char": tarfile.CHRTYPE}[e[0]]
                if len(e) > 2: info.linkname = e[2]
                t.addfile(info)
    """
  try shell([try python3Executable(), "-c", script, format.rawValue, path, json])
  return try Data(contentsOf: URL(fileURLWithPath: path))
}

extension AssetSpec {
  /// An asset served by the test fetcher under its id.
  static func test(
    _ id: String, data: Data, archive: ArchiveSpec? = nil, destination: String = "Sources/App/Resources",
    transform: TransformSpec? = nil, placeholders: [PlaceholderSpec] = [], fileName: String? = nil
  ) -> AssetSpec {
    AssetSpec(
      id: id, source: .https(urls: ["https://assets.test/\(fileName ?? id)"]), sha256: sha256Hex(data),
      size: Int64(data.count), archive: archive, destination: destination, transform: transform,
      placeholders: placeholders)
  }
}

/// Runs `body` expecting an `AssetsError`, and returns it.
func expectAssetsError(_ body: () async throws -> Void) async throws -> AssetsError {
  do {
    try await body()
  } catch let error as AssetsError {
    return error
  }
  Issue.record("expected an AssetsError")
  throw CancellationError()
}
