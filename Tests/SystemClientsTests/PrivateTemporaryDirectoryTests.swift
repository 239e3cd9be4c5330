import Foundation
import SystemClients
import Testing

@Suite struct PrivateTemporaryDirectoryTests {
  struct Planted: Error {}

  /// The folder exists, empty, while the body runs, and is gone with what was left in it afterwards, also
  /// when the body throws.
  @Test func theFolderIsNewThenRemovedWithItsContentEvenAfterAThrow() async throws {
    let seen = try await PrivateTemporaryDirectory.with { folder in
      #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == [])
      try FileManager.default.createDirectory(
        atPath: folder + "/TemporaryDirectory.abc", withIntermediateDirectories: true)
      return folder
    }
    #expect(!FileManager.default.fileExists(atPath: seen))

    var thrownIn: String?
    await #expect(throws: Planted.self) {
      try await PrivateTemporaryDirectory.with { folder in
        thrownIn = folder
        throw Planted()
      }
    }
    #expect(thrownIn.map { !FileManager.default.fileExists(atPath: $0) } == true)
    #expect(thrownIn != seen, "each call has a folder of its own")
  }
}
