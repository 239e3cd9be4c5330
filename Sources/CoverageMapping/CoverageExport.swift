import Foundation
import SourceChanges
import TestImpact

/// The functions one profile executed, read from `llvm-cov export -format=text` (pure).
///
/// The export's `data[0].functions` lists every instrumented function of the binary with its execution `count`, its
/// `filenames` and its `regions` (`[line start, column start, line end, column end, count, file id, expanded file
/// id, kind]`). A function counts when its count is above zero; its lines span its regions in its own file (file id
/// 0). Files outside the repository and under a `.build` folder (SwiftPM's generated test runner) are left out.
public enum CoverageExport {
  public static func executedRegions(_ json: Data, repositoryRoot: String) throws(CoverageExportError) -> Set<
    CoveredRegion
  > {
    let export: Export
    do { export = try JSONDecoder().decode(Export.self, from: json) } catch {
      throw CoverageExportError(detail: "it is not llvm-cov's JSON export: \(error)")
    }
    guard export.type == "llvm.coverage.json.export", let data = export.data.first else {
      throw CoverageExportError(detail: "it is of type \(export.type) with \(export.data.count) data entries")
    }
    let root = repositoryRoot.hasSuffix("/") ? repositoryRoot : repositoryRoot + "/"
    var regions: Set<CoveredRegion> = []
    for function in data.functions where function.count > 0 {
      guard let file = function.filenames.first, file.hasPrefix(root) else { continue }
      let relative = String(file.dropFirst(root.count))
      guard !relative.split(separator: "/").contains(".build") else { continue }
      let own = function.regions.filter { $0.count >= 6 && $0[5] == 0 }
      guard let first = own.map({ $0[0] }).min(), let last = own.map({ $0[2] }).max(), first >= 1 else { continue }
      regions.insert(CoveredRegion(file: relative, lines: LineRange(first, last)))
    }
    return regions
  }

  private struct Export: Decodable {
    var type: String
    var data: [DataEntry]
  }

  private struct DataEntry: Decodable {
    var functions: [Function]
  }

  private struct Function: Decodable {
    var count: Int
    var filenames: [String]
    var regions: [[Int]]
  }
}

public struct CoverageExportError: Error, Equatable, CustomStringConvertible {
  public var detail: String
  public var description: String { "llvm-cov's export cannot be read: \(detail)" }
}

/// Profile and binary identity: a profile is merged only with the binary that wrote it (pure).
public enum BinaryIdentity {
  /// The ids `llvm-profdata show --binary-ids` prints after `Binary IDs:`.
  public static func profileBinaryIDs(_ showOutput: String) -> [String] {
    let lines = showOutput.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
    guard let start = lines.firstIndex(of: "Binary IDs:") else { return [] }
    return lines[(start + 1)...].prefix { $0.allSatisfy(\.isHexDigit) && !$0.isEmpty }.map { $0.lowercased() }
  }

  /// The GNU build id of an ELF file (`NT_GNU_BUILD_ID`), lower-case hex; nil when it is not a 64-bit
  /// little-endian ELF file or has none.
  public static func elfBuildID(_ data: Data) -> String? {
    // In place: a mapped binary is touched only where its section table and notes are.
    data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> String? in
      guard bytes.count >= 64, Array(bytes[0..<4]) == [0x7F, 0x45, 0x4C, 0x46], bytes[4] == 2, bytes[5] == 1 else {
        return nil
      }
      func integer(_ offset: Int, _ size: Int) -> Int? {
        guard offset >= 0, offset + size <= bytes.count else { return nil }
        return (0..<size).reduce(0) { $0 | Int(bytes[offset + $1]) << (8 * $1) }
      }
      guard let sectionTable = integer(0x28, 8), let entrySize = integer(0x3A, 2), let count = integer(0x3C, 2)
      else { return nil }
      for index in 0..<count {
        let header = sectionTable + index * entrySize
        guard let type = integer(header + 4, 4), type == 7,  // SHT_NOTE
          let offset = integer(header + 0x18, 8), let size = integer(header + 0x20, 8)
        else { continue }
        var note = offset
        while note + 12 <= offset + size {
          guard let nameSize = integer(note, 4), let descriptionSize = integer(note + 4, 4),
            let noteType = integer(note + 8, 4)
          else { break }
          let name = note + 12
          let description = name + ((nameSize + 3) & ~3)
          guard name + 3 <= bytes.count, description + descriptionSize <= bytes.count else { break }
          if noteType == 3 && nameSize == 4 && Array(bytes[name..<name + 3]) == [0x47, 0x4E, 0x55] {  // "GNU"
            return bytes[description..<description + descriptionSize].map { String(format: "%02x", $0) }.joined()
          }
          note = description + ((descriptionSize + 3) & ~3)
        }
      }
      return nil
    }
  }
}
