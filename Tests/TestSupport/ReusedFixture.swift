import Foundation
import RippleCore

extension GitFixture {
  /// A repository that the tests of one serialized suite hand on to each other, for suites whose tests each build
  /// the same fixture packages. The first call makes it with `populate`; each later one gets the same folder reset
  /// to what `populate` left (work tree, index, refs, config) with the build folders SwiftPM keeps, so the test's
  /// first build is incremental: a cold build and run of TestCommandTests' two packages costs ~10 s of CPU, one
  /// after a reset ~3 s. What a test left beside the checkout, its untracked and ignored files, and everything
  /// under a `.build` that is not SwiftPM's (`BuildFolders.prune`: Ripple's pass records, timings and reports,
  /// coverage profiles) are removed. `populate` must commit what it writes.
  ///
  /// A call that finds the slot taken (a test running beside the suite's own) gets a fresh repository; one whose
  /// reset fails (a test broke the repository beyond `git reset`) gets the slot made afresh.
  /// `RIPPLE_TESTS_FRESH_FIXTURES=1` turns reuse off, to tell whether a failure comes from it.
  public static func reused(
    _ slot: String, folderName: String = "repo", populate: (GitFixture) throws -> Void
  ) throws -> GitFixture {
    try ReusedFixtures.fixture(slot, folderName: folderName, reusing: !ReusedFixtures.off, populate: populate)
  }
}

/// The slots of `GitFixture.reused`: one folder per slot under this run's folder, and whether a test holds it.
enum ReusedFixtures {
  /// The slot's repository, reset or made; a fresh one when the slot is held or `reusing` is false.
  static func fixture(
    _ slot: String, folderName: String, reusing: Bool = true, populate: (GitFixture) throws -> Void
  ) throws -> GitFixture {
    guard reusing, let lease = Lease(slot) else {
      let fresh = try GitFixture(folderName: folderName)
      try populate(fresh)
      return fresh
    }
    let container = folder(slot)
    let root = container + "/" + folderName
    if FileManager.default.fileExists(atPath: container + "/" + pristineGit),
      (try? reset(root: root, container: container)) != nil
    {
      return GitFixture(reusing: root, release: lease.end)
    }
    do {
      discard(container)
      try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
      try GitFixture.git(["init", "-q", "-b", "main"], in: root)
      let fixture = GitFixture(reusing: root, release: lease.end)
      try populate(fixture)
      let left = try fixture.git("status", "--porcelain", "--untracked-files=all")
      guard left.isEmpty else {
        throw GitCommandFailed(description: "the fixture for slot \(slot) left uncommitted changes: \(left)")
      }
      try run(["/bin/cp", "-a", root + "/.git", container + "/" + pristineGit])
      return fixture
    } catch {
      lease.end()
      discard(container)
      throw error
    }
  }

  static let pristineGit = "pristine.git"
  fileprivate static let held = Locked<Set<String>>([])
  private static let base = URL(fileURLWithPath: RunFolder.path(prefix: "ripple-reused-fixtures"))
    .resolvingSymlinksInPath().path

  static let off = ProcessInfo.processInfo.environment["RIPPLE_TESTS_FRESH_FIXTURES"] == "1"

  /// A test's hold on a slot; nil when another test holds it. `end` may be called more than once.
  final class Lease: Sendable {
    private let slot: String
    private let ended = Locked(false)

    init?(_ slot: String) {
      guard ReusedFixtures.held.withLock({ $0.insert(slot).inserted }) else { return nil }
      self.slot = slot
    }

    @Sendable func end() {
      let first = ended.withLock { ended in
        let first = !ended
        ended = true
        return first
      }
      if first { _ = ReusedFixtures.held.withLock { $0.remove(slot) } }
    }
  }

  static func folder(_ slot: String) -> String {
    base + "/" + String(slot.map { $0.isLetter || $0.isNumber || $0 == "-" ? $0 : "_" })
  }

