/// SwiftPM's choice between `Package.swift` and version-specific manifests (`ManifestLoader.findManifest`
/// in swift-package-manager), as a pure function of the file names, their declared tools versions and the
/// toolchain's version. docs/DESIGN.md, rule 4.
///
/// 1. A `Package@swift-X.Y.Z.swift`, `Package@swift-X.Y.swift` or `Package@swift-X.swift` naming the
///    toolchain's own version (in that order) is read, whatever its tools version.
/// 2. Otherwise the version-specific file with the highest version not newer than the toolchain is the
///    candidate (`X` and `X.Y` count missing components as 0); with none, `Package.swift` is read.
/// 3. The candidate is read only when its declared `swift-tools-version` is greater than
///    `Package.swift`'s, or when `Package.swift`'s is one this toolchain cannot read (newer than it, or
///    older than 4.0); otherwise `Package.swift` is read.
///
/// So a `Package@swift-6.1.swift` beside a `Package.swift` with tools version 6.2 is never read by
/// Swift 6.2 and later: SwiftPM's documentation says it picks `Package.swift` "because its tools version
/// is most compatible".
public enum ManifestSelection {
  /// What `choose` found.
  public enum Choice: Sendable, Hashable {
    /// The file name (not path) SwiftPM reads.
    case file(String)
    /// SwiftPM stops with an error on this file's tools-version line before reading any manifest.
    case unreadable(file: String, reason: String)

    /// The file read, or the one whose tools-version line stops SwiftPM.
    public var fileName: String {
      switch self {
      case .file(let name), .unreadable(let name, _): name
      }
    }
  }

  /// The tools version a manifest declares on its `// swift-tools-version:` line.
  public enum DeclaredToolsVersion: Sendable, Hashable {
    /// Major, minor, patch.
    case version([Int])
    /// No comment before the first line of code: SwiftPM assumes 3.1.0.
    case missing
    /// A tools-version line SwiftPM rejects.
    case malformed(String)
  }

  /// The tools version SwiftPM assumes for a manifest without a tools-version line.
  static let legacyToolsVersion = [3, 1, 0]
  /// The oldest tools version current SwiftPM reads (`ToolsVersion.minimumRequired`).
  static let minimumToolsVersion = [4, 0, 0]

  /// The manifest SwiftPM `toolchain` (for example [6, 3, 1]) reads in a directory holding `fileNames`
  /// (file names, not paths; `Package.swift` among them). `toolsVersion` gives a file's declared tools
  /// version; it is asked only for the files the rule compares (none when there is no version-specific
  /// file), so a warm run reads no manifest of a package that has only `Package.swift`.
  public static func choose(
    fileNames: [String], toolchain: [Int], toolsVersion: (String) throws -> DeclaredToolsVersion
  ) rethrows -> Choice {
    let current = padded(toolchain)
    let names = Set(fileNames)
    let exactKeys = ["\(current[0]).\(current[1]).\(current[2])", "\(current[0]).\(current[1])", "\(current[0])"]
    for key in exactKeys where names.contains("Package@swift-\(key).swift") {
      return .file("Package@swift-\(key).swift")
    }
    // Two names for one version (`Package@swift-6.swift`, `Package@swift-6.0.swift`): SwiftPM keeps the
    // one its directory listing gives last; sorted order stands in for that order here.
    var specific: [[Int]: String] = [:]
    for name in fileNames.sorted() {
      if let version = version(ofManifest: name) { specific[padded(version)] = name }
    }
    // Nothing to compare: SwiftPM reads Package.swift (and stops on its tools-version line if malformed).
    if specific.isEmpty { return .file("Package.swift") }
    let regular: [Int]
    switch try toolsVersion("Package.swift") {
    case .version(let version): regular = padded(version)
    case .missing: regular = legacyToolsVersion
    case .malformed(let reason): return .unreadable(file: "Package.swift", reason: reason)
    }
    let eligible = specific.keys.filter { compare($0, current) <= 0 }
    guard let candidate = eligible.max(by: { compare($0, $1) < 0 }), let name = specific[candidate] else {
      return .file("Package.swift")
    }
    let candidateToolsVersion: [Int]
    if compare(candidate, minimumToolsVersion) < 0 {
      // Before tools-version lines existed: SwiftPM does not read the file's first line.
      candidateToolsVersion = legacyToolsVersion
    } else {
      switch try toolsVersion(name) {
      case .version(let version): candidateToolsVersion = padded(version)
      case .missing: return .unreadable(file: name, reason: "it has no `// swift-tools-version:` line")
      case .malformed(let reason): return .unreadable(file: name, reason: reason)
      }
    }
    if compare(candidateToolsVersion, regular) > 0 { return .file(name) }
    let regularReadable = compare(regular, minimumToolsVersion) >= 0 && compare(regular, current) <= 0
    return regularReadable ? .file("Package.swift") : .file(name)
  }

