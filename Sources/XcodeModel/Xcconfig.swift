import RippleCore

/// An `.xcconfig` file, parsed (docs/DESIGN.md, rule 12): settings (`NAME = value`, `NAME[sdk=…] = value`,
/// an optional `;` at the end), `#include "path"` and `#include? "path"` (optional: no warning when
/// missing), `//` comments. A line that is none of these is a problem naming its line (Xcode skips it too).
public struct XcconfigFile: Sendable, Hashable {
  public enum Line: Sendable, Hashable {
    case assignment(BuildSettingAssignment)
    case include(path: String, optional: Bool, line: Int)
  }

  public var lines: [Line] = []
  /// (line number, what is wrong) for the lines that were skipped.
  public var problems: [Problem] = []

  public struct Problem: Sendable, Hashable {
    public var line: Int
    public var message: String
  }

  public init(_ bytes: [UInt8]) {
    let text = String(decoding: bytes, as: UTF8.self)
    var number = 0
    for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
      number += 1
      var line = raw
      // `//` starts a comment anywhere on the line, values included (as in Xcode).
      if let comment = line.firstRange(of: "//") { line = line[..<comment.lowerBound] }
      let content = trimmed(line)
      guard !content.isEmpty else { continue }
      if content.hasPrefix("#") {
        parseDirective(content, line: number)
        continue
      }
      guard let equals = content.firstIndex(of: "="),
        let key = BuildSettingAssignment.key(content[..<equals])
      else {
        problems.append(Problem(line: number, message: "not a setting (`NAME = value`) or an `#include`: `\(content)`"))
        continue
      }
      var value = trimmed(content[content.index(after: equals)...])
      if value.hasSuffix(";") { value = trimmed(value.dropLast()) }
      lines.append(.assignment(BuildSettingAssignment(name: key.name, conditional: key.conditional, value: value)))
    }
  }

  private mutating func parseDirective(_ text: String, line: Int) {
    let optional = text.hasPrefix("#include?")
    guard text.hasPrefix("#include") else {
      problems.append(Problem(line: line, message: "unknown directive `\(text)`"))
      return
    }
    let rest = trimmed(text.dropFirst(optional ? 9 : 8))
    guard rest.count >= 2, rest.first == "\"", rest.last == "\"" else {
      problems.append(Problem(line: line, message: "`#include` needs a path in double quotes: `\(text)`"))
      return
    }
    lines.append(.include(path: String(rest.dropFirst().dropLast()), optional: optional, line: line))
  }
}

/// `text` without spaces, tabs and carriage returns at either end.
private func trimmed(_ text: Substring) -> String {
  var slice = text
  while let first = slice.first, first == " " || first == "\t" || first == "\r" { slice = slice.dropFirst() }
  while let last = slice.last, last == " " || last == "\t" || last == "\r" { slice = slice.dropLast() }
  return String(slice)
}

/// Reads the xcconfig files of a project's configurations with their includes (relative to the including
/// file), each file once: the settings in order, the files they came from, and warnings for what
/// could not be read. `read` gives a repo-relative file's bytes, nil when the tree lacks it.
public final class XcconfigReader {
  let read: (String) -> [UInt8]?
  let repositoryRoot: String?
  private var files: [String: XcconfigFile?] = [:]
  /// Warnings, each once, in the order met.
  public private(set) var warnings: [String] = []
  private var warned: Set<String> = []

  public init(repositoryRoot: String?, read: @escaping (String) -> [UInt8]?) {
    self.repositoryRoot = repositoryRoot
    self.read = read
  }

  /// The settings of `path` with its includes expanded in place, and every file involved (`path` and the
  /// files it includes, present or not: a file added later changes the settings).
  /// `user`: who uses it, for the warning when `path` itself is missing.
  public func settings(of path: String, user: String) -> (assignments: [BuildSettingAssignment], files: [String]) {
    var assignments: [BuildSettingAssignment] = []
    var files: [String] = []
    collect(
      path, stack: [], missing: "\(user): its base configuration file `\(path)` is not in the tree", into: &assignments,
      files: &files)
    return (assignments, files)
  }

  private func collect(
    _ path: String, stack: [String], missing: @autoclosure () -> String?,
    into assignments: inout [BuildSettingAssignment],
    files: inout [String]
  ) {
    files.append(path)
    guard let file = parsed(path) else {
      if let message = missing() { warn(message + "; its settings are not read.") }
      return
    }
    let folder = RepoPath.parent(path)
    for line in file.lines {
      switch line {
      case .assignment(let assignment):
        assignments.append(assignment)
      case .include(let included, let optional, let number):
        let where_ = "`\(path)` line \(number)"
        guard let target = location(of: included, from: folder) else { continue }
        if stack.contains(target) || target == path {
          warn("\(where_): `#include \"\(included)\"` includes a file that includes it; it is read once.")
          continue
        }
        collect(
          target, stack: stack + [path],
          missing: optional
            ? nil
            : "\(where_): `#include \"\(included)\"` names `\(target)`, which is not in the tree (Xcode stops the build there)",
          into: &assignments, files: &files)
      }
    }
  }

  /// The repo-relative file an include names; nil outside the repository (`<DEVELOPER_DIR>/…`, `..`
  /// beyond the root, an absolute path elsewhere).
  private func location(of included: String, from folder: String) -> String? {
    if included.hasPrefix("<") { return nil }
    if included.hasPrefix("/") {
      guard let root = repositoryRoot, included.hasPrefix(root + "/") else { return nil }
      return RepoPath.normalize(String(included.dropFirst(root.count + 1)))
    }
    let path = RepoPath.join(folder, included)
    return path == ".." || path.hasPrefix("../") ? nil : path
  }

  private func parsed(_ path: String) -> XcconfigFile? {
    if let known = files[path] { return known }
    let file = read(path).map(XcconfigFile.init)
    files[path] = file
    for problem in file?.problems ?? [] {
      warn("`\(path)` line \(problem.line): \(problem.message); the line is ignored.")
    }
    return file
  }

  func warn(_ message: String) {
    if warned.insert(message).inserted { warnings.append(message) }
  }
}
