import Foundation
import Testing
import XcodeFixtures
import XcodeLoading
import XcodeModel

/// Ripple's reader of `project.pbxproj` (`OpenStepPlist`) against Foundation's, the reference: the same
/// values for every project file of the tests, and a clear error with the file and line for bad input.
@Suite struct ProjectReaderTests {
  /// Every project file the Xcode tests use, and generated ones of several sizes.
  static func projectFiles() -> [(name: String, text: String)] {
    var files: [(String, String)] = []
    for (label, app) in [
      ("thin app", ThinApp()), ("cross-project", CrossProjectTests.app()), ("implicit", ImplicitDependencyTests.app()),
      ("implicit, two libraries", ImplicitDependencyTests.app(extraLibrary: true)),
    ] {
      for (path, text) in app.files where path.hasSuffix("project.pbxproj") {
        files.append(("\(label): \(path)", text))
      }
    }
    files.append(("generated 40 × 12", generated(frameworks: 40, files: 12).text()))
    files.append(("hand-written", handWritten))
    return files
  }

  /// An app with `frameworks` frameworks of `files` sources each and a test bundle each.
  static func generated(frameworks: Int, files: Int) -> PBXProjFixture {
    var project = PBXProjFixture()
    let frameworksGroup = project.group(nil, name: "Frameworks")
    var products: [String] = []
    for index in 0..<frameworks {
      let group = project.group("Module\(index)")
      let sources = (0..<files).map { project.file("File\($0).swift", in: group) }
      let framework = project.target("Module\(index)", .framework, sources: sources)
      project.target("Module\(index)Tests", .unitTest, dependencies: [framework])
      products.append(project.builtProduct("Module\(index).framework", in: frameworksGroup))
    }
    project.target("App", .app, linked: products, embedded: products)
    return project
  }

  /// What Xcode and other tools write besides the fixture's plain text: escapes, both quotes, comments of
  /// both kinds, the `key;` shorthand, data, separators, non-ASCII text.
  static let handWritten = """
    // !$*UTF8*$!
    {
    \tarchiveVersion = 1; /* a comment */ classes = {};
    \tobjectVersion = 56;
    \tobjects = {
    \t\tA1 /* x */ = {isa = PBXFileReference; path = "Résumé \\"quoted\\" \\\\ tab\\tnew\\nline.swift"; name = 'single \\' quote'; sourceTree = "<group>"; };
    \t\tA2 = {isa = PBXGroup; children = (A1, "A3", ); name = "\\U00e9t\\U00E9 \\101\\102 \\a\\b\\f\\v\\r \\/"; emoji = "😀 \\Ud83d\\Ude00"; };
    \t\tA3 = {isa = PBXGroup; children = ( ); shorthand; data = <0fbd 7A 00>; empty = ""; dollars = $SRCROOT/a:b-c.d_e; setting = "$(SRCROOT)/x"; };
    \t\tROOT = {isa = PBXProject; mainGroup = A2; targets = (); };
    \t};
    \trootObject = ROOT;
    }
    """

  @Test func theReaderGivesFoundationsValuesForEveryProjectFile() throws {
    let files = Self.projectFiles()
    #expect(files.count >= 8)
    for (name, text) in files {
      let bytes = Array(text.utf8)
      let reference = try ProjectFileReader.foundationValue(bytes).get()
      let value = try OpenStepPlist.parse(bytes)
      #expect(value == reference, "\(name)")
      #expect(value["objects"]?.dictionary?.isEmpty == false, "\(name)")
    }
  }

  @Test func escapesReadAsFoundationReadsThem() throws {
    let value = try OpenStepPlist.parse(Array(Self.handWritten.utf8))
    let objects = try #require(value["objects"])
    #expect(objects["A1"]?["path"] == .string("Résumé \"quoted\" \\ tab\tnew\nline.swift"))
    #expect(objects["A1"]?["name"] == .string("single ' quote"))
    #expect(objects["A2"]?["name"] == .string("été AB \u{7}\u{8}\u{C}\u{B}\r /"))
    #expect(objects["A2"]?["emoji"] == .string("😀 😀"))
    #expect(objects["A3"]?["shorthand"] == .string("shorthand"))
    #expect(objects["A3"]?["data"] == .string("D716AA=="))
    #expect(objects["A3"]?["dollars"] == .string("$SRCROOT/a:b-c.d_e"))
  }

  // MARK: - Bad input: one error naming the file and the line, never a partial graph

