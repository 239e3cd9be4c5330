import RippleCore
import Testing

@Suite struct GlobTests {
  @Test(arguments: [
    ("**/*.md", "README.md", true),
    ("**/*.md", "docs/a/b.md", true),
    ("**/*.md", "docs/a/b.mdx", false),
    ("docs/**", "docs/x/y.txt", true),
    ("docs/**", "docsx/y.txt", false),
    ("Makefile", "Makefile", true),
    ("Makefile", "sub/Makefile", false),
    ("Sources/*/Resources/*", "Sources/App/Resources/a.png", true),
    ("Sources/*/Resources/*", "Sources/App/Deep/Resources/a.png", false),
    ("Sources/**/Resources/*", "Sources/App/Deep/Resources/a.png", true),
    ("*.swift", "a.swift", true),
    ("*.swift", "dir/a.swift", false),
    ("file?.txt", "file1.txt", true),
    ("file?.txt", "file10.txt", false),
    ("[abc].txt", "b.txt", true),
    ("[!abc].txt", "b.txt", false),
    ("[a-c]x", "cx", true),
    ("Fixtures/", "Fixtures/Pkg/Package.swift", true),
    ("./Makefile", "Makefile", true),
    ("**", "anything/at/all", true),
  ])
  func matches(pattern: String, path: String, expected: Bool) {
    #expect(Glob(pattern).matches(path) == expected, "\(pattern) vs \(path)")
  }
}

@Suite struct RepoPathTests {
  @Test func joinAndNormalize() {
    #expect(RepoPath.join(".", "Sources/A") == "Sources/A")
    #expect(RepoPath.join("Packages/Core", "Sources/A/") == "Packages/Core/Sources/A")
    #expect(RepoPath.join("Packages/Server", "../Core") == "Packages/Core")
    #expect(RepoPath.normalize("./a/./b/../c") == "a/c")
    #expect(RepoPath.normalize("") == ".")
  }

  @Test func nameParentAndResolvedFiles() {
    #expect(RepoPath.name("Sources/A/a.swift") == "a.swift")
    #expect(RepoPath.name("README.md") == "README.md")
    #expect(RepoPath.name("Sources/É/ü.swift") == "ü.swift")
    #expect(RepoPath.parent("Sources/A/a.swift") == "Sources/A")
    #expect(RepoPath.parent("README.md") == ".")
    #expect(RepoPath.isResolvedFile("Package.resolved"))
    #expect(RepoPath.isResolvedFile("Packages/Core/Package.resolved"))
    #expect(!RepoPath.isResolvedFile("Packages/Core/XPackage.resolved"))
    #expect(!RepoPath.isResolvedFile("Package.resolved/inner"))
  }

  @Test func insideAndRelative() {
    #expect(RepoPath.isInside("Sources/AB/x.swift", directory: "Sources/AB"))
    #expect(!RepoPath.isInside("Sources/ABC/x.swift", directory: "Sources/AB"))
    #expect(RepoPath.isInside("anything", directory: "."))
    // Byte-wise where String's comparison (canonical equivalence) gives the same answer, String's otherwise.
    let cases: [(String, String)] = [
      ("Sources/AB", "Sources/AB"), ("Sources/AB/", "Sources/AB"), ("Sources/A", "Sources/AB"), ("", "a"),
      ("a/b", ""), ("Caf\u{E9}/x.swift", "Cafe\u{301}"), ("Cafe\u{301}/x", "Cafe"), ("\u{212A}/x", "K"),
      ("K/\u{E9}", "K"), ("Ka/x", "K"),
    ]
    for (path, directory) in cases {
      let expected = path == directory || path.hasPrefix(directory + "/")
      #expect(RepoPath.isInside(path, directory: directory) == expected, "\(path) in \(directory)")
    }
    #expect(RepoPath.relative("Packages/Core/Package.swift", to: "Packages/Core") == "Package.swift")
    #expect(RepoPath.parent("a/b/c") == "a/b")
    #expect(RepoPath.parent("c") == ".")
  }

  @Test func renameTouchesBothPaths() {
    let rename = ChangedFile(path: "B/x.swift", status: .renamed, oldPath: "A/x.swift")
    #expect(rename.touchedPaths == ["A/x.swift", "B/x.swift"])
    #expect(ChangedFile(path: "x", status: .modified).touchedPaths == ["x"])
  }
}
