import Coverage
import CoverageMapping
import Foundation
import Git
import PassRecords
import ResultStore
import RippleConfig
import RippleCore
import SystemClients
import TestImpact
import TestRunner

/// After a run that refreshes coverage maps (a protected branch's, or `--refresh-maps`, with test granularity):
/// every keyed target that ran whole and passed is mapped (`MappingRun`: built with coverage in a build folder of
/// its own, each test alone with its own profile) and its map stored beside its pass record; a target skipped for
/// its pass record keeps the map it had, recorded again at this commit when its key is the same.
extension Workspace {
  /// Whether this run refreshes maps, and why not when it cannot (a warning).
  func refreshesMaps(_ job: inout TestJob, request: TestRequest) -> Bool {
    guard !request.plansOnly else { return false }
    guard request.granularity ?? configuration.test.granularity == .test else {
      if request.refreshMaps { job.warnings.append("--refresh-maps makes coverage maps only with test granularity") }
      return false
    }
    guard let recording = job.passRecording else {
      if request.refreshMaps {
        job.warnings.append("no coverage map is made: maps are kept in the result store, and pass records are off")
      }
      return false
    }
    return request.refreshMaps || recording.policy?.branchIsProtected == true
  }

  func refreshMaps(_ job: TestJob, result: TestRunResult, tested: String?) async -> [String] {
    guard let recording = job.passRecording, !recording.userFiltered, !result.cancelled, !recording.storeDown else {
      return []
    }
    guard let tested else {
      return [
        "no coverage map is made: the tests built a working tree that is not a commit (maps are kept by commit; "
          + "commit, or check out a commit with nothing edited)"
      ]
    }
    let commit = ObjectID(hex: tested)
    let folder = (job.options.scratchPath ?? root + "/.build/ripple") + "/maps"
    let tools: CoverageRunOptions
    do {
      tools = try CoverageRunOptions.locate(swift: services.swiftExecutable, environment: services.environment)
    } catch {
      return ["no coverage map is made: \(error)"]
    }
    var warnings: [String] = []
    var mapped: [String] = []
    for package in result.packages {
      let planned = job.selection.packages.first { $0.path == package.path && $0.run?.name == package.run }
      let targets = package.targets.filter { target in
        planned?.suites[target.name] == nil
          && PassEligibility.isFullPass(target, in: package, splitBySuites: false, userFiltered: false)
          && recording.keys.contains {
            $0.package == package.path && $0.target == target.name && $0.run == package.run && $0.isKeyable
          }
      }
      guard !targets.isEmpty else { continue }
      let environment = planned?.run?.environment ?? [:]
      let binary: String
      switch await coverageBuild(
        package: package.path, run: package.run, environment: environment, arguments: job.options.extraArguments,
        folder: folder)
      {
      case .success(let built): binary = built
      case .failure(let problem):
        warnings.append("no coverage map is made for \(package.label): \(problem.text)")
        continue
      }
      for target in targets {
        let unit = recording.keys.first {
          $0.package == package.path && $0.target == target.name && $0.run == package.run
        }!
        let work = folder + "/profiles"
        try? FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        do {
          let map = try await MappingRun(process: services.process, toolDirectory: tools.toolDirectory).map(
            MappingRun.Request(
              binary: binary, target: target.name, key: unit.key.hex, repositoryRoot: root, workDirectory: work,
              environment: environment))
          if let warning = try await storeMap(map, unit: unit, commit: commit, recording: recording) {
            warnings.append(warning)
          } else {
            mapped.append(
              "\(target.name) (\(map.tests.count) tests"
                + (map.unmapped.isEmpty ? ")" : ", \(map.unmapped.count) not mapped)"))
          }
        } catch {
          warnings.append("no coverage map is made for \(unit.unit): \(error)")
        }
      }
    }
    warnings += await carryMapsForward(job, recording: recording, commit: commit)
    if !mapped.isEmpty { warnings.append("coverage maps made at \(commit.short): " + mapped.joined(separator: ", ")) }
    return warnings
  }

  /// Encodes, bounds and stores one map with its record; a warning when it is not stored.
  func storeMap(_ map: CoverageMap, unit: KeyedUnit, commit: ObjectID, recording: PassRecording) async throws
    -> String?
  {
    let data: Data
    do { data = try StoredMap.bytes(of: map, unit: unit.unit) } catch { return error.description }
    let blob = MapRecord.blobKey(of: data)
    try await recording.store.save(blob, data)
    return try await saveMapRecord(
      MapRecord(
        package: unit.package, target: unit.target, run: unit.run, commit: commit.hex, key: unit.key, map: blob,
        tests: map.tests.count + map.unmapped.count, branch: recording.branch, writer: recording.writer, time: Date()),
      recording: recording)
  }

