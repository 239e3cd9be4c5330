import Coverage
import Foundation
import PassRecords
import ResultStore
import RippleConfig
import RippleCore
import SystemClients
import TestRunner

/// `ripple test --coverage`: what the run was asked for besides the coverage itself.
public struct CoverageRequest: Sendable, Hashable {
  /// `--coverage-min PERCENT`: the measured total must reach it (exit 1 otherwise).
  public var minimum: Double?
  /// The platform the run was planned for (`TestRequest.platform`): the suite's runs are planned the same way.
  var platform: Platform = .host
  /// Every test target of the suite with its key, computed when the run is planned (with the records' keys,
  /// before anything runs and could write into the work tree); nil: no graph to key them with.
  var units: [KeyedUnit]?

  public init(minimum: Double? = nil) { self.minimum = minimum }
}

/// `--coverage` cannot run here.
public enum CoverageSetupError: RippleError, Equatable {
  /// The toolchain `swift` belongs to has no `llvm-profdata` or `llvm-cov`.
  case toolsMissing(directory: String, missing: [String])
  case swiftNotFound(String)

  public var category: ErrorCategory { .environment }

  public var description: String {
    switch self {
    case .toolsMissing(let directory, let missing):
      "--coverage needs the toolchain's \(missing.joined(separator: " and ")), which \(directory) does not have "
        + "(`swift` is there); install a toolchain that includes them (the swift.org ones do), or point RIPPLE_SWIFT "
        + "at one: another LLVM's tools cannot read this toolchain's profiles"
    case .swiftNotFound(let name):
      "--coverage needs the toolchain's llvm-cov beside `swift`, but `\(name)` is not on PATH; install Swift or set "
        + "RIPPLE_SWIFT"
    }
  }
}

extension CoverageRunOptions {
  /// The folder `swift` really lives in (symbolic links followed: /usr/bin/swift → /opt/swift/usr/bin/swift),
  /// which must hold `llvm-profdata` and `llvm-cov` of the same LLVM.
  static func locate(swift: String, environment: [String: String]) throws(CoverageSetupError) -> CoverageRunOptions {
    let path: String
    if swift.contains("/") {
      path = swift
    } else if let found = ExecutableLookup.shared.resolve(swift, path: environment["PATH"] ?? "") {
      path = found
    } else {
      throw .swiftNotFound(swift)
    }
    let real = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
    let directory = (real as NSString).deletingLastPathComponent
    let missing = ["llvm-profdata", "llvm-cov"].filter {
      !FileManager.default.isExecutableFile(atPath: directory + "/" + $0)
    }
    guard missing.isEmpty else { throw .toolsMissing(directory: directory, missing: missing) }
    return CoverageRunOptions(toolDirectory: directory)
  }
}

extension Workspace {
  /// Writes the coverage blob of each target that passed fully and was measured, before its record (a record
  /// never names a blob that is not there yet). Returns the blob keys by `KeyedUnit`; failures are warnings.
  func saveCoverageBlobs(_ recording: PassRecording, result: TestRunResult, job: TestJob) async -> (
    [KeyedUnit: RecordKey], [String]
  ) {
    guard !recording.userFiltered, !result.cancelled else { return ([:], []) }
    var keys: [KeyedUnit: RecordKey] = [:]
    var warnings: [String] = []
    for measurement in result.freshCoverage {
      guard case .measured(let coverage) = measurement.outcome,
        let unit = recording.keys.first(where: {
          $0.package == measurement.package && $0.target == measurement.target && $0.run == measurement.run
        }),
        let package = result.packages.first(where: { $0.path == measurement.package && $0.run == measurement.run }),
        let target = package.targets.first(where: { $0.name == measurement.target })
      else { continue }
      let planned = job.selection.packages.first { $0.path == package.path && $0.run?.name == package.run }
      guard
        PassEligibility.isFullPass(
          target, in: package, splitBySuites: planned?.suites[target.name] != nil, userFiltered: false)
      else { continue }
      let files = unit.ownedFiles
      do {
        let (key, data) = try CoverageBlob.encode(coverage.filtered { files.contains($0) })
        guard data.count <= ResultStoreLimits.maximumRecordBytes else {
          warnings.append(
            "the coverage of \(unit.unit) is \(data.count) bytes compressed, over the store's limit: not recorded")
          continue
        }
        try await recording.store.save(key, data)
        keys[unit] = key
      } catch {
        warnings.append("the coverage of \(unit.unit) could not be written to \(recording.store.name): \(error)")
        break
      }
    }
    return (keys, warnings)
  }

