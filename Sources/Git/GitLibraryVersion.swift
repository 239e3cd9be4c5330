import Clibgit2

/// Facts about the libgit2 Ripple is linked against.
public enum GitLibrary {
  /// The runtime version, e.g. "1.5.1".
  public static var version: String {
    var major: Int32 = 0
    var minor: Int32 = 0
    var revision: Int32 = 0
    git_libgit2_version(&major, &minor, &revision)
    return "\(major).\(minor).\(revision)"
  }
}