  /// Back to the commit `populate` made, keeping SwiftPM's build folders and the files git finds unchanged (their
  /// inodes and times too, so the build sees nothing new).
  static func reset(root: String, container: String) throws {
    let files = FileManager.default
    let checkout = (root as NSString).lastPathComponent
    for name in try files.contentsOfDirectory(atPath: container) where name != checkout && name != pristineGit {
      try files.removeItem(atPath: container + "/" + name)
    }
    try files.removeItem(atPath: root + "/.git")
    try run(["/bin/cp", "-a", container + "/" + pristineGit, root + "/.git"])
    try GitFixture.git(["reset", "-q", "--hard"], in: root)
    try GitFixture.git(["clean", "-q", "-ffdx", "-e", ".build"], in: root)
    for folder in BuildFolders.named(".build", in: root) { try BuildFolders.prune(folder) }
  }

  static func run(_ argv: [String]) throws {
    let result = try Command.run(argv)
    guard result.status == 0 else { throw CommandFailure(argv: argv, result: result) }
  }

  /// Removes a slot's folder if there is one, making what a test locked writable first.
  static func discard(_ container: String) {
    guard FileManager.default.fileExists(atPath: container) else { return }
    try? run(["/bin/chmod", "-R", "u+rwX", container])
    try? FileManager.default.removeItem(atPath: container)
  }
}

/// SwiftPM's build folders in a work tree.
public enum BuildFolders {
  /// What SwiftPM keeps at the top of a build folder (`--scratch-path`); the `<triple>` folders too.
  static let swiftPMEntries: Set<String> = [
    "artifacts", "build.db", "checkouts", "debug", "release", "debug.yaml", "release.yaml", "plugin-tools.yaml",
    "plugins", "prebuilts", "registry", "repositories", "workspace-state.json",
  ]

  static func isScratchRoot(_ folder: String) -> Bool {
    let files = FileManager.default
    return files.fileExists(atPath: folder + "/build.db") || files.fileExists(atPath: folder + "/workspace-state.json")
  }

  static func isTriple(_ name: String) -> Bool {
    ["-linux-", "-apple-", "-windows-"].contains { name.contains($0) }
  }

  /// The build folders under `root` (relative paths), not looking inside one or inside `.git`.
  public static func scratchRoots(in root: String) -> [String] {
    var found: [String] = []
    func walk(_ relative: String) {
      let folder = relative.isEmpty ? root : root + "/" + relative
      for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where name != ".git" {
        let child = relative.isEmpty ? name : relative + "/" + name
        guard isFolder(root + "/" + child) else { continue }
        if isScratchRoot(root + "/" + child) { found.append(child) } else { walk(child) }
      }
    }
    walk("")
    return found.sorted()
  }

  /// The folders called `name` under `root` (absolute), not looking inside one or inside `.git`.
  static func named(_ name: String, in root: String) -> [String] {
    var found: [String] = []
    func walk(_ folder: String) {
      for entry in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where entry != ".git" {
        let child = folder + "/" + entry
        guard isFolder(child) else { continue }
        if entry == name { found.append(child) } else { walk(child) }
      }
    }
    walk(root)
    return found
  }

  /// Removes everything under `folder` but SwiftPM's own entries of each build folder in it, and those builds'
  /// coverage profiles; folders left empty go too.
  static func prune(_ folder: String) throws {
    let files = FileManager.default
    let scratch = isScratchRoot(folder)
    for name in try files.contentsOfDirectory(atPath: folder) {
      let path = folder + "/" + name
      if scratch && swiftPMEntries.contains(name) { continue }
      if scratch && isTriple(name) && isFolder(path) {
        for configuration in try files.contentsOfDirectory(atPath: path) {
          try? files.removeItem(atPath: path + "/" + configuration + "/codecov")
        }
        continue
      }
      if isFolder(path) {
        try prune(path)
        if try files.contentsOfDirectory(atPath: path).isEmpty { try files.removeItem(atPath: path) }
      } else {
        try files.removeItem(atPath: path)
      }
    }
  }

  /// A folder, not a link to one.
  static func isFolder(_ path: String) -> Bool {
    var status = stat()
    return lstat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
  }
}
