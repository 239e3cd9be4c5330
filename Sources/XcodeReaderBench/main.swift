// `make bench` (scripts/bench.py, xcode section): Ripple's `project.pbxproj` reader measured alone against
// Foundation's `PropertyListSerialization`, on the same bytes in the same process. Not part of `ripple`.
//
//   XcodeReaderBench <project.pbxproj> [runs]
//
// Prints one JSON line: the file's size, the median seconds of each reader over `runs` (default 7, the
// readers alternating), and whether both read the file (Foundation's values are not converted: each
// reader's own output is timed).
import Foundation
import XcodeModel

let arguments = CommandLine.arguments
guard arguments.count >= 2, let data = FileManager.default.contents(atPath: arguments[1]) else {
  FileHandle.standardError.write(Data("usage: XcodeReaderBench <project.pbxproj> [runs]\n".utf8))
  exit(2)
}
let runs = arguments.count >= 3 ? max(1, Int(arguments[2]) ?? 7) : 7
let bytes = [UInt8](data)

/// One timed call of `read`: reading only, the result freed after the clock stops (for both readers
/// alike), then `count` tells how many objects it read.
func time<Value>(_ read: () -> Value?, count: (Value) -> Int) -> (seconds: Double, size: Int) {
  let start = DispatchTime.now().uptimeNanoseconds
  let value = read()
  let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
  return (seconds, value.map(count) ?? -1)
}

// The two readers alternate, run by run, so that a machine busy with other work slows both alike (all of
// one reader's runs, then all of the other's, let a change of load decide the ratio); medians of each.
var rippleTimes: [Double] = []
var foundationTimes: [Double] = []
var rippleSize = -1
var foundationSize = -1
for _ in 0..<runs {
  let ripple = time({ try? OpenStepPlist.parse(bytes) }, count: { $0["objects"]?.dictionary?.count ?? -1 })
  rippleTimes.append(ripple.seconds)
  rippleSize = ripple.size
  let foundation = time(
    { try? PropertyListSerialization.propertyList(from: data, options: [], format: nil) },
    count: { (($0 as? [String: Any])?["objects"] as? [String: Any])?.count ?? -1 })
  foundationTimes.append(foundation.seconds)
  foundationSize = foundation.size
}
func median(_ times: [Double]) -> Double { times.sorted()[times.count / 2] }
print(
  "{\"bytes\": \(bytes.count), \"runs\": \(runs), \"ripple\": \(median(rippleTimes)), "
    + "\"foundation\": \(median(foundationTimes)), \"rippleObjects\": \(rippleSize), "
    + "\"foundationObjects\": \(foundationSize)}")