  func saveMapRecord(_ record: MapRecord, recording: PassRecording) async throws -> String? {
    let sealed = try RecordEnvelope.seal(record, signingKey: recording.signingKey)
    let key = MapRecord.storeKey(commit: record.commit, package: record.package, target: record.target, run: record.run)
    // No write lowers trust: a signed map record there is not replaced by an unsigned one.
    let rule = RecordReplacement(trusting: recording.policy?.trustedKeys.map(\.key) ?? [], protectedBranches: nil)
    if case .keep(let reason) = try await recording.store.save(key, sealed, unlessLowering: rule) {
      return "the coverage map record of \(record.unit) was not written to \(recording.store.name): \(reason)"
    }
    return nil
  }

  /// Targets skipped for their pass record: their map from an earlier commit, when it was made at the same key,
  /// is recorded at this commit too, so the map stays within reach of later bases.
  func carryMapsForward(_ job: TestJob, recording: PassRecording, commit: ObjectID) async -> [String] {
    guard !job.cached.isEmpty, let policy = recording.policy,
      let line = try? repository.firstParentLine(from: commit, limit: Self.mapLookback + 1).dropFirst()
    else { return [] }
    var warnings: [String] = []
    for cached in job.cached {
      guard
        case .success(let found) = await findMap(
          package: cached.package, target: cached.name, run: cached.run, line: Array(line), store: recording.store,
          policy: policy),
        found.record.key.hex == cached.key
      else { continue }
      var record = found.record
      record.commit = commit.hex
      record.branch = recording.branch
      record.writer = recording.writer
      record.time = Date()
      do {
        if let warning = try await saveMapRecord(record, recording: recording) { warnings.append(warning) }
      } catch {
        warnings.append("the coverage map record of \(record.unit) could not be written: \(error)")
        break
      }
    }
    return warnings
  }

  struct BuildProblem: Error {
    var text: String
  }

  /// Builds the package's tests with coverage in a build folder of their own (the run's stays as it was), and
  /// answers its test binary.
  func coverageBuild(
    package: String, run: String?, environment: [String: String?], arguments: [String], folder: String
  ) async -> Result<String, BuildProblem> {
    let scratch = folder + "/" + PathComponent.escaped(package + (run.map { "@" + $0 } ?? ""))
    let temporary = folder + "/tmp"
    try? FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
    var variables = environment
    variables["TMPDIR"] = temporary
    // The run's own build arguments (they are in the key), then this build's folder and coverage.
    let common =
      arguments + ["--package-path", RepoPath.join(root, package), "--scratch-path", scratch, "--enable-code-coverage"]
    do {
      let build = try await services.process.run(
        ProcessRequest(
          services.swiftExecutable, ["build", "--build-tests"] + common, workingDirectory: root,
          environment: variables, timeout: .seconds(3600)))
      guard build.succeeded else {
        let tail = build.errorString.split(separator: "\n").suffix(5).joined(separator: "\n")
        return .failure(BuildProblem(text: "its build with coverage failed: \(tail)"))
      }
      let bin = try await services.process.run(
        ProcessRequest(
          services.swiftExecutable, ["build", "--show-bin-path"] + common, workingDirectory: root,
          environment: variables, timeout: .seconds(300)))
      let folder = bin.outputString.trimmingCharacters(in: .whitespacesAndNewlines)
      let binaries = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
        .filter { $0.hasSuffix("PackageTests.xctest") }
      guard bin.succeeded, binaries.count == 1 else {
        return .failure(BuildProblem(text: "no single test binary (…PackageTests.xctest) in \(folder)"))
      }
      return .success(folder + "/" + binaries[0])
    } catch {
      return .failure(BuildProblem(text: "\(error)"))
    }
  }
}

/// A coverage map as a store keeps it (pure): its canonical JSON, bounded by `CoverageMap.Limits`, gzipped, and the
/// result bounded by the store's limit for one value.
public enum StoredMap {
  public static func bytes(of map: CoverageMap, unit: String, limit: Int = ResultStoreLimits.maximumRecordBytes)
    throws(CoverageMapError) -> Data
  {
    let json = try map.encoded()
    let data: Data
    do { data = try CoverageBlob.gzip(json) } catch {
      throw .unreadable(target: unit, detail: "it could not be compressed: \(error)")
    }
    guard data.count <= limit else {
      throw .tooLarge(target: unit, size: data.count, limit: limit, unit: "bytes compressed")
    }
    return data
  }

  /// The map stored as `bytes`; `origin` names it in errors.
  public static func map(_ bytes: Data, origin: String) throws(CoverageMapError) -> CoverageMap {
    let json: Data
    do { json = try CoverageBlob.gunzip(bytes) } catch {
      throw .unreadable(target: origin, detail: "it is not a gzipped coverage map: \(error)")
    }
    return try CoverageMap.decode(json, origin: origin)
  }
}
