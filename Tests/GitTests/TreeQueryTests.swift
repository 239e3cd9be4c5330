import Foundation
import Git
import RippleCore
import Testing

@Suite("tree questions: manifests by blob id, subdirectories, files under a directory")
struct TreeQueryTests {
  @Test func blobsSkipDirectoriesAndCarryGitsIDs() throws {
    let repo = try TestRepo()
    try repo.write("Package.swift", "root\n")
    try repo.write("Packages/A/Package.swift", "a\n")
    try repo.write("Packages/A/Package@swift-6.swift", "a6\n")
    try repo.write("Packages/A/.build/x/Package.swift", "vendored\n")
    try repo.write("Packages/A/Sources/A/PackageInfo.swift", "not a manifest\n")
    try repo.write("README.md", "r\n")
    let head = try repo.commit()
    let git = try repo.open()
    let found = try git.blobs(
      at: head, named: { $0 == "Package.swift" || $0.hasPrefix("Package@swift-") }, prefix: "Package",
      skipping: [".build"])
    #expect(found.map(\.path) == ["Package.swift", "Packages/A/Package.swift", "Packages/A/Package@swift-6.swift"])
    let expected = try repo.git("rev-parse", "HEAD:Packages/A/Package.swift").trimmingCharacters(
      in: .whitespacesAndNewlines)
    #expect(found[1].id.hex == expected)
    #expect(try git.blobID(at: head, path: "Packages/A/Package.swift")?.hex == expected)
    #expect(try git.blobID(at: head, path: "Packages/A") == nil, "a directory is not a blob")
    #expect(try git.blobID(at: head, path: "Nope/Package.swift") == nil)
    let tree = try repo.git("rev-parse", "HEAD^{tree}").trimmingCharacters(in: .whitespacesAndNewlines)
    #expect(try git.treeID(of: head).hex == tree)
  }

  @Test func subdirectoriesAndFilesUnderADirectory() throws {
    let repo = try TestRepo()
    try repo.write("Sources/A/a.swift", "a\n")
    try repo.write("Sources/B/Deep/b.swift", "b\n")
    try repo.write("Sources/top.swift", "t\n")
    let head = try repo.commit()
    let git = try repo.open()
    #expect(try git.subdirectories(at: head, of: "Sources")?.sorted() == ["A", "B"])
    #expect(try git.subdirectories(at: head, of: ".") == ["Sources"])
    #expect(try git.subdirectories(at: head, of: "Sources/top.swift") == nil, "a file is not a directory")
    #expect(try git.subdirectories(at: head, of: "Tests") == nil)
    #expect(try git.files(at: head, under: "Sources/B").sorted() == ["Sources/B/Deep/b.swift"])
    #expect(try git.files(at: head, under: "Missing").isEmpty)
  }

  /// Git stores a symbolic link as a blob of mode 120000 whose bytes are its text.
  @Test func symbolicLinksWithTheirTextOutsideSkippedFolders() throws {
    let repo = try TestRepo()
    try repo.write("Shared/X.swift", "let x = 1\n")
    try repo.symlink("Sources/PluginA/Shared", to: "../../Shared")
    try repo.symlink("Sources/PluginB/Out", to: "/usr/share")
    try repo.symlink(".build/checkouts/link", to: "../x")
    let head = try repo.commit()
    let git = try repo.open()
    #expect(
      try git.symbolicLinks(at: head, skipping: [".build"]) == [
        GitSymbolicLink(path: "Sources/PluginA/Shared", destination: "../../Shared"),
        GitSymbolicLink(path: "Sources/PluginB/Out", destination: "/usr/share"),
      ])
    #expect(try git.symbolicLink(at: head, path: "Sources/PluginA/Shared") == "../../Shared")
    #expect(try git.symbolicLink(at: head, path: "Shared/X.swift") == nil, "a file is not a link")
    #expect(try git.symbolicLink(at: head, path: "Shared") == nil, "nor is a directory")
    #expect(try git.symbolicLink(at: head, path: "Missing/Y.swift") == nil)
  }
}

@Suite("commit-to-commit changes limited to differing subtrees")
struct DifferingPathsTests {
  /// A file replaced by a directory and back, a moved deep file, an untouched sibling tree: the same answer
  /// as `git diff --name-status -M`.
  @Test func fileBecomesADirectoryAndRenamesAcrossTrees() throws {
    let repo = try TestRepo()
    try repo.write("x", "file\n")
    try repo.write("Deep/A/B/moved.swift", String(repeating: "let value = 1\n", count: 20))
    try repo.write("Untouched/C/c.swift", "c\n")
    let base = try repo.commit()
    try repo.remove("x")
    try repo.write("x/y.swift", "now a directory\n")
    try repo.gitMove("Deep/A/B/moved.swift", "Other/moved.swift")
    let head = try repo.commit()
    let git = try repo.open()
    #expect(
      try git.changes(from: base, to: head) == [
        ChangedFile(path: "Other/moved.swift", status: .renamed, oldPath: "Deep/A/B/moved.swift"),
        ChangedFile(path: "x", status: .deleted),
        ChangedFile(path: "x/y.swift", status: .added),
      ])
    #expect(try git.changes(from: head, to: head).isEmpty)
  }
}
