import Foundation
import PassRecords
import RippleCore

/// Where pass records are kept: bytes by `RecordKey`, nothing more. What the bytes mean, and whether to
/// trust them, is `PassRecords`' business (`TrustPolicy`), never the store's: a store is assumed hostile.
///
/// Interface apart from the live engines (ResultStoreLive: a local folder, rippled, S3, Bazel's HTTP
/// cache), in the manner of isowords' clients: `.failing` reports every call to the test that did not
/// expect it, `.memory()` is a working double.
public struct ResultStoreClient: Sendable {
  /// What the store is, for messages: never a credential (`https://cache.example/ripple`, `s3://bucket/prefix`).
  public var name: String
  /// The record stored at `key`; nil when there is none. Throws `ResultStoreError` when the store is down,
  /// slow, refuses, or answers with more than `ResultStoreLimits.maximumRecordBytes`.
  public var load: @Sendable (RecordKey) async throws -> Data?
  /// Stores `data` at `key`, replacing what was there (two writers racing one key: one of them wins whole,
  /// never a mix).
  public var save: @Sendable (RecordKey, Data) async throws -> Void
  /// The engine's own check-and-write (`save(_:_:unlessLowering:)`): atomic against other writers where the
  /// engine can be (the local folder under its lock, rippled in its database, S3 with a conditional PUT). Nil:
  /// the check reads the record first, then writes, and a writer racing between the two may still win.
  public var saveChecked: (@Sendable (RecordKey, Data, RecordReplacement) async throws -> RecordReplacement.Decision)?
  /// Whether only this machine's user can write it (a local folder of theirs no one else may write): only such
  /// a store's unsigned records and history are believed by default (docs/DESIGN.md, "What a store writer
  /// can make a branch skip"). Every shared store (S3, a Bazel cache, rippled) is written by others too.
  public var writtenOnlyByThisUser = false

  public init(
    name: String, load: @escaping @Sendable (RecordKey) async throws -> Data?,
    save: @escaping @Sendable (RecordKey, Data) async throws -> Void,
    saveChecked: (@Sendable (RecordKey, Data, RecordReplacement) async throws -> RecordReplacement.Decision)? = nil
  ) {
    self.name = name
    self.load = load
    self.save = save
    self.saveChecked = saveChecked
  }

  /// Stores `data` at `key` unless the record there must stay (`RecordReplacement`: no write lowers trust);
  /// says which. Every writer of records and history slots writes through this.
  public func save(_ key: RecordKey, _ data: Data, unlessLowering rule: RecordReplacement) async throws
    -> RecordReplacement.Decision
  {
    if let saveChecked { return try await saveChecked(key, data, rule) }
    let decision = rule.decide(existing: try await load(key), replacement: data)
    if decision == .replace { try await save(key, data) }
    return decision
  }
}

public enum ResultStoreLimits {
  /// A record is a few KiB (per-test timings of a large target stay well under this); anything bigger is
  /// refused while it is read, not after.
  public static let maximumRecordBytes = 4 << 20
}

/// Why a store call failed. Callers turn every case into a warning and run the tests: a store never fails
/// a run and never skips a test.
public struct ResultStoreError: Error, Sendable, Equatable, CustomStringConvertible {
  public enum Kind: Sendable, Equatable {
    case unreachable
    case timedOut
    case refused(status: Int)
    case tooLarge
    case invalidResponse
    case io
  }

  public var kind: Kind
  /// The store's `name`, never a URL with credentials.
  public var store: String
  public var detail: String

  public init(_ kind: Kind, store: String, detail: String) {
    self.kind = kind
    self.store = store
    self.detail = detail
  }

  public var description: String { "result store \(store): \(TerminalText.quoted(detail))" }
}

extension ResultStoreClient {
  /// Every call is an unexpected call: the test that reaches it fails, naming it.
  public static let failing = ResultStoreClient(
    name: "failing",
    load: { key in throw UnexpectedStoreCall(call: "load(\(key))") },
    save: { key, _ in throw UnexpectedStoreCall(call: "save(\(key))") })

  /// A working store in memory, for tests of what uses a store.
  public static func memory(name: String = "memory") -> ResultStoreClient {
    let box = MemoryRecords()
    var client = ResultStoreClient(
      name: name, load: { key in box.get(key) }, save: { key, data in box.set(key, data) },
      saveChecked: { key, data, rule in box.set(key, data, unlessLowering: rule) })
    // A test double of a store only this process writes.
    client.writtenOnlyByThisUser = true
    return client
  }
}

public struct UnexpectedStoreCall: Error, CustomStringConvertible {
  public var call: String
  public var description: String { "unexpected result store call: \(call)" }
}

private final class MemoryRecords: @unchecked Sendable {
  private let lock = NSLock()
  private var records: [RecordKey: Data] = [:]

  func get(_ key: RecordKey) -> Data? { lock.withLock { records[key] } }
  func set(_ key: RecordKey, _ data: Data) { lock.withLock { records[key] = data } }
  func set(_ key: RecordKey, _ data: Data, unlessLowering rule: RecordReplacement) -> RecordReplacement.Decision {
    lock.withLock {
      let decision = rule.decide(existing: records[key], replacement: data)
      if decision == .replace { records[key] = data }
      return decision
    }
  }
}
