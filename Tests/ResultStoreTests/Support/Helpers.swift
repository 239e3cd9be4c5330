import Foundation
import PassRecords
import RippleConfig
import TestSupport

/// The folder of the helper scripts next to this test target's sources.
let helpersDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .appendingPathComponent("Helpers").path

/// A fresh temporary directory for `body`, removed afterwards.
func withTemporaryDirectory<T>(_ body: (String) async throws -> T) async throws -> T {
  let path = FileManager.default.temporaryDirectory.appendingPathComponent("resultstore-\(UUID().uuidString)").path
  try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(atPath: path) }
  return try await body(path)
}

/// A key no other test uses.
func freshKey() -> RecordKey {
  let hex = (UUID().uuidString + UUID().uuidString).replacingOccurrences(of: "-", with: "").lowercased()
  return RecordKey(hex: hex)!
}

/// A record's bytes, `size` of them: `label`, then `fill` (so a mix of two records would show).
func recordBytes(_ label: String, fill: Character = "x", size: Int = 2000) -> Data {
  var data = Data("{\"record\":\"\(label)\"}".utf8)
  data.append(Data(repeating: fill.asciiValue ?? 0x78, count: max(0, size - data.count)))
  return data
}

/// A config whose per-call timeout is generous: a loaded 2-core machine once kept moto and nginx from answering
/// within 5 s (tests of the timeout itself pass their own).
func config(timeout: Double = 60, maxSize: Int64 = ResultCacheConfig.defaultMaxSize) -> ResultCacheConfig {
  ResultCacheConfig(maxSize: maxSize, timeout: timeout)
}

/// A loopback port nothing listens on right now: bound to port 0, read, closed. (nginx cannot be told to
/// pick one, so its fixture retries when another process took the port meanwhile.)
func freeLoopbackPort() throws -> Int {
  let descriptor = socket(AF_INET, streamSocket, 0)
  guard descriptor >= 0 else { throw TestSetupError(description: "socket() failed: \(errno)") }
  defer { close(descriptor) }
  var address = loopback(port: 0)
  let bound = withUnsafePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
      bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
    }
  }
  guard bound == 0 else { throw TestSetupError(description: "bind() failed: \(errno)") }
  var length = socklen_t(MemoryLayout<sockaddr_in>.size)
  let named = withUnsafeMutablePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
  }
  guard named == 0 else { throw TestSetupError(description: "getsockname() failed: \(errno)") }
  return Int(UInt16(bigEndian: address.sin_port))
}

/// Whether something accepts connections on 127.0.0.1:`port`.
func acceptsConnections(port: Int) -> Bool {
  let descriptor = socket(AF_INET, streamSocket, 0)
  guard descriptor >= 0 else { return false }
  defer { close(descriptor) }
  var address = loopback(port: port)
  return withUnsafePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
      connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
    }
  } == 0
}

#if os(Linux)
  private let streamSocket = Int32(SOCK_STREAM.rawValue)
#else
  private let streamSocket = SOCK_STREAM
#endif

private func loopback(port: Int) -> sockaddr_in {
  var address = sockaddr_in()
  address.sin_family = sa_family_t(AF_INET)
  address.sin_port = UInt16(port).bigEndian
  address.sin_addr.s_addr = inet_addr("127.0.0.1")
  return address
}

/// A key no other test uses whose shard is not `prefix` (a test that plants `prefix` keeps its records apart).
func freshKey(avoiding prefix: String) -> RecordKey {
  while true {
    let key = freshKey()
    if !key.hex.hasPrefix(prefix) { return key }
  }
}

/// A fixed signing key for the trust tests (any 32 bytes are an Ed25519 private key).
let testSigningKey = SigningKeys.privateKey(base64: Data(repeating: 7, count: 32).base64EncodedString())!

/// A sealed pass record at `key`: signed with `testSigningKey`, or unsigned.
func sealedRecord(_ key: RecordKey, branch: String, signed: Bool, run: String = "run") throws -> Data {
  let record = PassRecord(
    key: key, package: ".", target: "CoreTests", commit: "1a2b3c", branch: branch, run: run, writer: "test",
    time: Date(), duration: 1, tests: [:])
  return try RecordEnvelope.seal(record, signingKey: signed ? testSigningKey : nil)
}

/// Whether `data` is an envelope carrying a signature.
func isSigned(_ data: Data) -> Bool {
  (try? JSONDecoder().decode(RecordEnvelope.self, from: data))?.signature != nil
}

/// The rule every writer applies: a signed record stays, whatever key signed it.
let lowerNoTrust = RecordReplacement(trustedKeys: nil, protectedBranches: nil)
