import Foundation
import PackageModel
import RippleCore

/// Renders an `AffectedReport` in the formats of `ripple affected --format …`. Pure: strings out.
public enum AffectedFormatter {
  /// `--format json`: the schema-1 document, pretty-printed with sorted keys.
  public static func json(_ report: AffectedReport) -> String {
    // A list of 10⁶ changed files is most of the document, and JSONEncoder's generic containers cost more than
    // finding the targets: those entries are written here, byte for byte as JSONEncoder writes them (tested
    // against it), into the rest as JSONEncoder wrote it.
    guard report.changedFiles.count > 1_000 else { return encode(report, pretty: true) }
    var rest = report
    rest.changedFiles = []
    let text = encode(rest, pretty: true)
    let empty = "\n  \"changedFiles\" : [\n\n  ],\n"
    guard let slot = text.range(of: empty), let entries = prettyEntries(report.changedFiles) else {
      return encode(report, pretty: true)
    }
    return text[..<slot.lowerBound] + "\n  \"changedFiles\" : [\n" + entries + "\n  ],\n" + text[slot.upperBound...]
  }

  /// `--format json` with `extra`'s keys beside the report's (`ripple affected --granularity test` adds
  /// `belowTarget`): `extra` encodes a keyed container whose keys the report does not use.
  public static func json(_ report: AffectedReport, adding extra: some Encodable) -> String {
    encode(ReportWithExtra(report: report, extra: extra), pretty: true)
  }

