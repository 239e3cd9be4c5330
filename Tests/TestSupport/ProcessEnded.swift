import Foundation

/// Whether `pid` has ended: gone, or a zombie its parent has not reaped yet (which still answers `kill(pid, 0)`).
/// Linux reads the state from `/proc`; elsewhere only a reaped process counts.
public func processHasEnded(_ pid: Int32) -> Bool {
  guard kill(pid, 0) == 0 else { return true }
  #if os(Linux)
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let close = stat.lastIndex(of: ")")
    else { return true }  // reaped between the two looks
    return stat[stat.index(after: close)...].split(separator: " ").first == "Z"
  #else
    return false
  #endif
}
