import Clibarchive

/// Facts about the libarchive Ripple runs with.
public enum ArchiveLibrary {
  /// The run-time version with its compression libraries, e.g. "libarchive 3.6.2 zlib/1.2.13 liblzma/5.4.1".
  public static var version: String { String(cString: archive_version_details()) }
}
