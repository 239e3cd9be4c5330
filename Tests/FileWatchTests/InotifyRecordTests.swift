import Foundation
import RippleCore
import Testing

@testable import FileWatch

struct InotifyRecordTests {
  @Test func parsesVariableLengthRecords() {
    let records = [
      InotifyRecord(wd: 1, mask: InotifyMask.create, cookie: 0, name: "a.swift"),
      InotifyRecord(wd: 2, mask: InotifyMask.deleteSelf, cookie: 0, name: ""),
      InotifyRecord(wd: 1, mask: InotifyMask.movedTo | InotifyMask.isDirectory, cookie: 7, name: "sixteen-chars-xy"),
      InotifyRecord(wd: -1, mask: InotifyMask.queueOverflow, cookie: 0, name: ""),
    ]
    // The kernel pads names with NULs to a multiple of its record alignment; use a generous padding too.
    let bytes =
      records[0].encoded(paddedLength: 32) + records[1].encoded() + records[2].encoded()
      + records[3].encoded()
    #expect(records[1].encoded().count == InotifyRecord.headerSize)  // len 0: no name bytes at all
    #expect(records[2].encoded().count == InotifyRecord.headerSize + 32)  // 16 chars + NUL, padded
    #expect(bytes.withUnsafeBytes { InotifyRecord.parse($0) } == records)
  }

  @Test func ignoresATruncatedTail() {
    let whole = InotifyRecord(wd: 3, mask: InotifyMask.modify, cookie: 0, name: "f").encoded()
    let bytes = whole + Array(whole.prefix(20))
    let parsed = bytes.withUnsafeBytes { InotifyRecord.parse($0) }
    #expect(parsed == [InotifyRecord(wd: 3, mask: InotifyMask.modify, cookie: 0, name: "f")])
  }
}

/// The watch bookkeeping, driven with hand-made records and a fake kernel that hands out descriptors.
struct InotifyBookkeepingTests {
  final class FakeKernel: Sendable {
    let watches = Locked<[String: Int32]>([:])
    let removed = Locked<[Int32]>([])
    let nextWD = Locked<Int32>(1)

    var system: InotifySystem {
      InotifySystem(
        initialize: { .success(-1) },
        addWatch: { [self] _, path, _ in
          // Like the kernel: the same directory keeps its descriptor.
          let wd = watches.withLock { watches in
            if let wd = watches[path] { return wd }
            let wd = nextWD.withLock { next in
              defer { next += 1 }; return next
            }
            watches[path] = wd
            return wd
          }
          return .success(wd)
        },
        removeWatch: { [self] _, wd in
          removed.withLock { $0.append(wd) }
          watches.withLock { watches in watches = watches.filter { $0.value != wd } }
        },
        read: { _, _ in .failure(SystemError(code: EAGAIN)) },
        limit: { _ in "1" })
    }

    /// What the kernel does when a watched directory is deleted: its watch goes away by itself.
    func directoryDeleted(_ path: String) { watches.withLock { $0[path] = nil } }

    func wd(_ root: String, _ relative: String) -> Int32? {
      watches.withLock { $0[relative.isEmpty ? root : root + "/" + relative] }
    }
  }

  /// Starts on the resolved root (macOS's temp directory is behind a symlink), returned with the watcher.
  func start(_ tree: TempTree, _ kernel: FakeKernel) throws -> (InotifyWatcher, String) {
    let root = try #require(realpath(tree.path, nil).map { String(cString: $0) })
    let start = try InotifyWatcher.start(
      root: root, filter: PathFilter(isIgnored: notIgnored), system: kernel.system, fallbackInterval: .seconds(1))
    guard case .watching(let watcher, let problems) = start else {
      Issue.record("inotify did not start")
      throw CancellationError()
    }
    #expect(problems.reasons.isEmpty)
    return (watcher, root)
  }

  @Test func dropsWatchesOfMovedAwayTreesAndIgnoresTheirStaleEvents() throws {
    let tree = try TempTree()
    defer { tree.remove() }
    try tree.mkdir("a/b")
    try tree.mkdir("c")
    let kernel = FakeKernel()
    let (watcher, root) = try start(tree, kernel)
    #expect(watcher.watchedDirectoryCount == 4)
    let rootWD = try #require(kernel.wd(root, ""))
    let aWD = try #require(kernel.wd(root, "a"))
    let bWD = try #require(kernel.wd(root, "a/b"))

    // a moved out of the tree: it and a/b lose their watches; late events from them are ignored.
    var batch = WatchBatch()
    watcher.handle(
      [
        InotifyRecord(wd: rootWD, mask: InotifyMask.movedFrom | InotifyMask.isDirectory, cookie: 9, name: "a"),
        InotifyRecord(wd: bWD, mask: InotifyMask.create, cookie: 0, name: "late"),
        InotifyRecord(wd: aWD, mask: InotifyMask.ignored, cookie: 0, name: ""),
      ], batch: &batch)
    #expect(batch.changed == ["a"])
    #expect(Set(kernel.removed.withLock { $0 }) == [aWD, bWD])
    #expect(watcher.watchedDirectoryCount == 2)
    #expect(!batch.needsPolling)

    // Deleting the root is the end of inotify for this tree.
    batch = WatchBatch()
    watcher.handle([InotifyRecord(wd: rootWD, mask: InotifyMask.deleteSelf, cookie: 0, name: "")], batch: &batch)
    #expect(batch.needsPolling)
    #expect(batch.reasons.first?.contains("deleted or moved") == true)
  }

  @Test func aDirectoryRecreatedBeforeItsOldWatchIsGoneKeepsItsNewWatch() throws {
    let tree = try TempTree()
    defer { tree.remove() }
    try tree.mkdir("c")
    let kernel = FakeKernel()
    let (watcher, root) = try start(tree, kernel)
    let rootWD = try #require(kernel.wd(root, ""))
    let oldWD = try #require(kernel.wd(root, "c"))

    kernel.directoryDeleted(root + "/c")
    var batch = WatchBatch()
    watcher.handle(
      [
        InotifyRecord(wd: rootWD, mask: InotifyMask.delete | InotifyMask.isDirectory, cookie: 0, name: "c"),
        InotifyRecord(wd: rootWD, mask: InotifyMask.create | InotifyMask.isDirectory, cookie: 0, name: "c"),
        InotifyRecord(wd: oldWD, mask: InotifyMask.deleteSelf, cookie: 0, name: ""),
        InotifyRecord(wd: oldWD, mask: InotifyMask.ignored, cookie: 0, name: ""),
      ], batch: &batch)
    let newWD = try #require(kernel.wd(root, "c"))
    #expect(newWD != oldWD)
    #expect(watcher.watchedDirectoryCount == 2)
    #expect(batch.changed == ["c"])
    #expect(kernel.removed.withLock { $0 }.isEmpty)

    // Events on the new descriptor are reported under c.
    batch = WatchBatch()
    watcher.handle([InotifyRecord(wd: newWD, mask: InotifyMask.closeWrite, cookie: 0, name: "f")], batch: &batch)
    #expect(batch.changed == ["c/f"])
  }
}
