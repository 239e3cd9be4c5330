import Crypto
import Foundation
import PackageModel

/// What the warm path reads instead of recomputing, beside the manifest documents in the same directory
/// (docs/DESIGN.md, section 7):
///
/// - `graph-<key>.bin`: one side's whole `PackageGraph` (`GraphArchive`), keyed by the manifest keys of
///   every package and the directory listings its target directories were resolved against.
/// - `tree-<tree id>.txt`: the manifests of a git tree (path and blob id each), so that discovery does not
///   walk the tree again; `xcode-<tree id>.txt` and `links-<tree id>.txt` its Xcode markers and symbolic
///   links likewise.
///
/// Both carry a header with the payload's SHA-256 like manifest entries: a corrupt or truncated entry is
/// a miss and is overwritten.
extension ManifestCache {
  static let graphFormat = "ripple-graph-3"
  static let treeFormat = "ripple-tree-1"
  static let xcodeFormat = "ripple-xcode-1"
  static let linksFormat = "ripple-links-1"

  /// The cached graph for `key`, or nil.
  func graph(forKey key: String) -> PackageGraph? {
    guard let payload = readLayered("graph-" + key + ".bin", format: Self.graphFormat) else { return nil }
    return GraphArchive.decode(payload[...])
  }

  func storeGraph(_ graph: PackageGraph, forKey key: String) {
    writeLayered(GraphArchive.encode(graph), "graph-" + key + ".bin", format: Self.graphFormat)
  }

  /// The manifests of the git tree `treeID`, as stored by `storeManifests`, or nil.
  public func manifests(ofTree treeID: String) -> [ManifestFile]? {
    guard let name = treeName(treeID), let payload = readLayered(name, format: Self.treeFormat) else { return nil }
    // Records: blob id, NUL, path, NUL (a path may hold any byte but NUL).
    let fields = payload.split(separator: 0, omittingEmptySubsequences: false)
    guard fields.count % 2 == 1, fields.last?.isEmpty == true else { return nil }
    var result: [ManifestFile] = []
    result.reserveCapacity(fields.count / 2)
    var index = 0
    while index + 1 < fields.count {
      let id = String(decoding: fields[index], as: UTF8.self)
      guard id.utf8.count == 40 else { return nil }
      result.append(ManifestFile(path: String(decoding: fields[index + 1], as: UTF8.self), blobID: id))
      index += 2
    }
    return result
  }

  /// Stores the manifests of a git tree; each must carry its blob id.
  public func storeManifests(_ manifests: [ManifestFile], ofTree treeID: String) {
    guard let name = treeName(treeID), manifests.allSatisfy({ $0.blobID != nil }) else { return }
    var payload: [UInt8] = []
    for manifest in manifests {
      payload.append(contentsOf: manifest.blobID!.utf8)
      payload.append(0)
      payload.append(contentsOf: manifest.path.utf8)
      payload.append(0)
    }
    writeLayered(payload, name, format: Self.treeFormat)
  }

  /// The Xcode markers of a git tree (`TreeSnapshot.xcodeMarkers`), cached like its manifests.
  public func xcodeMarkers(ofTree treeID: String) -> [String]? {
    guard let name = xcodeName(treeID), let payload = readLayered(name, format: Self.xcodeFormat) else { return nil }
    return payload.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
  }

  public func storeXcodeMarkers(_ markers: [String], ofTree treeID: String) {
    guard let name = xcodeName(treeID) else { return }
    var payload: [UInt8] = []
    for marker in markers {
      payload.append(contentsOf: marker.utf8)
      payload.append(0)
    }
    writeLayered(payload, name, format: Self.xcodeFormat)
  }

  /// The symbolic links of a git tree (`TreeSnapshot.symbolicLinks`), cached like its manifests.
  public func symbolicLinks(ofTree treeID: String) -> [SymbolicLink]? {
    guard let name = treeName(treeID).map({ _ in "links-" + treeID + ".txt" }),
      let payload = readLayered(name, format: Self.linksFormat)
    else { return nil }
    // Records: path, NUL, text, NUL (neither holds a NUL).
    let fields = payload.split(separator: 0, omittingEmptySubsequences: false)
    guard fields.count % 2 == 1, fields.last?.isEmpty == true else { return nil }
    return stride(from: 0, to: fields.count - 1, by: 2).map {
      SymbolicLink(
        path: String(decoding: fields[$0], as: UTF8.self), destination: String(decoding: fields[$0 + 1], as: UTF8.self))
    }
  }

  public func storeSymbolicLinks(_ links: [SymbolicLink], ofTree treeID: String) {
    guard treeName(treeID) != nil else { return }
    var payload: [UInt8] = []
    for link in links {
      payload.append(contentsOf: link.path.utf8)
      payload.append(0)
      payload.append(contentsOf: link.destination.utf8)
      payload.append(0)
    }
    writeLayered(payload, "links-" + treeID + ".txt", format: Self.linksFormat)
  }

  private func xcodeName(_ treeID: String) -> String? {
    treeName(treeID) == nil ? nil : "xcode-" + treeID + ".txt"
  }

  /// The file name of a tree's entry; nil for anything but a 40-digit lowercase hex id (or without a cache).
  private func treeName(_ treeID: String) -> String? {
    guard directory != nil, treeID.utf8.count == 40,
      treeID.utf8.allSatisfy({ ($0 >= 48 && $0 <= 57) || ($0 >= 97 && $0 <= 102) })
    else { return nil }
    return "tree-" + treeID + ".txt"
  }

  /// The payload of the entry at `path` when its header names `format` and the payload's checksum.
  static func readEntry(at path: String, format: String) -> [UInt8]? {
    guard let data = FileManager.default.contents(atPath: path),
      let newline = data.firstIndex(of: UInt8(ascii: "\n"))
    else { return nil }
    let header = String(decoding: data[..<newline], as: UTF8.self)
    let payload = Array(data[(newline + 1)...])
    guard header == format + " " + hex(SHA256.hash(data: payload)) else { return nil }
    return payload
  }

  static func writeEntry(_ payload: [UInt8], format: String, to path: String) {
    let header = format + " " + hex(SHA256.hash(data: payload)) + "\n"
    writeAtomically(Array(header.utf8) + payload, to: path)
  }
}
