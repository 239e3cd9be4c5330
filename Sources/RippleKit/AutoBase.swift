import Foundation
import Git
import PassRecords
import RippleCore

/// `--base auto` (docs/DESIGN.md, "Shared history"): the newest commit of the base branch whose run passed, as
/// the result store remembers it, that is an ancestor of HEAD; else the merge-base with the base branch.
extension Workspace {
  /// The base branch: a pull request's target as the CI names it; the branch itself for a CI push of it (or
  /// `RIPPLE_BRANCH`) and for the default branch; else — a local feature branch, a detached HEAD — the
  /// repository's default branch (`defaultBranch`: the remote's HEAD, else main or master), never the branch
  /// compared with itself.
  static func baseBranch(environment: [String: String], branch: String, defaultBranch: String?) -> String {
    for name in ["GITHUB_BASE_REF", "CI_MERGE_REQUEST_TARGET_BRANCH_NAME", "BUILDKITE_PULL_REQUEST_BASE_BRANCH"] {
      if let value = environment[name], !value.isEmpty, value != "false" { return value }
    }
    let named = ["RIPPLE_BRANCH", "GITHUB_REF_NAME", "CI_COMMIT_REF_NAME", "BUILDKITE_BRANCH"].contains {
      environment[$0] == branch
    }
    if named || branch == defaultBranch { return branch }
    return defaultBranch ?? (branch == "(detached)" ? "main" : branch)
  }

  /// `request` with `--base auto` replaced by a commit and where it came from; any other request as it is.
  public func resolvingAutoBase(_ request: ChangeRequest) async throws -> ChangeRequest {
    guard request.base == ChangeRequest.autoBase else { return request }
    var resolved = request
    let head = try request.head.map { try repository.resolveCommit($0) } ?? repository.headCommit()
    var warnings: [String] = []
    let context = await loadSharedHistory(ResultCacheUse(), slot: 0, warnings: &warnings)
    let branch =
      context?.access.branch
      ?? RunBranch.resolve(explicit: nil, environment: services.environment, repository: repository)
    let defaultBranch = (try? repository.defaultBranch().name).map {
      $0.hasPrefix("origin/") ? String($0.dropFirst("origin/".count)) : $0
    }
    let baseBranch = Self.baseBranch(environment: services.environment, branch: branch, defaultBranch: defaultBranch)
    let greens = GreenCommits.passed(context?.merged.greens ?? [], branch: baseBranch)
    let (newest, missing) = GreenCommits.choose(
      greens, isHere: { (try? repository.resolveCommit($0)) != nil },
      isAncestor: { a, b in (try? repository.isAncestor(ObjectID(hex: a), of: ObjectID(hex: b))) == true },
      head: head.hex)
    if let newest {
      resolved.base = newest.commit
      resolved.noMergeBase = true
      resolved.baseSource =
        "--base auto: the last green run of \(baseBranch) (\(TerminalText.quoted(newest.run)), "
        + "\(AgeText.ago(Date().timeIntervalSince(newest.time)))) in \(context?.storeName ?? "the result store")"
      return resolved
    }
    let why: String
    if let context {
      // What the read ignored (unsigned slots of a protected branch) is why there is none: said, with the fix.
      let ignored = warnings.filter { $0.contains("ignored") }.count
      why =
        greens.isEmpty
        ? "no green run of \(baseBranch) in \(context.storeName)"
          + (ignored > 0
            ? " (\(ignored) history slots ignored: \(baseBranch)'s are believed only signed; give its CI jobs the "
              + "signing key, `ripple results keygen`)" : "")
        : "no green run of \(baseBranch) in \(context.storeName) is an ancestor of HEAD"
          + (missing > 0 ? " (\(missing) not in this clone: fetch more history)" : "")
    } else {
      why = "no result store to read green runs from" + (warnings.first.map { " (\($0))" } ?? "")
    }
    let baseRef = ["origin/\(baseBranch)", baseBranch].first { (try? repository.resolveCommit($0)) != nil }
    let baseCommit = try baseRef.map { try repository.resolveCommit($0) } ?? repository.defaultBranch().commit
    let mergeBase = try repository.mergeBase(baseCommit, head)
    resolved.base = baseCommit.hex
    resolved.noMergeBase = false
    if mergeBase == head {
      resolved.everythingBecause =
        "--base auto: \(why), and HEAD is \(baseBranch)'s tip (its merge-base with itself): every test runs"
      resolved.baseSource = resolved.everythingBecause
    } else {
      resolved.baseSource = "--base auto: \(why); the merge-base with \(baseRef ?? baseBranch)"
    }
    return resolved
  }
}

/// Which recorded runs make a commit green (pure).
enum GreenCommits {
  /// The commits of `branch` whose runs passed, oldest first: a run that was one shard counts when every shard
  /// of one count passed; a run that tested what a change reached counts when the commit it compared with is
  /// green itself (a run of nothing proves nothing of a base nobody tested), a run of everything always.
  static func passed(_ greens: [HistoryRecord.Green], branch: String) -> [HistoryRecord.Green] {
    let mine = greens.filter { $0.branch == branch }.sorted { ($0.time, $0.commit) < ($1.time, $1.commit) }
    var green: [String: HistoryRecord.Green] = [:]
    var order: [String] = []
    var shards: [String: [Int: Set<Int>]] = [:]
    for entry in mine {
      guard entry.all || entry.base.map({ green[$0] != nil }) == true else { continue }
      if let shard = entry.shard {
        let parts = shard.split(separator: "/").compactMap { Int($0) }
        guard parts.count == 2 else { continue }
        shards[entry.commit, default: [:]][parts[1], default: []].insert(parts[0])
        guard shards[entry.commit]?[parts[1]]?.count == parts[1] else { continue }
      }
      if green[entry.commit] == nil { order.append(entry.commit) }
      green[entry.commit] = entry
    }
    return order.compactMap { green[$0] }
  }

  /// The base among green commits: only those here (a shallow clone lacks some: counted in `missing`) and
  /// ancestors of `head` (a green commit on another line of history is never a base), the newest of them by
  /// ancestry. `isHere` and `isAncestor` are git's answers; names that are not 40 hex digits never reach them.
  static func choose(
    _ greens: [HistoryRecord.Green], isHere: (String) -> Bool, isAncestor: (String, String) -> Bool, head: String
  ) -> (base: HistoryRecord.Green?, missing: Int) {
    var missing = 0
    let candidates = greens.filter { green in
      guard isCommitName(green.commit), isHere(green.commit) else {
        missing += 1
        return false
      }
      return isAncestor(green.commit, head)
    }
    return (newest(candidates, isAncestor: isAncestor), missing)
  }

  /// 40 hex digits: a store's text is never handed to git as a revision spec.
  static func isCommitName(_ text: String) -> Bool {
    text.utf8.count == 40 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
  }

  /// The one no other candidate descends from (by ancestry, never by time); among several, the latest.
  static func newest(_ candidates: [HistoryRecord.Green], isAncestor: (String, String) -> Bool)
    -> HistoryRecord.Green?
  {
    let tips = candidates.filter { c in
      !candidates.contains { $0.commit != c.commit && isAncestor(c.commit, $0.commit) }
    }
    return tips.max { ($0.time, $0.commit) < ($1.time, $1.commit) }
  }
}
