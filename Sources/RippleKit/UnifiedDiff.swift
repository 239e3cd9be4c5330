/// A unified diff of two texts (`diff -u` with 3 lines of context), for `ripple init --dry-run`. The files init
/// writes are small (a config, a .gitignore, a workflow), so a longest-common-subsequence table is enough.
public enum UnifiedDiff {
  /// `old` nil: a new file (`--- /dev/null`). Empty when the texts are equal.
  public static func render(path: String, old: String?, new: String, context: Int = 3) -> String {
    let a = lines(old ?? "")
    let b = lines(new)
    if a == b && old != nil { return "" }
    let edits = script(a, b)
    var out = "--- \(old == nil ? "/dev/null" : "a/" + path)\n+++ b/\(path)\n"
    // Hunks: runs of edits with up to `context` equal lines around them, merged when they touch.
    var index = 0
    while index < edits.count {
      guard let firstChange = edits[index...].firstIndex(where: { $0.kind != .same }) else { break }
      let start = max(index, firstChange - context)
      var end = firstChange
      while end < edits.count {
        guard let next = edits[end...].firstIndex(where: { $0.kind != .same }) else { break }
        if next - end > 2 * context && end != firstChange { break }
        end = edits[next...].firstIndex(where: { $0.kind == .same }) ?? edits.count
      }
      let stop = min(edits.count, end + context)
      let hunk = edits[start..<stop]
      let oldStart = hunk.first.map { $0.oldLine } ?? 0
      let newStart = hunk.first.map { $0.newLine } ?? 0
      let oldCount = hunk.filter { $0.kind != .insert }.count
      let newCount = hunk.filter { $0.kind != .delete }.count
      out += "@@ -\(range(oldStart, oldCount)) +\(range(newStart, newCount)) @@\n"
      for edit in hunk {
        out += (edit.kind == .same ? " " : edit.kind == .delete ? "-" : "+") + edit.text + "\n"
      }
      index = stop
    }
    return out
  }

  private static func range(_ start: Int, _ count: Int) -> String {
    // diff's convention: a line number is 1-based; an empty range names the line before it.
    count == 0 ? "\(start),0" : count == 1 ? "\(start + 1)" : "\(start + 1),\(count)"
  }

  private static func lines(_ text: String) -> [String] {
    var parts = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    if parts.last == "" { parts.removeLast() }
    return parts
  }

  private struct Edit {
    enum Kind { case same, delete, insert }
    var kind: Kind
    var text: String
    /// Lines of old and new before this one (0-based positions).
    var oldLine: Int
    var newLine: Int
  }

  private static func script(_ a: [String], _ b: [String]) -> [Edit] {
    let n = a.count
    let m = b.count
    var table = [[Int]](repeating: [Int](repeating: 0, count: m + 1), count: n + 1)
    for i in stride(from: n - 1, through: 0, by: -1) {
      for j in stride(from: m - 1, through: 0, by: -1) {
        table[i][j] = a[i] == b[j] ? table[i + 1][j + 1] + 1 : max(table[i + 1][j], table[i][j + 1])
      }
    }
    var edits: [Edit] = []
    var i = 0
    var j = 0
    while i < n || j < m {
      if i < n && j < m && a[i] == b[j] {
        edits.append(Edit(kind: .same, text: a[i], oldLine: i, newLine: j))
        i += 1
        j += 1
      } else if i < n && (j == m || table[i + 1][j] >= table[i][j + 1]) {
        // Deletions before insertions, as diff prints them.
        edits.append(Edit(kind: .delete, text: a[i], oldLine: i, newLine: j))
        i += 1
      } else {
        edits.append(Edit(kind: .insert, text: b[j], oldLine: i, newLine: j))
        j += 1
      }
    }
    return edits
  }
}
