import Foundation
import TestSupport
import Testing

@testable import AssetFetch

@Suite("file sources")
struct FileFetchTests {
  @Test func copiesRelativeToTheRepositoryWithProgress() async throws {
    try await withTemporaryDirectory { root in
      try FileManager.default.createDirectory(atPath: root + "/share", withIntermediateDirectories: true)
      let data = serverBody(3 << 20)
      try data.write(to: URL(fileURLWithPath: root + "/share/audio.zip"))
      let progress = ProgressRecorder()
      let request = FetchRequest(assetID: "audio", source: .file(path: "share/audio.zip"), destination: root + "/out")
      let result = try await withFetcher(FetchOptions(repositoryRoot: root)) {
        try await $0.fetch(request, progress.callback)
      }
      #expect(result.bytes == Int64(data.count))
      #expect(result.origin == root + "/share/audio.zip")
      #expect(contents(root + "/out") == data)
      #expect(progress.recorded.last == FetchProgress(assetID: "audio", receivedBytes: 3 << 20, totalBytes: 3 << 20))
      #expect(progress.recorded.count >= 4)
    }
  }

  @Test func missingFileAndDirectoryAreClearErrors() async throws {
    try await withTemporaryDirectory { root in
      try await withFetcher(FetchOptions(repositoryRoot: root)) { fetcher in
        let missing = await fetchError {
          _ = try await fetcher.fetch(
            FetchRequest(assetID: "a", source: .file(path: "nope.zip"), destination: root + "/o")
          ) { _ in }
        }
        #expect(missing?.kind == .missingFile)
        #expect(missing?.description.contains(root + "/nope.zip") == true)
        let directory = await fetchError {
          _ = try await fetcher.fetch(FetchRequest(assetID: "a", source: .file(path: root), destination: root + "/o")) {
            _ in
          }
        }
        #expect(directory?.kind == .invalidSource)
        #expect(directory?.description.contains("is a directory") == true)
        #expect(
          await fetcher.checkAccess(FetchRequest(assetID: "a", source: .file(path: "nope"), destination: ""))
            != .granted)
      }
    }
  }
}
