import Foundation
import Testing

@testable import FileWatch

struct StartupTests {
  /// 2,040 directories with 2 files each: the shape of a large modular code base (fewer files keep it quick;
  /// inotify startup only lists directories).
  static func makeLargeTree() throws -> TempTree {
    let tree = try TempTree()
    for package in 0..<40 {
      for target in 0..<50 {
        let directory = tree.absolute("Package\(package)/Target\(target)")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for file in 0..<2 {
          try Data("x".utf8).write(to: URL(fileURLWithPath: directory + "/File\(file).swift"))
        }
      }
    }
    return tree
  }

  @Test func startsQuicklyOnALargeTree() async throws {
    let tree = try Self.makeLargeTree()
    defer { tree.remove() }
    var backends: [WatchBackend] = [.polling(interval: .seconds(60))]
    if inotifyAvailable { backends.append(.inotify) }
    for backend in backends {
      let clock = ContinuousClock()
      let start = clock.now
      let watcher = try FileWatcher(root: tree.path, backend: backend, isIgnored: notIgnored)
      let elapsed = clock.now - start
      defer { watcher.stop() }
      print("FileWatch startup, \(watcher.backendName), 2,040 directories / 4,000 files: \(elapsed)")
      // The root, 40 packages and 2,000 targets.
      #expect(watcher.watchedDirectoryCount == 2041)

      let recorder = EventRecorder(watcher.events)
      if case .polling = backend { continue }
      try tree.write("Package39/Target49/New.swift")
      #expect(await recorder.waitForChanges("Package39/Target49/New.swift"))
    }
  }
}
