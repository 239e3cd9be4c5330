import Foundation

/// The one way Ripple turns a name (a package path, a test run's name, a branch) into a folder or file name.
public enum PathComponent {
  /// `name` as one path component every tool accepts: ASCII letters, digits, `-` and `.` are kept, every
  /// other byte becomes `_XX` (its hex value), so `a/b` is `a_2Fb`, `a_b` is `a_5Fb` and `a b` is `a_20b`.
  ///
  /// - Never `%`: clang's module cache and the Swift toolchain fail on paths with it.
  /// - Never `/`, never a leading `.` (`.`, `..` and hidden names become `_2E…`), never empty (`_`).
  /// - Distinct names give distinct results (`_` itself is escaped), so two packages, runs or branches
  ///   never share a folder.
  public static func escaped(_ name: String) -> String {
    guard !name.isEmpty else { return "_" }
    var out = ""
    for (index, byte) in name.utf8.enumerated() {
      let scalar = Unicode.Scalar(byte)
      let kept =
        byte < 0x80 && (CharacterSet.alphanumerics.contains(scalar) || scalar == "-" || (scalar == "." && index > 0))
      if kept { out.unicodeScalars.append(scalar) } else { out += String(format: "_%02X", byte) }
    }
    return out
  }
}
