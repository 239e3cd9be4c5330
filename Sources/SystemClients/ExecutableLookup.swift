import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Finds an executable given by name on PATH with `stat`/`access`, once per (name, PATH), so the child is
/// spawned by absolute path. swift-subprocess, given a name, spawns each PATH entry in turn until one runs:
/// a failed fork per entry before the right one, on every git and swift call.
public final class ExecutableLookup: @unchecked Sendable {
  /// Shared by every live process client of this process.
  public static let shared = ExecutableLookup()

  private struct Key: Hashable {
    var name: String
    var path: String
  }

  private let lock = NSLock()
  private var found: [Key: String] = [:]
  private var lookups = 0

  public init() {}

  /// The absolute path `name` runs from with this PATH value, or nil when no entry holds an executable
  /// regular file of that name. A cached answer is re-checked (one `access`), so a deleted tool is looked
  /// up again. Relative and empty PATH entries are skipped, as swift-subprocess does.
  public func resolve(_ name: String, path: String) -> String? {
    let key = Key(name: name, path: path)
    lock.lock()
    let cached = found[key]
    lock.unlock()
    if let cached, Self.isExecutableFile(cached) { return cached }
    let resolved = Self.directories(in: path).lazy.map { $0 + "/" + name }.first(where: Self.isExecutableFile)
    lock.lock()
    lookups += 1
    found[key] = resolved
    lock.unlock()
    return resolved
  }

  /// How many times PATH was searched (not answered from the cache); for tests.
  public var searchCount: Int {
    lock.lock()
    defer { lock.unlock() }
    return lookups
  }

  /// The PATH entries searched, in order: absolute ones only, trailing slashes dropped.
  static func directories(in path: String) -> [String] {
    path.split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }.map { entry in
      var entry = entry
      while entry.count > 1 && entry.hasSuffix("/") { entry.removeLast() }
      return entry == "/" ? "" : entry
    }
  }

  /// An executable regular file (or a symbolic link to one) this process may run.
  static func isExecutableFile(_ path: String) -> Bool {
    guard access(path, X_OK) == 0 else { return false }
    var status = stat()
    guard stat(path, &status) == 0 else { return false }
    return (status.st_mode & S_IFMT) == S_IFREG
  }
}

extension ProcessInfo {
  /// This process's PATH now (read with `getenv`, which sees `setenv` changes).
  static var path: String? { getenv("PATH").map { String(cString: $0) } }
}

extension ProcessClient {
  /// The same client, with every executable given by name looked up on `path` (the caller's own PATH), not
  /// on the PATH the request sets: a run's `test.runs` PATH applies to what its commands start, never to
  /// which bwrap, git or swift rippled starts as itself. A name on no entry is `ProcessError.notFound`.
  public func resolvingExecutables(path: String?, lookup: ExecutableLookup = .shared) -> ProcessClient {
    let base = self
    @Sendable func resolved(_ request: ProcessRequest) throws -> ProcessRequest {
      var request = request
      guard !request.executable.contains("/"), let path else { return request }
      guard !request.executable.isEmpty, let found = lookup.resolve(request.executable, path: path) else {
        throw ProcessError.notFound(executable: request.executable)
      }
      request.executable = found
      return request
    }
    @Sendable func restore(_ result: ProcessResult, _ request: ProcessRequest) -> ProcessResult {
      var result = result
      result.request = request
      return result
    }
    return ProcessClient(
      run: { request in restore(try await base.run(resolved(request)), request) },
      runStreaming: { request, onLine in restore(try await base.runStreaming(resolved(request), onLine), request) })
  }
}

extension ExecutableLookup {
  /// The path of the running executable (to start its own children or a sibling executable): `/proc/self/exe`
  /// on Linux, else `argv[0]` made absolute.
  public static func currentExecutable() -> String {
    #if os(Linux)
      if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return path }
    #endif
    let argument = CommandLine.arguments[0]
    if argument.hasPrefix("/") { return argument }
    return FileManager.default.currentDirectoryPath + "/" + argument
  }
}
