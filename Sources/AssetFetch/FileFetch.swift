import Foundation

/// `file` sources: a streamed copy with progress. Relative paths resolve against the repository root.
enum FileFetch {
  static let chunkSize = 1 << 20

  static func copy(
    path: String, request: FetchRequest, options: FetchOptions, progress: @Sendable (FetchProgress) -> Void
  )
    throws(FetchError) -> FetchResult
  {
    let asset = request.assetID
    let source = try existingFile(path, assetID: asset, root: options.repositoryRoot)
    guard let input = FileHandle(forReadingAtPath: source) else {
      throw FetchError(
        .localFile, assetID: asset, "asset '\(asset)': cannot read \(source); check its permissions")
    }
    defer { try? input.close() }
    let total = ((try? FileManager.default.attributesOfItem(atPath: source)[.size]) as? NSNumber)?.int64Value

    do {
      guard FileManager.default.createFile(atPath: request.destination, contents: nil),
        let output = FileHandle(forWritingAtPath: request.destination)
      else { throw CocoaError(.fileWriteNoPermission) }
      defer { try? output.close() }
      var copied: Int64 = 0
      progress(FetchProgress(assetID: asset, receivedBytes: 0, totalBytes: total))
      while let chunk = try input.read(upToCount: chunkSize), !chunk.isEmpty {
        try output.write(contentsOf: chunk)
        copied += Int64(chunk.count)
        progress(FetchProgress(assetID: asset, receivedBytes: copied, totalBytes: total))
      }
      return FetchResult(bytes: copied, origin: source)
    } catch {
      throw FetchError(
        .localFile, assetID: asset,
        "asset '\(asset)': copying \(source) to \(request.destination) failed (\(error)); "
          + "check free disk space and permissions")
    }
  }

  /// The resolved path of a `file` source that names an existing file; a missing path is a misconfiguration
  /// (exit 2), never "no access".
  static func existingFile(_ path: String, assetID asset: String, root: String) throws(FetchError) -> String {
    let source = resolve(path, root: root)
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: source, isDirectory: &isDirectory) else {
      throw FetchError(
        .missingFile, assetID: asset,
        "asset '\(asset)': the file \(source) does not exist; check the `file` path in ripple.yml "
          + "(relative paths start at the repository root) or mount the share that holds it")
    }
    guard !isDirectory.boolValue else {
      throw FetchError(
        .invalidSource, assetID: asset,
        "asset '\(asset)': \(source) is a directory; a file source must name one file (an archive for many files)")
    }
    return source
  }

  static func resolve(_ path: String, root: String) -> String {
    if path.hasPrefix("/") { return path }
    if path == "~" || path.hasPrefix("~/") { return NSHomeDirectory() + path.dropFirst(1) }
    return URL(fileURLWithPath: root).appendingPathComponent(path).standardizedFileURL.path
  }
}
