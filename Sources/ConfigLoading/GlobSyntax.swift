import RippleConfig
import RippleCore

/// Checks the syntax of a `ripple.yml` glob before it becomes a `Glob`, which matches leniently.
enum GlobSyntax {
  /// A description of what is wrong with `pattern`, or nil when it is valid.
  static func problem(in pattern: String) -> String? {
    if pattern.isEmpty { return "an empty glob matches nothing" }
    let scalars = Array(pattern.unicodeScalars)
    var index = 0
    while index < scalars.count {
      if scalars[index] == "[" {
        guard let close = classEnd(scalars, openingAt: index) else {
          return "`[` at offset \(index) in `\(pattern)` is never closed by `]`"
        }
        index = close
      }
      index += 1
    }
    return nil
  }

  /// The index of the `]` closing the class opened at `open`, or nil. A `]` right after `[`, `[!` or `[^`
  /// is a literal member; a class never spans a `/`.
  private static func classEnd(_ scalars: [Unicode.Scalar], openingAt open: Int) -> Int? {
    var index = open + 1
    if index < scalars.count, scalars[index] == "!" || scalars[index] == "^" { index += 1 }
    if index < scalars.count, scalars[index] == "]" { index += 1 }
    while index < scalars.count {
      switch scalars[index] {
      case "]": return index
      case "/": return nil
      default: index += 1
      }
    }
    return nil
  }
}