  /// The tools version declared by a manifest's bytes: the first `// swift-tools-version:` comment before
  /// any line of code. Blank lines and comments may precede it from tools version 6.0 on; a manifest that
  /// starts with comments but declares no tools version is rejected, one that starts with code is 3.1.0.
  public static func declaredToolsVersion(in bytes: [UInt8]) -> DeclaredToolsVersion {
    var text = String(decoding: bytes, as: UTF8.self)
    if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
    let lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
    var sawComment = false
    var inBlockComment = false
    let noSpecifier = "the tools-version line is missing a version specifier"
    for (index, line) in lines.enumerated() {
      let trimmed = line.drop { $0.isWhitespace }
      if inBlockComment || trimmed.hasPrefix("/*") {
        sawComment = true
        inBlockComment = !trimmed.contains("*/")
        continue
      }
      if trimmed.allSatisfy(\.isWhitespace) { continue }
      guard trimmed.hasPrefix("//") else { return sawComment ? .malformed(noSpecifier) : .missing }
      sawComment = true
      let comment = trimmed.dropFirst(2).drop { $0.isWhitespace }
      let label = "swift-tools-version:"
      guard comment.lowercased().hasPrefix(label) else { continue }
      let specifier = comment.dropFirst(label.count).drop { $0.isWhitespace }
        .prefix { $0 != ";" && !$0.isWhitespace }
      let parts = specifier.split(separator: ".", omittingEmptySubsequences: false)
      let numbers = parts.compactMap { part in part.allSatisfy(\.isASCII) && !part.isEmpty ? Int(part) : nil }
      guard (2...3).contains(parts.count), numbers.count == parts.count else {
        return .malformed("the tools version `\(specifier)` is not valid")
      }
      if index > 0, compare(numbers, [6]) < 0 {
        return .malformed("a tools version before 6.0 must be on the manifest's first line")
      }
      return .version(padded(numbers))
    }
    return sawComment ? .malformed(noSpecifier) : .missing
  }

  /// Whether a file name (not a path) is `Package.swift` or a `Package@swift-X[.Y[.Z]].swift`.
  public static func isManifestName(_ name: String) -> Bool {
    name == "Package.swift" || version(ofManifest: name) != nil
  }

  /// The version of a `Package@swift-X[.Y[.Z]].swift` file name, nil for any other name.
  static func version(ofManifest name: String) -> [Int]? {
    let prefix = "Package@swift-"
    let suffix = ".swift"
    guard name.hasPrefix(prefix), name.hasSuffix(suffix), name.count > prefix.count + suffix.count else {
      return nil
    }
    let text = name.dropFirst(prefix.count).dropLast(suffix.count)
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    guard (1...3).contains(parts.count) else { return nil }
    let numbers = parts.compactMap { part in part.allSatisfy(\.isASCII) ? Int(part) : nil }
    return numbers.count == parts.count ? numbers : nil
  }

  /// The numeric components of the first `Swift version X.Y[.Z]` in `swift --version` output.
  public static func swiftVersion(fromVersionOutput text: String) -> [Int]? {
    guard let range = text.range(of: "Swift version ") else { return nil }
    let digits = text[range.upperBound...].prefix { $0.isNumber || $0 == "." }
    let numbers = digits.split(separator: ".").compactMap { Int($0) }
    return numbers.isEmpty ? nil : numbers
  }

  /// `6.1` for [6, 1, 0], `6.1.2` for [6, 1, 2].
  public static func text(of version: [Int]) -> String {
    let shown = version.count > 2 && version[2] == 0 ? Array(version.prefix(2)) : version
    return shown.map(String.init).joined(separator: ".")
  }

  /// Compares versions as SwiftPM does, missing components being 0.
  static func compare(_ lhs: [Int], _ rhs: [Int]) -> Int {
    for index in 0..<max(lhs.count, rhs.count) {
      let l = index < lhs.count ? lhs[index] : 0
      let r = index < rhs.count ? rhs[index] : 0
      if l != r { return l < r ? -1 : 1 }
    }
    return 0
  }

  static func padded(_ version: [Int]) -> [Int] {
    Array((version + [0, 0, 0]).prefix(3))
  }
}
