import Foundation
import PackageModel
import RippleCore
import SystemClients
import Testing

@testable import PackageLoading

/// Asks the real `swift package dump-package` which manifest it reads, over a table of layouts, and checks
/// that Ripple's choice (`ManifestSelection.choose`, and the loader's `manifestFile`) agrees on every one.
/// One package per layout, all loaded by one `GraphLoader` call, so the dump-package runs overlap.
@Suite struct ManifestChoiceDifferentialTests {
  /// A layout: file name → its `swift-tools-version` specifier ("none": a comment without one; "code":
  /// no comment before the code; "late X": the tools version on the second line).
  struct Layout: Sendable {
    var name: String
    var files: [String: String]
  }

  static let layouts: [Layout] = [
    Layout(name: "only-package-swift", files: ["Package.swift": "6.0"]),
    Layout(name: "newer-version-specific", files: ["Package.swift": "6.0", "Package@swift-6.1.swift": "6.1"]),
    Layout(name: "older-version-specific", files: ["Package.swift": "6.2", "Package@swift-6.1.swift": "6.1"]),
    Layout(name: "equal-tools-versions", files: ["Package.swift": "6.1", "Package@swift-6.1.swift": "6.1"]),
    Layout(name: "x-name", files: ["Package.swift": "5.9", "Package@swift-5.swift": "5.10"]),
    Layout(name: "x-y-z-name", files: ["Package.swift": "6.0", "Package@swift-6.2.1.swift": "6.2"]),
    Layout(
      name: "several-candidates",
      files: [
        "Package.swift": "5.9", "Package@swift-5.10.swift": "5.10", "Package@swift-6.0.swift": "6.0",
        "Package@swift-6.2.swift": "6.2",
      ]),
    Layout(name: "own-version-x-y-z", files: ["Package.swift": "6.2", "Package@swift-6.3.1.swift": "6.1"]),
    Layout(name: "own-version-x-y", files: ["Package.swift": "6.2", "Package@swift-6.3.swift": "5.9"]),
    Layout(name: "own-version-x", files: ["Package.swift": "6.2", "Package@swift-6.swift": "5.9"]),
    Layout(name: "newer-than-toolchain", files: ["Package.swift": "6.0", "Package@swift-6.4.swift": "6.0"]),
    Layout(name: "package-swift-too-new", files: ["Package.swift": "6.4", "Package@swift-6.1.swift": "6.1"]),
    Layout(name: "malformed-candidate", files: ["Package.swift": "6.0", "Package@swift-6.1.swift": "six"]),
    Layout(name: "malformed-package-swift", files: ["Package.swift": "6.x", "Package@swift-6.1.swift": "6.1"]),
    Layout(name: "malformed-unread-file", files: ["Package.swift": "6.0", "Package@swift-7.swift": "seven"]),
    Layout(name: "comment-without-tools-version", files: ["Package.swift": "none", "Package@swift-6.1.swift": "6.1"]),
    Layout(name: "code-first-is-3-1", files: ["Package.swift": "code", "Package@swift-6.1.swift": "6.1"]),
    Layout(name: "tools-version-on-line-2", files: ["Package.swift": "late 6.2", "Package@swift-6.1.swift": "6.1"]),
  ]

  /// A manifest whose only target names the file, so the graph tells which file SwiftPM read.
  static func manifest(_ file: String, toolsVersion: String) -> String {
    let line: String
    switch toolsVersion {
    case "none": line = "// no tools version here\n"
    case "code": line = ""
    case let late where late.hasPrefix("late "):
      line = "// A comment first.\n// swift-tools-version:\(late.dropFirst(5))\n"
    default: line = "// swift-tools-version:\(toolsVersion)\n"
    }
    return """
      \(line)import PackageDescription

      let package = Package(name: "P", targets: [.target(name: "\(targetName(file))", path: "Sources")])
      """
  }

  static func targetName(_ file: String) -> String {
    "T_" + file.map { $0.isLetter || $0.isNumber ? String($0) : "_" }.joined()
  }

  @Test func rippleReadsTheManifestSwiftPMReadsInEveryLayout() async throws {
    try await withTemporaryDirectory { root in
      var files: [String: String] = [:]
      for layout in Self.layouts {
        for (file, toolsVersion) in layout.files {
          files[layout.name + "/" + file] = Self.manifest(file, toolsVersion: toolsVersion)
        }
      }
      try write(files, under: root)
      let loader = GraphLoader(process: .live, cache: ManifestCache(directory: nil), concurrency: 4)
      let installed = try #require(
        ManifestSelection.swiftVersion(fromVersionOutput: try await loader.toolchainVersion()))
      let loaded = try await loader.loadPartialGraph(
        snapshot(of: root, inPlace: true), environments: [], excludePackages: [])

      var table = ["layout | SwiftPM \(installed.map(String.init).joined(separator: ".")) reads | Ripple chooses"]
      for layout in Self.layouts {
        // SwiftPM's answer: the file named by the target it reported, or its failure.
        let swiftPM: String
        if let package = loaded.graph.package(at: layout.name) {
          let target = try #require(package.targets.first?.name)
          swiftPM = try #require(layout.files.keys.first { Self.targetName($0) == target })
          #expect(package.manifestFile == swiftPM, "the graph names the file read, \(layout.name)")
        } else {
          #expect(loaded.failedPackages.contains(layout.name))
          swiftPM = "error"
        }
        let choice = ManifestSelection.choose(fileNames: Array(layout.files.keys), toolchain: installed) { name in
          ManifestSelection.declaredToolsVersion(in: Array(Self.manifest(name, toolsVersion: layout.files[name]!).utf8))
        }
        let ripple: String
        switch choice {
        case .file(let name): ripple = name
        case .unreadable(let name, _): ripple = "error (\(name))"
        }
        #expect(ripple.hasPrefix("error") == (swiftPM == "error"), "\(layout.name): \(ripple) vs \(swiftPM)")
        if swiftPM != "error" { #expect(ripple == swiftPM, "\(layout.name)") }
        table.append("\(layout.name) | \(swiftPM) | \(ripple)")
      }
      print(table.joined(separator: "\n"))
    }
  }
}
