import Foundation
import RippleCore
import SourceChanges

/// Part of a repository file a test executed: a function's lines, or the whole file where functions could not be
/// told apart.
public struct CoveredRegion: Sendable, Hashable, Comparable {
  /// Relative to the repository root.
  public var file: String
  /// Nil: the whole file.
  public var lines: LineRange?

  public init(file: String, lines: LineRange?) {
    self.file = file
    self.lines = lines
  }

  public static func < (a: CoveredRegion, b: CoveredRegion) -> Bool {
    (a.file, a.lines?.first ?? 0, a.lines?.last ?? 0) < (b.file, b.lines?.first ?? 0, b.lines?.last ?? 0)
  }
}

/// For one test target at one key: which functions each of its tests executed (pure).
///
/// Made by a mapping run (each test in its own process with its own profile), stored beside the target's pass
/// record. Its JSON is canonical (the same map is the same bytes): files and regions are tables in sorted order,
/// each test names its regions by index, keys are sorted.
public struct CoverageMap: Sendable, Hashable {
  public static let schemaVersion = 1

  public var target: String
  /// The target's content key at which the map was made.
  public var key: String
  public var tests: [TestID: Set<CoveredRegion>]
  /// Tests the mapping run listed but could not map, with why (it crashed, its profile was refused).
  public var unmapped: [TestID: String]

  public init(
    target: String, key: String, tests: [TestID: Set<CoveredRegion>], unmapped: [TestID: String] = [:]
  ) {
    self.target = target
    self.key = key
    self.tests = tests
    self.unmapped = unmapped
  }

  /// Test-region pairs: what the entry limit counts.
  public var entryCount: Int { tests.values.reduce(0) { $0 + $1.count } + unmapped.count }

  /// The bounds a store puts on one map.
  public struct Limits: Sendable, Hashable {
    public var maxBytes: Int
    public var maxEntries: Int

    public init(maxBytes: Int = 16 << 20, maxEntries: Int = 2_000_000) {
      self.maxBytes = maxBytes
      self.maxEntries = maxEntries
    }
  }

  /// Canonical JSON, refused when over a limit.
  public func encoded(limits: Limits = Limits()) throws(CoverageMapError) -> Data {
    guard entryCount <= limits.maxEntries else {
      throw .tooLarge(target: target, size: entryCount, limit: limits.maxEntries, unit: "entries")
    }
    let document = Document(self)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let data: Data
    do { data = try encoder.encode(document) } catch {
      throw .unreadable(target: target, detail: "it could not be encoded: \(error)")
    }
    guard data.count <= limits.maxBytes else {
      throw .tooLarge(target: target, size: data.count, limit: limits.maxBytes, unit: "bytes")
    }
    return data
  }

  /// Reads a stored map; `origin` names it in errors (a store entry, a file).
  public static func decode(_ data: Data, origin: String, limits: Limits = Limits()) throws(CoverageMapError)
    -> CoverageMap
  {
    guard data.count <= limits.maxBytes else {
      throw .tooLarge(target: origin, size: data.count, limit: limits.maxBytes, unit: "bytes")
    }
    let document: Document
    do {
      let version = try JSONDecoder().decode(Version.self, from: data).schemaVersion
      guard version == schemaVersion else { throw CoverageMapError.unsupportedSchema(origin: origin, version: version) }
      document = try JSONDecoder().decode(Document.self, from: data)
    } catch let error as CoverageMapError {
      throw error
    } catch {
      throw .unreadable(target: origin, detail: "it is not a coverage map: \(error)")
    }
    let map = try document.map(origin: origin)
    guard map.entryCount <= limits.maxEntries else {
      throw .tooLarge(target: origin, size: map.entryCount, limit: limits.maxEntries, unit: "entries")
    }
    return map
  }

  private struct Version: Decodable { var schemaVersion: Int }

  /// The stored form: `regions` are `[file index, first line, last line]` or `[file index]` (the whole file).
  private struct Document: Codable {
    var schemaVersion: Int
    var target: String
    var key: String
    var files: [String]
    var regions: [[Int]]
    var tests: [String: [Int]]
    var unmapped: [String: String]

    init(_ map: CoverageMap) {
      let regions = Set(map.tests.values.flatMap { $0 }).sorted()
      let files = Array(Set(regions.map(\.file))).sorted()
      let fileIndex = Dictionary(uniqueKeysWithValues: files.enumerated().map { ($1, $0) })
      let regionIndex = Dictionary(uniqueKeysWithValues: regions.enumerated().map { ($1, $0) })
      schemaVersion = CoverageMap.schemaVersion
      target = map.target
      key = map.key
      self.files = files
      self.regions = regions.map { region in
        [fileIndex[region.file]!] + (region.lines.map { [$0.first, $0.last] } ?? [])
      }
      tests = Dictionary(uniqueKeysWithValues: map.tests.map { ($0.id, $1.map { regionIndex[$0]! }.sorted()) })
      unmapped = Dictionary(uniqueKeysWithValues: map.unmapped.map { ($0.id, $1) })
    }

    func map(origin: String) throws(CoverageMapError) -> CoverageMap {
      var table: [CoveredRegion] = []
      for entry in regions {
        guard let index = entry.first, files.indices.contains(index), entry.count == 1 || entry.count == 3 else {
          throw .unreadable(target: origin, detail: "region \(entry) names no file")
        }
        if entry.count == 1 {
          table.append(CoveredRegion(file: files[index], lines: nil))
        } else {
          guard entry[1] >= 1, entry[2] >= entry[1] else {
            throw .unreadable(target: origin, detail: "region \(entry) has no valid lines")
          }
          table.append(CoveredRegion(file: files[index], lines: LineRange(entry[1], entry[2])))
        }
      }
      var tests: [TestID: Set<CoveredRegion>] = [:]
      for (id, indices) in self.tests {
        guard indices.allSatisfy(table.indices.contains) else {
          throw .unreadable(target: origin, detail: "test `\(id)` names a region that is not in the map")
        }
        tests[TestID(id)] = Set(indices.map { table[$0] })
      }
      return CoverageMap(
        target: target, key: key, tests: tests,
        unmapped: Dictionary(uniqueKeysWithValues: unmapped.map { (TestID($0), $1) }))
    }
  }
}

public enum CoverageMapError: RippleError, Equatable {
  case tooLarge(target: String, size: Int, limit: Int, unit: String)
  case unsupportedSchema(origin: String, version: Int)
  case unreadable(target: String, detail: String)

  public var category: ErrorCategory {
    switch self {
    case .tooLarge: .usage
    case .unsupportedSchema, .unreadable: .environment
    }
  }

  public var description: String {
    switch self {
    case .tooLarge(let target, let size, let limit, let unit):
      "the coverage map of \(target) has \(size) \(unit), over the store's limit of \(limit): it is not stored and "
        + "\(target) runs whole; raise the limit or split the target"
    case .unsupportedSchema(let origin, let version):
      "the coverage map \(origin) has schema version \(version), this Ripple reads \(CoverageMap.schemaVersion): "
        + "map the target again with this version"
    case .unreadable(let target, let detail):
      "the coverage map of \(target) cannot be read: \(detail); map the target again"
    }
  }
}
