// `make bench` (scripts/bench.py, xcode section): Ripple's `project.pbxproj` reader measured alone against
// Foundation's `PropertyListSerialization`, on the same bytes in the same process. Not part of `ripple`.
//
//   XcodeReaderBench <project.pbxproj> [runs]
//
// Prints one JSON line: the file's size, the median seconds of each reader over `runs` (default 7), and
// whether both read the file (Foundation's values are not converted: each reader's own output is timed).
import Foundation
import XcodeModel

let arguments = CommandLine.arguments
guard arguments.count >= 2, let data = FileManager.default.contents(atPath: arguments[1]) else {
  FileHandle.standardError.write(Data("usage: XcodeReaderBench <project.pbxproj> [runs]\n".utf8))
  exit(2)
}
let runs = arguments.count >= 3 ? max(1, Int(arguments[2]) ?? 7) : 7
let bytes = [UInt8](data)

/// The median wall time of `runs` calls of `read`: reading only, each result freed after the clock stops
/// (for both readers alike), then `count` tells how many objects it read.
func median<Value>(_ read: () -> Value?, count: (Value) -> Int) -> (seconds: Double, size: Int) {
  var times: [Double] = []
  var size = -1
  for _ in 0..<runs {
    let start = DispatchTime.now().uptimeNanoseconds
    let value = read()
    times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    size = value.map(count) ?? -1
  }
  return (times.sorted()[times.count / 2], size)
}

let ripple = median({ try? OpenStepPlist.parse(bytes) }, count: { $0["objects"]?.dictionary?.count ?? -1 })
let foundation = median(
  { try? PropertyListSerialization.propertyList(from: data, options: [], format: nil) },
  count: { (($0 as? [String: Any])?["objects"] as? [String: Any])?.count ?? -1 })
print(
  "{\"bytes\": \(bytes.count), \"runs\": \(runs), \"ripple\": \(ripple.seconds), \"foundation\": \(foundation.seconds), "
    + "\"rippleObjects\": \(ripple.size), \"foundationObjects\": \(foundation.size)}")
