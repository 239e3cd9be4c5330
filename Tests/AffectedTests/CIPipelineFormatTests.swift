import Affected
import Foundation
import PackageModel
import RippleCore
import Testing
import Yams

private func report(_ tests: [(package: String, name: String, reason: String)], runAll: Bool = false)
  -> AffectedReport
{
  let targets = tests.map { AffectedTarget(package: $0.package, name: $0.name, kind: .test, reasons: [$0.reason]) }
  let result = AffectedResult(
    targets: targets, testTargets: targets, runAll: runAll, runAllReasons: runAll ? ["global file Makefile"] : [])
  return AffectedReport(
    result: result, base: "0123456789abcdef", head: "fedcba9876543210", mergeBase: "m1",
    changedFiles: [.modified("Sources/A/A.swift")])
}

private let three = report([
  (".", "AppTests", "changed Sources/App/App.swift"), ("Packages/Core", "CoreTests", "depends on Core"),
  (".", "UITests", "renamed Sources/A/It's.swift → Sources/B/$HOME #1.swift"),
])

private let settings = CIPipelineSettings(
  testArguments: ["--base", "0123456789abcdef", "--head", "fedcba9876543210", "--config", "ci/ripple.yml"],
  setup: ["make install PREFIX=$HOME/.local"], image: "swift:6.3")

/// The document as a CI system reads it (YAML 1.1/1.2 via Yams).
private func load(_ text: String) throws -> [String: Any] {
  try #require(try Yams.load(yaml: text) as? [String: Any])
}

/// What a POSIX shell would pass as argv for `line` (single quotes and plain words only, as generated).
private func shellWords(_ line: String) -> [String] {
  var words: [String] = []
  var current = ""
  var quoted = false
  var escaped = false
  var inWord = false
  for character in line {
    if quoted {
      if character == "'" { quoted = false } else { current.append(character) }
    } else if escaped {
      current.append(character)
      escaped = false
    } else if character == "'" {
      quoted = true
      inWord = true
    } else if character == "\\" {
      escaped = true
      inWord = true
    } else if character == " " {
      if inWord { words.append(current) }
      current = ""
      inWord = false
    } else {
      current.append(character)
      inWord = true
    }
  }
  if inWord { words.append(current) }
  return words
}