  /// The changed files as the elements of a pretty-printed array two levels deep; nil when a path holds a byte
  /// that JSON escapes (a quote, a backslash, a control character), left to JSONEncoder.
  static func prettyEntries(_ changes: [ChangedFile]) -> String? {
    var out: [UInt8] = []
    out.reserveCapacity(changes.count * 96)
    func string(_ text: String) -> Bool {
      out.append(UInt8(ascii: "\""))
      for byte in text.utf8 {
        if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return false }
        out.append(byte)
      }
      out.append(UInt8(ascii: "\""))
      return true
    }
    for (index, change) in changes.enumerated() {
      out.append(contentsOf: (index == 0 ? "    {\n" : ",\n    {\n").utf8)
      if let old = change.oldPath {
        out.append(contentsOf: "      \"oldPath\" : ".utf8)
        guard string(old) else { return nil }
        out.append(contentsOf: ",\n".utf8)
      }
      out.append(contentsOf: "      \"path\" : ".utf8)
      guard string(change.path) else { return nil }
      out.append(contentsOf: ",\n      \"status\" : \"".utf8)
      out.append(contentsOf: change.status.rawValue.utf8)
      out.append(contentsOf: "\"\n    }".utf8)
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// `--format names`: one test target name per line (sorted by package, then name); "" when none.
  public static func names(_ report: AffectedReport) -> String {
    report.testTargets.map(\.name).joined(separator: "\n")
  }

  /// `--format filter`: the anchored `swift test --filter` regex selecting the test targets, `^(A|B)\.`.
  ///
  /// Nil when no test target is selected: there is no filter that means "nothing" to `swift test`
  /// (an empty filter would run everything), so the caller decides what to do — skip the run, say so.
  /// Xcode test targets are left out: `swift test` cannot run them (`--format xcodebuild` does).
  public static func filter(_ report: AffectedReport) -> String? {
    filter(names: swiftTestTargets(report).map(\.name))
  }

  /// The selected test targets `swift test` can run: those of Swift packages, not of Xcode projects
  /// (whose package path is the `.xcodeproj` bundle; docs/DESIGN.md, rule 12).
  static func swiftTestTargets(_ report: AffectedReport) -> [AffectedReport.TestTargetEntry] {
    report.testTargets.filter { !$0.package.hasSuffix(".xcodeproj") }
  }

  /// The filter for `names` (deduplicated, in order), or nil for none.
  public static func filter(names: [String]) -> String? {
    var seen: Set<String> = []
    let unique = names.filter { seen.insert($0).inserted }
    guard !unique.isEmpty else { return nil }
    return "^(" + unique.map(escapeRegex).joined(separator: "|") + ")\\."
  }

  /// `--format github`: lines for `$GITHUB_OUTPUT`: `test-targets` (JSON array of names), `filter` (empty
  /// when there are no test targets), `run-all` (true/false), `count` and `packages` (JSON array of the
  /// package directories holding selected tests). A value with a newline uses the `name<<DELIMITER` form.
  public static func githubOutput(_ report: AffectedReport) -> String {
    let names = report.testTargets.map(\.name)
    let packages = Array(Set(report.testTargets.map(\.package))).sorted()
    return [
      githubLine("test-targets", encode(names, pretty: false)),
      githubLine("filter", filter(report) ?? ""),
      githubLine("run-all", report.runAll ? "true" : "false"),
      githubLine("count", String(report.testTargets.count)),
      githubLine("packages", encode(packages, pretty: false)),
    ].joined(separator: "\n") + "\n"
  }

  /// `--format matrix --shards N` (package test targets only, as `ripple test --shard` runs them): a GitHub
  /// Actions `strategy.matrix` JSON object,
  /// `{"include":[{"filter":"…","ids":"pkg:A,…","of":N,"shard":1,"targets":[…]}]}`, balanced on
  /// `durations` with `ShardPlanner`; a job runs `ripple test --targets ${{ matrix.ids }}`. `durations` is keyed by `package:Name` or by test target name (seconds).
  /// There are never more shards than test targets; with none, `include` is empty and the caller should
  /// skip the job (GitHub rejects an empty matrix).
  /// A job holding a whole package (`wholePackages`, `*` in `targets`) has an empty filter: every test.
  /// A job that runs targets only in part (split by suites) has a filter naming its suites (`SuiteFilter`).
  public static func matrix(
    _ report: AffectedReport, shards: Int, durations: [String: Double],
    suiteDurations: [String: [String: Double]] = [:], wholePackages: [String] = [],
    testDurations: [String: [String: [String: Double]]] = [:]
  ) -> String {
    let jobs = shardJobs(
      report, shards: shards, durations: durations, suiteDurations: suiteDurations, wholePackages: wholePackages,
      testDurations: testDurations)
    let include = jobs.map { job in
      let names = job.targets.map(\.name)
      var scopes: [String: SuiteScope] = [:]
      for target in job.targets { scopes[target.name] = job.scope(of: target) }
      let filter =
        names.contains(ShardJob.wholePackage)
        ? "" : scopes.isEmpty ? filter(names: names) ?? "" : SuiteFilter.pattern(targets: names, scopes: scopes)
      // A remainder's `swift test --filter` must go with its `--skip` (SuiteFilter.skipPattern).
      let skip = names.contains(ShardJob.wholePackage) ? nil : SuiteFilter.skipPattern(targets: names, scopes: scopes)
      return MatrixEntry(shard: job.shard, of: job.of, targets: names, ids: job.ids, filter: filter, skip: skip)
    }
    return encode(Matrix(include: include), pretty: false)
  }

  private struct Matrix: Encodable {
    var include: [MatrixEntry]
  }

  private struct MatrixEntry: Encodable {
    var shard: Int
    var of: Int
    var targets: [String]
    /// `package:Name,…` for `ripple test --targets`.
    var ids: String
    var filter: String
    /// `swift test --skip` with `filter`: what a split target's remainder leaves out; absent when none.
    var skip: String?
  }

  /// Escapes the characters that are special in a regular expression.
  static func escapeRegex(_ text: String) -> String {
    let special: Set<Character> = ["\\", "^", "$", ".", "|", "?", "*", "+", "(", ")", "[", "]", "{", "}"]
    return String(text.flatMap { special.contains($0) ? ["\\", $0] : [$0] })
  }

  private static func githubLine(_ name: String, _ value: String) -> String {
    guard value.contains("\n") || value.contains("\r") else { return "\(name)=\(value)" }
    var delimiter = "RIPPLE_EOF"
    while value.contains(delimiter) { delimiter += "_" }
    return "\(name)<<\(delimiter)\n\(value)\n\(delimiter)"
  }

  static func encode(_ value: some Encodable, pretty: Bool) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting =
      pretty ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
    // Encoding these plain value types cannot fail.
    return String(decoding: try! encoder.encode(value), as: UTF8.self)
  }
}

/// A report's keys and another value's in one JSON object (`AffectedFormatter.json(_:adding:)`).
private struct ReportWithExtra<Extra: Encodable>: Encodable {
  var report: AffectedReport
  var extra: Extra

  func encode(to encoder: any Encoder) throws {
    try report.encode(to: encoder)
    try extra.encode(to: encoder)
  }
}