  /// The suite's coverage: every test target a full run would run (`--all`), each with this run's coverage
  /// when it ran, else its pass record's at its current key, else not measured, merged by `CoverageMerge`.
  func mergedCoverage(_ job: TestJob, result: TestRunResult, coverage request: CoverageRequest) async -> (
    CoverageReport, [String]
  ) {
    // Selected targets skipped for a record at their current key: that key holds this run's changes.
    let cached = Set(job.cached.map { Self.coverageID($0.package, $0.name, $0.run) })
    var warnings: [String] = []
    let units = request.units ?? []
    var changed: Set<String> = []
    for file in job.affected?.report.changedFiles ?? [] {
      changed.insert(file.path)
      if let old = file.oldPath { changed.insert(old) }
    }
    var inputs: [TargetCoverage] = []
    var seen: Set<String> = []
    for unit in units {
      let id = Self.coverageID(unit.package, unit.target, unit.run)
      seen.insert(id)
      let fresh = result.freshCoverage.first {
        $0.package == unit.package && $0.target == unit.target && $0.run == unit.run
      }
      let source: TargetCoverage.Source
      if let fresh {
        switch fresh.outcome {
        case .measured(let coverage): source = .fresh(coverage)
        case .notMeasured(let reason): source = .notMeasured(reason: reason)
        }
      } else {
        source =
          await job.passRecording?.recordedCoverage(of: unit, warnings: &warnings)
          ?? .notMeasured(reason: "not run, and pass records are off (its recorded coverage cannot be read)")
      }
      inputs.append(
        TargetCoverage(unit: id, source: source, files: unit.ownedFiles, recordedAtThisContent: cached.contains(id)))
    }
    for fresh in result.freshCoverage where !seen.contains(Self.coverageID(fresh.package, fresh.target, fresh.run)) {
      let source: TargetCoverage.Source
      switch fresh.outcome {
      case .measured(let coverage): source = .fresh(coverage)
      case .notMeasured(let reason): source = .notMeasured(reason: reason)
      }
      inputs.append(
        TargetCoverage(unit: Self.coverageID(fresh.package, fresh.target, fresh.run), source: source, files: nil))
    }
    return (CoverageMerge.merge(inputs, changedFiles: changed), warnings)
  }

  /// Every test target a full run would run (`--all`, planned into `test.runs` the same way), keyed: the
  /// targets the suite's coverage is the union of. Computed when the run is planned.
  func coverageUnits(_ job: TestJob, platform: Platform) async -> (KeyedUnits?, [String]) {
    var warnings: [String] = []
    guard let graph = job.affected?.headGraph ?? job.graph else {
      return (nil, ["coverage: the package graph was not evaluated; only this run's coverage counts"])
    }
    let everything = TestSelectionBuilder.everything(in: graph, byTarget: true)
    let runs = TestRunPlanner.plan(
      everything, graph: graph, runs: configuration.testRuns.filter { $0.runner == .swift },
      environments: configuration.graphEnvironments, host: platform)
    do {
      let keyed = try await keyedUnits(
        runs.selection, graph: graph, extraArguments: job.options.extraArguments,
        edited: editedPaths(job.affected?.changeSet), warnings: &warnings)
      return (keyed, warnings)
    } catch {
      return (nil, ["coverage: the content keys could not be computed (\(error)); only this run's coverage counts"])
    }
  }

  static func coverageID(_ package: String, _ target: String, _ run: String?) -> String {
    "\(package):\(target)" + (run.map { " [\($0)]" } ?? "")
  }
}

extension PassRecording {
  /// A target that did not run: the coverage its trusted pass record at the current key names, verified.
  func recordedCoverage(of unit: KeyedUnit, warnings: inout [String]) async -> TargetCoverage.Source {
    let recording = self
    guard let policy else {
      return .notMeasured(reason: "not run, and pass records are off (its recorded coverage cannot be read)")
    }
    let data: Data?
    do {
      data = try await recording.store.load(unit.key)
    } catch {
      warnings.append("coverage: the result store could not be read for \(unit.unit) (\(error))")
      return .notMeasured(reason: "not run, and the result store could not be read")
    }
    guard let data else { return .notMeasured(reason: "not run, and no pass record at its key") }
    let record: PassRecord
    switch policy.judge(data, key: unit.key, unit: unit.unit) {
    case .trusted(let trusted, _): record = trusted
    case .ignored(let reason): return .notMeasured(reason: "not run, and its pass record is not trusted (\(reason))")
    }
    guard let blob = record.coverage else {
      return .notMeasured(reason: "not run, and its pass record holds no coverage (written without --coverage)")
    }
    let origin = TerminalText.quoted("\(record.run) of \(record.branch) (\(record.commit.prefix(10)))")
    do {
      guard let bytes = try await recording.store.load(blob) else {
        warnings.append(
          "coverage: the coverage blob \(blob.hex.prefix(12)) of \(unit.unit) is missing from \(recording.store.name)")
        return .notMeasured(reason: "its coverage blob \(blob.hex.prefix(12)) is missing from the store")
      }
      return .recorded(try CoverageBlob.decode(bytes, key: blob), origin: origin)
    } catch {
      warnings.append("coverage: the coverage blob \(blob.hex.prefix(12)) of \(unit.unit) is unusable: \(error)")
      return .notMeasured(reason: "its coverage blob \(blob.hex.prefix(12)) is unusable: \(error)")
    }
  }
}

extension KeyedUnit {
  /// The files its key covers, by path: the files its closure's targets own.
  var ownedFiles: Set<String> { Set(closureFiles.lazy.flatMap(\.keys)) }
}
