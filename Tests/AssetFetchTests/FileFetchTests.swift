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

  /// `size:` bounds the copy as it bounds a download: a source that keeps growing (here a device that never ends)
  /// stops as soon as more bytes than `size` arrived, instead of filling the disk.
  @Test(.timeLimit(.minutes(1))) func aCopyStopsAsSoonAsMoreThanSizeArrived() async throws {
    try await withTemporaryDirectory { root in
      let request = FetchRequest(
        assetID: "audio", source: .file(path: "/dev/zero"), expectedSize: 3 << 20, destination: root + "/out")
      let error = try await withFetcher(FetchOptions(repositoryRoot: root)) { fetcher in
        await fetchError { _ = try await fetcher.fetch(request) { _ in } }
      }
      #expect(error?.kind == .sizeMismatch)
      #expect(
        error?.description.contains("more than the 3145728 bytes its `size` says") == true,
        "\(String(describing: error))")
      #expect(contents(root + "/out").count <= 3 << 20)
    }
  }

  /// rippled's `runTimeout` cancels the run: a copy in progress stops at the next chunk (a 3 GB copy ran past a
  /// 3 s limit).
  ///
  /// The task is cancelled from the copy's own progress callback (it runs inline, in the copying task): a test
  /// that slept and cancelled from outside was not woken for a minute on a loaded machine while the copy of
  /// /dev/zero filled the disk. `size` bounds it too, so a copy that ignores cancellation fails, never fills it.
  @Test(.timeLimit(.minutes(1))) func aCopyStopsWhenItsTaskIsCancelled() async throws {
    try await withTemporaryDirectory { root in
      let request = FetchRequest(
        assetID: "audio", source: .file(path: "/dev/zero"), expectedSize: 1 << 30, destination: root + "/out")
      let chunks = ProgressRecorder()
      try await withFetcher(FetchOptions(repositoryRoot: root)) { fetcher in
        let copy = Task {
          try await fetcher.fetch(request) { progress in
            chunks.callback(progress)
            if chunks.recorded.count == 3 { withUnsafeCurrentTask { $0?.cancel() } }
          }
        }
        await #expect(throws: CancellationError.self) { _ = try await copy.value }
        #expect(chunks.recorded.count >= 3)
        #expect(contents(root + "/out").count < 1 << 30)
      }
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
