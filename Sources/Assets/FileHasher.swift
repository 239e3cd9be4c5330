import Crypto
import Foundation

/// Streaming SHA-256 of a file (1 MiB at a time: assets can be larger than memory should hold).
enum FileHasher {
  static func sha256(of path: String) throws -> (hex: String, size: Int64) {
    guard let handle = FileHandle(forReadingAtPath: path) else { throw FileIO.failure("read", path) }
    defer { try? handle.close() }
    var hasher = SHA256()
    var size: Int64 = 0
    while true {
      let chunk: Data
      do {
        chunk = try handle.read(upToCount: 1 << 20) ?? Data()
      } catch {
        throw AssetsError.fileSystem(operation: "read", path: path, reason: error.localizedDescription)
      }
      if chunk.isEmpty { break }
      hasher.update(data: chunk)
      size += Int64(chunk.count)
    }
    return (hex(hasher.finalize()), size)
  }

  static func sha256(of data: Data) -> String {
    hex(SHA256.hash(data: data))
  }

  private static func hex(_ digest: SHA256.Digest) -> String {
    digest.map { String(format: "%02x", $0) }.joined()
  }
}
