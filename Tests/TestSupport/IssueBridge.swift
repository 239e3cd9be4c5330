// Only where Swift Testing is: `swift build -c release` without `--product` builds this target too (a regular
// one, so the test targets can share it), and with `--static-swift-stdlib` (swift_static has no Testing) or a
// toolchain without Swift Testing there is no `Testing` module to import.
#if canImport(Testing)
  import Testing

  /// The bridge `IssueReporter` (RippleCore) looks up at run time: a failing double reached in production code
  /// records a Swift Testing issue in the test that reached it. Exported by name from the test binary
  /// (Package.swift: `--export-dynamic-symbol` on TestSupport).
  @_cdecl("ripple_record_issue")
  public func rippleRecordIssue(_ message: UnsafePointer<CChar>, _ fileID: UnsafePointer<CChar>, _ line: Int) {
    let file = String(cString: fileID)
    Issue.record(
      Comment(rawValue: String(cString: message)),
      sourceLocation: SourceLocation(fileID: file, filePath: file, line: line, column: 1))
  }
#endif