  /// The error for `text` read as `Bad/Bad.xcodeproj`; checks that it names the file and a line.
  func failure(_ bytes: [UInt8]) -> String {
    do {
      _ = try ProjectFileReader.document(bytes, projectPath: "Bad/Bad.xcodeproj", revision: "worktree")
      Issue.record("no error")
      return ""
    } catch {
      let text = error.description
      #expect(text.contains("`Bad/Bad.xcodeproj/project.pbxproj` at worktree cannot be read"), "\(text)")
      #expect(text.contains("line "), "\(text)")
      #expect(error.category == .environment)
      return text
    }
  }

  var valid: [UInt8] { Array(ThinApp().files["App/MyApp.xcodeproj/project.pbxproj"]!.utf8) }

  /// Containers are built at their end from the values read: a key given twice keeps the value Foundation
  /// keeps, and items keep their order at any depth.
  @Test func aRepeatedKeyAndNestedContainersReadAsFoundationReadsThem() throws {
    let text = """
      { a = 1; b = (x, (y1, y2, {k = v; k = w;}), z, ); a = 2; c = {d = 1; e = (); d = 3;}; f = {}; }
      """
    let bytes = Array(text.utf8)
    let value = try OpenStepPlist.parse(bytes)
    #expect(value == (try ProjectFileReader.foundationValue(bytes).get()))
    #expect(value["a"] == .string("2"))
    #expect(value["c"]?["d"] == .string("3"))
    #expect(value["b"]?.array?.count == 3)
    #expect(value["b"]?.array?[1].array?[2]["k"] == .string("w"))
    #expect(value["b"]?.strings == ["x", "z"])
  }

  @Test func aTruncatedFileIsAnError() {
    let bytes = valid
    // Cut anywhere in the objects: an unclosed dictionary, string or missing `;`, never a crash.
    for cut in stride(from: 10, to: bytes.count - 2, by: max(1, bytes.count / 97)) {
      let text = failure(Array(bytes.prefix(cut)))
      #expect(!text.isEmpty)
    }
    let half = failure(Array(bytes.prefix(bytes.count / 2)))
    #expect(half.contains("(truncated?)") || half.contains("is not closed"))
  }

  @Test func anUnbalancedFileIsAnError() {
    let text = String(decoding: valid, as: UTF8.self)
    let extraClose = text.replacingOccurrences(of: "\tobjects = {\n", with: "\tobjects = {\n\t\t};\n")
    #expect(failure(Array(extraClose.utf8)).contains("after the end of the top-level value"))
    let unclosed = String(text.dropLast(2))
    #expect(failure(Array(unclosed.utf8)).contains("line 2: the dictionary opened on line 2 is not closed"))
    let unclosedArray = "{\n\ta = (b, c;\n\trootObject = X;\n}\n"
    #expect(failure(Array(unclosedArray.utf8)).contains("line 2: expected `,` or `)` in the array opened on line 2"))
    let missingSemicolon = "{\n\ta = b\n\tc = d;\n}\n"
    #expect(failure(Array(missingSemicolon.utf8)).contains("line 3: missing `;` after the value of `a`"))
  }

  @Test func aBadEscapeIsAnError() {
    let text = "{\n\tobjects = {\n\t\tA = {isa = \"x\\qy\"; };\n\t};\n}\n"
    #expect(failure(Array(text.utf8)).contains("line 3: unknown escape `\\q`"))
    let noDigits = "{\n\ta = \"\\Uzz\";\n}\n"
    #expect(failure(Array(noDigits.utf8)).contains("line 2: `\\U` without hex digits"))
    let endsInEscape = "{\n\ta = \"abc\\"
    #expect(failure(Array(endsInEscape.utf8)).contains("line 2"))
  }

  @Test func anEmptyFileIsAnError() {
    #expect(failure([]).contains("line 1: the file is empty"))
    #expect(failure(Array("// !$*UTF8*$!\n\n".utf8)).contains("the file is empty"))
  }

  @Test func binaryGarbageIsAnError() {
    var generator = SystemRandomNumberGenerator()
    let garbage = (0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) }
    #expect(failure(garbage).contains("line "))
    #expect(failure([0xFF, 0xFE, 0x00, 0x7B]).contains("line 1: it is not UTF-8 text (byte 1)"))
    #expect(failure(Array("bplist00".utf8) + [0, 1, 2]).contains("binary property list"))
    #expect(failure(Array("{\n\ta = b;\n}\n\u{0}".utf8)).contains("line 4: unexpected byte 0x0"))
    // Deep nesting is an error, not a stack overflow.
    #expect(failure(Array(String(repeating: "(", count: 100_000).utf8)).contains("nested more than"))
  }

  @Test func aValueThatIsNotAProjectIsAnError() {
    #expect(failure(Array("(a, b)".utf8)).contains("line 1: the top-level value is not a dictionary"))
  }
}
