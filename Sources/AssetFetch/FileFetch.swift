import Foundation

/// `file` sources: a streamed copy with progress. Relative paths resolve against the repository root.
enum FileFetch {
  static let chunkSize = 1 << 20

  /// Copies chunk by chunk, checking between chunks that the run was not cancelled (rippled's `runTimeout`
  /// cancels the run; a 3 GB copy must not outlive it) and that no more than `size:` bytes arrived (a file
  /// that grows, or a device, would otherwise be copied until the disk is full).
  static func copy(
    path: String, request: FetchRequest, options: FetchOptions, progress: @Sendable (FetchProgress) -> Void
  ) throws -> FetchResult {
    let asset = request.assetID
    let source = try existingFile(path, assetID: asset, options: options)
    guard let input = FileHandle(forReadingAtPath: source) else {
      throw FetchError(
        .localFile, assetID: asset, "asset '\(asset)': cannot read \(source); check its permissions")
    }
    defer { try? input.close() }
    let total = ((try? FileManager.default.attributesOfItem(atPath: source)[.size]) as? NSNumber)?.int64Value
    let limit = request.expectedSize
    if let limit, let total, total > limit { throw tooLarge(asset, source: source, limit: limit) }

    let output: FileHandle
    do {
      guard FileManager.default.createFile(atPath: request.destination, contents: nil),
        let handle = FileHandle(forWritingAtPath: request.destination)
      else { throw CocoaError(.fileWriteNoPermission) }
      output = handle
    } catch {
      throw copyFailed(asset, source: source, destination: request.destination, error)
    }
    defer { try? output.close() }
    var copied: Int64 = 0
    progress(FetchProgress(assetID: asset, receivedBytes: 0, totalBytes: total))
    while true {
      try Task.checkCancellation()
      let chunk: Data
      do {
        guard let read = try input.read(upToCount: chunkSize), !read.isEmpty else { break }
        chunk = read
      } catch {
        throw copyFailed(asset, source: source, destination: request.destination, error)
      }
      if let limit, copied + Int64(chunk.count) > limit { throw tooLarge(asset, source: source, limit: limit) }
      do {
        try output.write(contentsOf: chunk)
      } catch {
        throw copyFailed(asset, source: source, destination: request.destination, error)
      }
      copied += Int64(chunk.count)
      progress(FetchProgress(assetID: asset, receivedBytes: copied, totalBytes: total))
    }
    return FetchResult(bytes: copied, origin: source)
  }

  private static func tooLarge(_ asset: String, source: String, limit: Int64) -> FetchError {
    FetchError(
      .sizeMismatch, assetID: asset,
      "asset '\(asset)': \(source) holds more than the \(limit) bytes its `size` says; copying stopped. "
        + "Check `size` (and `sha256`) in ripple.yml against the file")
  }

  private static func copyFailed(_ asset: String, source: String, destination: String, _ error: any Error)
    -> FetchError
  {
    FetchError(
      .localFile, assetID: asset,
      "asset '\(asset)': copying \(source) to \(destination) failed (\(error)); check free disk space and permissions")
  }

  /// The resolved path of a `file` source that names an existing file the scope allows; a missing path is a
  /// misconfiguration (exit 2), never "no access", and so is a path outside the scope.
  static func existingFile(_ path: String, assetID asset: String, options: FetchOptions) throws(FetchError)
    -> String
  {
    let source: String
    switch options.fileSources {
    case .anywhere: source = resolve(path, root: options.repositoryRoot)
    case .confined(let folders):
      source = try FileSourceConfinement(repositoryRoot: options.repositoryRoot, folders: folders)
        .allowedPath(path, assetID: asset)
    }
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
    if case .confined(let folders) = options.fileSources {
      try FileSourceConfinement(repositoryRoot: options.repositoryRoot, folders: folders)
        .checkRealPath(of: source, written: path, assetID: asset)
    }
    return source
  }

  static func resolve(_ path: String, root: String) -> String {
    if path.hasPrefix("/") { return path }
    if path == "~" || path.hasPrefix("~/") { return NSHomeDirectory() + path.dropFirst(1) }
    return URL(fileURLWithPath: root).appendingPathComponent(path).standardizedFileURL.path
  }
}