@Suite("CI pipeline formats")
struct CIPipelineFormatTests {
  @Test func gitlabHasOneJobPerShardRunningRippleTestWithTheSameSelection() throws {
    let text = AffectedFormatter.gitlab(
      three, shards: 2, durations: ["AppTests": 10, "CoreTests": 1], settings: settings)
    let document = try load(text)
    #expect((document["variables"] as? [String: Any])?["GIT_DEPTH"] as? String == "0", "the merge-base is needed")
    let jobNames = document.keys.filter { $0 != "variables" }.sorted()
    #expect(jobNames == ["test 1/2: AppTests", "test 2/2: UITests, CoreTests"], "\(jobNames)")
    let job = try #require(document["test 2/2: UITests, CoreTests"] as? [String: Any])
    #expect(job["image"] as? String == "swift:6.3")
    let script = try #require(job["script"] as? [String])
    #expect(script.count == 3)
    #expect(script[1] == "make install PREFIX=$HOME/.local", "setup commands are kept as written")
    #expect(
      shellWords(script[2]) == [
        "ripple", "test", "--targets", ".:UITests,Packages/Core:CoreTests", "--base", "0123456789abcdef", "--head",
        "fedcba9876543210", "--config",
        "ci/ripple.yml", "--junit", "ripple-junit-2-of-2.xml",
      ])
    let reasons = shellWords(script[0])
    #expect(reasons.first == "printf")
    #expect(reasons.contains("  Packages/Core:CoreTests: depends on Core"))
    #expect(reasons.contains("  UITests: renamed Sources/A/It's.swift → Sources/B/$HOME #1.swift"), "\(reasons)")
    let artifacts = try #require(job["artifacts"] as? [String: Any])
    #expect(artifacts["when"] as? String == "always")
    #expect((artifacts["reports"] as? [String: Any])?["junit"] as? String == "ripple-junit-2-of-2.xml")
  }

  @Test func gitlabJobsTakeTheParentPipelinesArchiveWhenAsked() throws {
    var fromPlan = settings
    fromPlan.artifactsFrom = "ripple-plan"
    let document = try load(AffectedFormatter.gitlab(three, shards: 2, durations: [:], settings: fromPlan))
    let jobs = document.filter { $0.key != "variables" }.compactMap { $0.value as? [String: Any] }
    #expect(jobs.count == 2)
    for job in jobs {
      let needs = try #require(job["needs"] as? [[String: Any]])
      #expect(needs.count == 1)
      #expect(needs[0]["pipeline"] as? String == "$PARENT_PIPELINE_ID")
      #expect(needs[0]["job"] as? String == "ripple-plan")
    }
    let plain = try load(AffectedFormatter.gitlab(three, shards: 2, durations: [:], settings: settings))
    #expect(plain.values.compactMap { $0 as? [String: Any] }.allSatisfy { $0["needs"] == nil })
  }

  @Test func buildkiteHasOneStepPerShardWithDollarsEscapedForUpload() throws {
    let text = AffectedFormatter.buildkite(three, shards: 3, durations: [:], settings: settings)
    let steps = try #require(try load(text)["steps"] as? [[String: Any]])
    #expect(steps.map { $0["label"] as? String } == ["test 1/3: AppTests", "test 2/3: UITests", "test 3/3: CoreTests"])
    for (index, step) in steps.enumerated() {
      let commands = try #require(step["commands"] as? [String])
      let ids = [".:AppTests", ".:UITests", "Packages/Core:CoreTests"][index]
      #expect(commands.last?.hasPrefix("ripple test --targets \(ids) --base 0123456789abcdef") == true)
      #expect(step["artifact_paths"] as? String == "ripple-junit-\(index + 1)-of-3.xml")
      #expect(step["image"] == nil && step["plugins"] == nil, "no image on Buildkite: agents bring the toolchain")
    }
    let second = try #require(steps[1]["commands"] as? [String])
    #expect(second[1] == "make install PREFIX=$$HOME/.local", "the agent interpolates $ on upload")
    #expect(second[0].contains("$$HOME #1.swift"))
    #expect(!text.replacingOccurrences(of: "$$", with: "").contains("$"), "no lone $ left")
  }

  @Test func aTargetOverTheFairShareIsSpreadBySuiteAcrossJobs() throws {
    // 12 s over 3 jobs: AppTests (10 s) is over the 4 s fair share and has suite history.
    let durations: [String: Double] = [".:AppTests": 10, "UITests": 1, "CoreTests": 1]
    let suites: [String: [String: Double]] = [".:AppTests": ["ASuite": 4, "BSuite": 3, "CSuite": 3]]
    let text = AffectedFormatter.gitlab(
      three, shards: 3, durations: durations, suiteDurations: suites, settings: settings)
    let document = try load(text)
    let names = document.keys.filter { $0 != "variables" }.sorted()
    #expect(
      names == [
        "test 1/3: AppTests (all but 2 suites)", "test 2/3: AppTests (1 suite), UITests",
        "test 3/3: AppTests (1 suite), CoreTests",
      ], "\(names)")
    func words(_ job: String) throws -> (reasons: [String], test: [String]) {
      let script = try #require((document[job] as? [String: Any])?["script"] as? [String])
      return (shellWords(script[0]), shellWords(script[2]))
    }
    let first = try words(names[0])
    #expect(
      first.test[3] == ".:AppTests/-BSuite,.:AppTests/-CSuite", "the remainder's job leaves out the others' suites")
    #expect(first.reasons.contains("  AppTests [all but suites BSuite, CSuite]: changed Sources/App/App.swift"))
    #expect(try words(names[1]).test[3] == ".:AppTests/BSuite,.:UITests")
    #expect(try words(names[2]).test[3] == ".:AppTests/CSuite,Packages/Core:CoreTests")

    let matrix = AffectedFormatter.matrix(three, shards: 3, durations: durations, suiteDurations: suites)
    #expect(matrix.contains(#""filter":"^(AppTests\\.(BSuite)(/|\\.|$)|UITests\\.)""#), "\(matrix)")
    #expect(matrix.contains(#""filter":"^(AppTests\\.(?!(BSuite|CSuite)(/|\\.|$)))""#), "\(matrix)")
    // Without suite history the same durations run AppTests whole, in one job.
    let whole = AffectedFormatter.shardJobs(three, shards: 3, durations: durations)
    #expect(
      whole.flatMap(\.entries).map(\.description).sorted() == [".:AppTests", ".:UITests", "Packages/Core:CoreTests"])
  }

  @Test func nothingAffectedIsOneNoOpJob() throws {
    let empty = report([])
    let gitlab = try load(AffectedFormatter.gitlab(empty, shards: 4, durations: [:], settings: settings))
    let job = try #require(gitlab["nothing to test"] as? [String: Any])
    #expect(gitlab.count == 2, "variables and the one job")
    #expect((job["variables"] as? [String: Any])?["GIT_STRATEGY"] as? String == "none")
    let script = try #require(job["script"] as? [String])
    #expect(script.count == 1 && script[0].hasPrefix("echo ") && !script[0].contains("ripple test"))
    let buildkite = try load(AffectedFormatter.buildkite(empty, shards: 4, durations: [:], settings: settings))
    let steps = try #require(buildkite["steps"] as? [[String: Any]])
    #expect(steps.count == 1)
    #expect(steps[0]["label"] as? String == "nothing to test")
    #expect((steps[0]["command"] as? String)?.hasPrefix("echo ") == true)
  }

  @Test func runAllReasonsAreShownInEachJob() throws {
    let all = report([(".", "AppTests", "global file Makefile")], runAll: true)
    let text = AffectedFormatter.gitlab(all, shards: 1, durations: [:], settings: CIPipelineSettings())
    let job = try #require(try load(text)["test 1/1: AppTests"] as? [String: Any])
    let script = try #require(job["script"] as? [String])
    #expect(job["image"] == nil)
    #expect(script.count == 2, "no setup given")
    #expect(shellWords(script[0]).contains("Every test target runs: global file Makefile"))
    #expect(
      shellWords(script[1]) == ["ripple", "test", "--targets", ".:AppTests", "--junit", "ripple-junit-1-of-1.xml"])
  }

  @Test func longJobNamesAreShortenedWithACount() throws {
    let many = report((1...30).map { (".", "Feature\($0)LongTargetNameTests", "changed x") })
    let text = AffectedFormatter.gitlab(many, shards: 1, durations: [:], settings: CIPipelineSettings())
    let name = try #require(try load(text).keys.first { $0.hasPrefix("test 1/1: ") })
    #expect(name.count <= 120)
    #expect(name.hasSuffix(" more"), "\(name)")
  }

  @Test func theShardsAgreeWithTheMatrix() throws {
    let durations = ["AppTests": 10.0, "CoreTests": 1, "UITests": 4]
    let matrix = AffectedFormatter.matrix(three, shards: 2, durations: durations)
    let include = try #require(
      (try JSONSerialization.jsonObject(with: Data(matrix.utf8)) as? [String: Any])?["include"] as? [[String: Any]])
    let jobs = AffectedFormatter.shardJobs(three, shards: 2, durations: durations)
    #expect(jobs.map { $0.targets.map(\.name) } == include.map { $0["targets"] as? [String] ?? [] })
    #expect(jobs.map(\.ids) == include.map { $0["ids"] as? String ?? "" })
    #expect(jobs.allSatisfy { $0.of == 2 })
  }

  @Test func aPackageThatRunsWholeIsAUnitOfItsOwn() throws {
    let text = AffectedFormatter.gitlab(
      three, shards: 2, durations: ["AppTests": 10, "UITests": 1, "CoreTests": 1], settings: CIPipelineSettings(),
      wholePackages: ["Packages/Broken"])
    let jobs = AffectedFormatter.shardJobs(
      three, shards: 2, durations: ["AppTests": 10, "UITests": 1, "CoreTests": 1], wholePackages: ["Packages/Broken"])
    #expect(
      jobs.flatMap { $0.ids.split(separator: ",").map(String.init) }.sorted() == [
        ".:AppTests", ".:UITests", "Packages/Broken:*", "Packages/Core:CoreTests",
      ])
    let commands = try load(text).values.compactMap { ($0 as? [String: Any])?["script"] as? [String] }
    #expect(commands.contains { $0.last?.contains("Packages/Broken:*") == true }, "\(text)")
    let matrix = AffectedFormatter.matrix(three, shards: 1, durations: [:], wholePackages: ["Packages/Broken"])
    let include = try #require(
      (try JSONSerialization.jsonObject(with: Data(matrix.utf8)) as? [String: Any])?["include"] as? [[String: Any]])
    #expect(include.first?["filter"] as? String == "", "a whole package: no filter, every test")
  }
}

/// `TargetIDList`: the `--targets` list form, written by the generated pipelines and read by `ripple test`.
@Suite struct TargetIDListTests {
  @Test(arguments: [
    ["Packages/Net,Tools:NetToolsTests", ".:AppTests"], [#"odd\dir:T"#, #"trailing\:X"#], ["App:A, B"], [".:*"],
    [#"a\,b:c"#],
  ])
  func joinedIdsSplitBackToThemselves(ids: [String]) {
    #expect(TargetIDList.split(TargetIDList.join(ids)) == ids)
  }

  @Test func aCommaOrBackslashInsideAnIdIsEscapedAndOnlyThere() {
    #expect(TargetIDList.join(["Net,Tools:T", #"x\y:U"#, ".:V"]) == #"Net\,Tools:T,x\\y:U,.:V"#)
    #expect(TargetIDList.split("a:A, b:B ,,") == ["a:A", "b:B"], "plain lists read as before")
    #expect(TargetIDList.split(#"a:A\"#) == [#"a:A\"#], "a trailing backslash is kept")
  }
}
