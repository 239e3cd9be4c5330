import Clibgit2
import Foundation
import Git
import RippleCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What a fetch changed: branch name → new head, for every branch that moved or appeared, and the
/// branches that disappeared (pruned).
public struct FetchSummary: Sendable, Hashable {
  public var heads: [String: ObjectID]
  public var updated: [String: ObjectID]
  public var deleted: [String]
  public var receivedBytes: Int
}

/// The daemon's side of git: a bare mirror fetched from a remote, and private work trees that borrow its
/// objects. None of this touches a developer's checkout.
extension GitRepository {
  /// Opens the repository at exactly `path` (no search upwards).
  public static func open(at path: String) throws -> GitRepository {
    try LibGit2.ensureInitialized()
    var repository: OpaquePointer?
    let code = git_repository_open_ext(&repository, path, UInt32(GIT_REPOSITORY_OPEN_NO_SEARCH.rawValue), nil)
    guard code >= 0, let repository else { throw lastError(code, "open the repository at '\(path)'") }
    return GitRepository(handle: repository)
  }

  /// Opens the bare repository at `path`, creating it (and its parent folders) when missing.
  public static func openOrCreateBare(at path: String) throws -> GitRepository {
    if FileManager.default.fileExists(atPath: path + "/HEAD") { return try open(at: path) }
    try LibGit2.ensureInitialized()
    try createDirectory(path)
    var repository: OpaquePointer?
    let code = git_repository_init(&repository, path, 1)
    guard code >= 0, let repository else { throw lastError(code, "create a bare repository at '\(path)'") }
    return GitRepository(handle: repository)
  }

  /// Opens the work tree at `path`, creating it when missing as a repository whose object store falls back
  /// to `objectsOf`'s (git's alternates): checking out a fetched commit copies no objects.
  ///
  /// Its repository settings are rippled's own every time: the config is rewritten to what `git init` wrote
  /// and a `commondir` removed, so nothing a run planted in `.git` (`core.worktree` pointing the next
  /// checkout at another folder, `include.path`, filters, a redirect to another repository) takes effect.
  public static func openOrCreateWorktree(at path: String, objectsOf mirror: GitRepository) throws -> GitRepository {
    try LibGit2.ensureInitialized()
    let alternates = path + "/.git/objects/info/alternates"
    // A `.git` that is a link or a file (`gitdir: …`) would lead elsewhere: made again as a folder.
    if WorkTreeEntry.at(path + "/.git") == .regularFile || WorkTreeEntry.at(path + "/.git") == .other {
      unlink(path + "/.git")
    }
    if !FileManager.default.fileExists(atPath: path + "/.git/HEAD") {
      try createDirectory(path)
      var repository: OpaquePointer?
      let code = git_repository_init(&repository, path, 0)
      guard code >= 0, let repository else { throw lastError(code, "create a work tree at '\(path)'") }
      git_repository_free(repository)
    }
    try resetSettings(gitDirectory: path + "/.git")
    let objects = mirror.gitDirectory + "/objects\n"
    if (try? String(contentsOfFile: alternates, encoding: .utf8)) != objects {
      do {
        try FileManager.default.createDirectory(
          atPath: path + "/.git/objects/info", withIntermediateDirectories: true)
        try objects.write(toFile: alternates, atomically: true, encoding: .utf8)
      } catch {
        throw GitError.libgit2(
          operation: "link the work tree at '\(path)' to the mirror's objects", code: -1,
          message: error.localizedDescription)
      }
    }
    return try open(at: path)
  }

  /// What `git init` writes for a work tree on Linux and macOS: the only settings rippled's work trees have.
  static let worktreeConfig = """
    [core]
    \trepositoryformatversion = 0
    \tfilemode = true
    \tbare = false
    \tlogallrefupdates = true

    """

  private static func resetSettings(gitDirectory: String) throws {
    do {
      // Atomically: a new file replaces whatever is there (a link is replaced, not followed).
      if (try? String(contentsOfFile: gitDirectory + "/config", encoding: .utf8)) != worktreeConfig
        || !WorkTreeEntry.isRegularFile(gitDirectory + "/config")
      {
        try worktreeConfig.write(toFile: gitDirectory + "/config", atomically: true, encoding: .utf8)
      }
      if WorkTreeEntry.exists(gitDirectory + "/commondir") {
        try FileManager.default.removeItem(atPath: gitDirectory + "/commondir")
      }
    } catch {
      throw GitError.libgit2(
        operation: "reset the settings of '\(gitDirectory)'", code: -1, message: error.localizedDescription)
    }
  }

  private static func createDirectory(_ path: String) throws {
    do {
      try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    } catch {
      throw GitError.libgit2(
        operation: "create the folder '\(path)'", code: -1, message: error.localizedDescription)
    }
  }

  /// Fetches every branch of `url` into this (bare) repository's `refs/heads/*`, pruning branches the remote
  /// deleted. Never asks for credentials (only an ssh agent is tried, once); gives up after `timeout` of total
  /// time — checked whenever libgit2 reports progress, so a server that stops answering mid-transfer is
  /// abandoned, while one that never answers is bounded by the system's TCP timeouts.
  public func fetchBranches(from url: String, timeout: Duration) throws -> FetchSummary {
    try withRepository { repo in
      let before = try branchHeads(repo)
      var remote: OpaquePointer?
      try check(git_remote_create_anonymous(&remote, repo, url), "set up the remote '\(url)'")
      defer { git_remote_free(remote) }

      var options = git_fetch_options()
      try check(git_fetch_options_init(&options, UInt32(GIT_FETCH_OPTIONS_VERSION)), "initialise fetch options")
      options.prune = GIT_FETCH_PRUNE
      options.update_fetchhead = 0
      options.download_tags = GIT_REMOTE_DOWNLOAD_TAGS_NONE
      let context = FetchContext(deadline: ContinuousClock.now + timeout)
      let unmanaged = Unmanaged.passRetained(context)
      defer { unmanaged.release() }
      options.callbacks.payload = unmanaged.toOpaque()
      options.callbacks.credentials = fetchCredentials
      options.callbacks.transfer_progress = fetchTransferProgress
      options.callbacks.sideband_progress = fetchSidebandProgress

      let refspec = strdup("+refs/heads/*:refs/heads/*")
      defer { free(refspec) }
      var specs: [UnsafeMutablePointer<CChar>?] = [refspec]
      let code = specs.withUnsafeMutableBufferPointer { buffer in
        var array = git_strarray(strings: buffer.baseAddress, count: 1)
        return git_remote_fetch(remote, &array, &options, "rippled fetch")
      }
      if code < 0 {
        if context.timedOut { throw GitError.fetchTimedOut(url: url, after: timeout) }
        throw GitError.fetchFailed(
          url: url, detail: Self.fetchFailureDetail(lastErrorMessage(), url: url),
          credentialsRequested: context.askedForCredentials)
      }
      let after = try branchHeads(repo)
      var updated: [String: ObjectID] = [:]
      for (name, head) in after where before[name] != head { updated[name] = head }
      let deleted = before.keys.filter { after[$0] == nil }.sorted()
      return FetchSummary(heads: after, updated: updated, deleted: deleted, receivedBytes: context.receivedBytes)
    }
  }

  /// libgit2's message, except for a local remote owned by another user: libgit2 1.5 says "config value
  /// 'safe.directory' was not found" (or "… is not owned by current user"), which names neither cause nor fix.
  static func fetchFailureDetail(_ message: String, url: String) -> String {
    guard message.contains("safe.directory") || message.contains("not owned by current user") else { return message }
    return "the repository is owned by another user (git's safe.directory); if the service may use it, run "
      + "`git config --global --add safe.directory \(url)` as the service's user"
  }

  /// Local branches (refs/heads/*) and their commits.
  public func branches() throws -> [String: ObjectID] {
    try withRepository { repo in try branchHeads(repo) }
  }

  private func branchHeads(_ repo: OpaquePointer) throws -> [String: ObjectID] {
    var iterator: OpaquePointer?
    try check(git_reference_iterator_glob_new(&iterator, repo, "refs/heads/*"), "list branches")
    defer { git_reference_iterator_free(iterator) }
    var heads: [String: ObjectID] = [:]
    while true {
      var reference: OpaquePointer?
      let code = git_reference_next(&reference, iterator)
      if case GIT_ITEROVER = code { break }
      try check(code, "list branches")
      defer { git_reference_free(reference) }
      let name = String(cString: git_reference_name(reference)).dropFirst("refs/heads/".count)
      var commit: OpaquePointer?
      guard git_reference_peel(&commit, reference, GIT_OBJECT_COMMIT) >= 0 else { continue }
      defer { git_object_free(commit) }
      heads[String(name)] = ObjectID(git_object_id(commit))
    }
    return heads
  }

  /// Makes the work tree exactly `commit` (detached HEAD): tracked files are rewritten, untracked files
  /// removed; ignored files (build products, bootstrapped assets) stay. Symbolic links and other special
  /// files where the checkout writes or removes are deleted first (see `CheckoutPaths`): no write goes
  /// through a link the branch controls.
  public func checkOut(_ commit: ObjectID) throws {
    guard let root = workdir else {
      throw GitError.bareRepository(path: gitDirectory, operation: "check out \(commit.short)")
    }
    var removed = false
    for path in CheckoutPaths.touched(tracked: try indexPaths(), target: try files(at: commit))
    where WorkTreeEntry.at(root + "/" + path) == .other {
      guard unlink(root + "/" + path) == 0 || errno == ENOENT else {
        throw GitError.libgit2(
          operation: "remove the link '\(path)' before checking out \(commit.short)", code: -1,
          message: String(cString: strerror(errno)))
      }
      removed = true
    }
    try withRepository { repo in
      guard git_repository_is_bare(repo) == 0 else {
        throw GitError.bareRepository(path: gitDirectory, operation: "check out \(commit.short)")
      }
      let object = try lookupCommit(commit, repo)
      defer { git_commit_free(object) }
      var id = try oid(commit)
      // Checkout compares with HEAD's tree. A HEAD that cannot be read (unborn, or a commit whose objects
      // went away with an alternate object store) is pointed at the target first; FORCE still rewrites
      // every file that differs and REMOVE_UNTRACKED clears what is not in the target.
      // So is a HEAD whose committed link was just removed (libgit2 fails on a missing link that the target
      // makes a folder: "null OID cannot exist").
      var head: OpaquePointer?
      if removed || git_repository_head(&head, repo) < 0 || !peelsToCommit(head) {
        try check(git_repository_set_head_detached(repo, &id), "point HEAD at \(commit.short)")
      }
      git_reference_free(head)
      var options = git_checkout_options()
      try check(git_checkout_options_init(&options, UInt32(GIT_CHECKOUT_OPTIONS_VERSION)), "initialise checkout")
      options.checkout_strategy = GIT_CHECKOUT_FORCE.rawValue | GIT_CHECKOUT_REMOVE_UNTRACKED.rawValue
      try check(git_checkout_tree(repo, object, &options), "check out \(commit.short) in '\(workdir ?? "")'")
      try check(git_repository_set_head_detached(repo, &id), "point HEAD at \(commit.short)")
    }
  }

  /// The paths the index tracks: what a checkout may remove.
  private func indexPaths() throws -> [String] {
    try withRepository { repo in
      var index: OpaquePointer?
      try check(git_repository_index(&index, repo), "open the index of '\(workdir ?? gitDirectory)'")
      defer { git_index_free(index) }
      return (0..<git_index_entrycount(index)).compactMap { position in
        git_index_get_byindex(index, position).map { String(cString: $0.pointee.path) }
      }
    }
  }

  private func peelsToCommit(_ reference: OpaquePointer?) -> Bool {
    guard let reference else { return false }
    var commit: OpaquePointer?
    defer { git_object_free(commit) }
    return git_reference_peel(&commit, reference, GIT_OBJECT_COMMIT) >= 0
  }

  /// Stages what the work tree holds for every tracked file (`git add -u`) and writes the index, so that
  /// the index's file stamps match the disk again. For a private work tree whose files were copied in:
  /// without it, every status would re-read every copied file to see that it did not change.
  public func refreshIndex() throws {
    try withRepository { repo in
      var index: OpaquePointer?
      try check(git_repository_index(&index, repo), "open the index of '\(workdir ?? gitDirectory)'")
      defer { git_index_free(index) }
      try check(git_index_update_all(index, nil, nil, nil), "refresh the index of '\(workdir ?? gitDirectory)'")
      try check(git_index_write(index), "write the index of '\(workdir ?? gitDirectory)'")
    }
  }

  /// Like `refreshIndex`, for a few known paths: tracked ones are re-staged from the disk (or dropped when
  /// gone); untracked ones are left alone. Cheap where `refreshIndex` reads every tracked file's stamp.
  public func refreshIndex(paths: [String]) throws {
    try withRepository { repo in
      var index: OpaquePointer?
      try check(git_repository_index(&index, repo), "open the index of '\(workdir ?? gitDirectory)'")
      defer { git_index_free(index) }
      for path in paths where git_index_get_bypath(index, path, 0) != nil {
        if FileManager.default.fileExists(atPath: (workdir ?? "") + "/" + path) {
          try check(git_index_add_bypath(index, path), "stage '\(path)' in '\(workdir ?? gitDirectory)'")
        } else {
          try check(git_index_remove_bypath(index, path), "unstage '\(path)' in '\(workdir ?? gitDirectory)'")
        }
      }
      try check(git_index_write(index), "write the index of '\(workdir ?? gitDirectory)'")
    }
  }
}

/// State shared with libgit2's C callbacks during one fetch.
private final class FetchContext: @unchecked Sendable {
  let deadline: ContinuousClock.Instant
  var timedOut = false
  var askedForCredentials = false
  var credentialAttempts = 0
  var receivedBytes = 0

  init(deadline: ContinuousClock.Instant) { self.deadline = deadline }

  /// libgit2 aborts the fetch when a progress callback returns non-zero.
  func pastDeadline() -> Int32 {
    if ContinuousClock.now >= deadline { timedOut = true }
    return timedOut ? -1 : 0
  }
}

private func fetchContext(_ payload: UnsafeMutableRawPointer?) -> FetchContext? {
  payload.map { Unmanaged<FetchContext>.fromOpaque($0).takeUnretainedValue() }
}

private let fetchTransferProgress: git_indexer_progress_cb = { stats, payload in
  guard let context = fetchContext(payload) else { return 0 }
  if let stats { context.receivedBytes = Int(stats.pointee.received_bytes) }
  return context.pastDeadline()
}

private let fetchSidebandProgress: git_transport_message_cb = { _, _, payload in
  fetchContext(payload)?.pastDeadline() ?? 0
}

/// Never prompts: an ssh agent is tried once for ssh URLs; anything else fails the fetch with a clear error.
private let fetchCredentials: git_credential_acquire_cb = { out, _, username, allowed, payload in
  guard let context = fetchContext(payload) else { return GIT_PASSTHROUGH.rawValue }
  context.askedForCredentials = true
  context.credentialAttempts += 1
  if context.credentialAttempts == 1, allowed & GIT_CREDENTIAL_SSH_KEY.rawValue != 0 {
    if let username { return git_credential_ssh_key_from_agent(out, username) }
    return git_credential_ssh_key_from_agent(out, "git")
  }
  return GIT_EUSER.rawValue
}

/// Whether a configured `remote:` answers as a git repository, for `rippled check-config`: a local path or
/// `file://` URL must exist, and every remote must list its references (libgit2's ls-remote: connect, list,
/// disconnect; nothing is downloaded). Never asks for credentials (only an ssh agent is tried, once, as for a
/// fetch). libgit2 has no network timeout: the connect runs on a thread of its own and is abandoned after
/// `timeout` (the command exits soon after).
public enum RemoteProbe {
  /// nil when the remote answers; otherwise what is wrong, as a sentence about `url`.
  public static func problem(url: String, timeout: Duration) -> String? {
    if let path = localPath(url) {
      var isFolder: ObjCBool = false
      guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
        return "'\(path)' does not exist"
      }
      guard isFolder.boolValue else { return "'\(path)' is a file, not a git repository" }
    }
    do {
      try LibGit2.ensureInitialized()
    } catch {
      return "\(error)"
    }
    let answer = Locked<Result<Int, GitError>?>(nil)
    let done = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      let result = Result { () throws(GitError) in try listReferences(url, timeout: timeout) }
      answer.withLock { $0 = result }
      done.signal()
    }
    let milliseconds = Int(timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
    if done.wait(timeout: .now() + .milliseconds(milliseconds)) == .timedOut {
      return "'\(url)' did not answer within \(timeout); check the address and the network"
    }
    switch answer.withLock({ $0 }) {
    case .success?: return nil
    case .failure(let error)?:
      if localPath(url) != nil, case .fetchFailed(_, let detail, _) = error {
        return "'\(url)' is not a git repository (\(detail))"
      }
      return "\(error)"
    case nil: return "'\(url)' gave no answer"
    }
  }

  /// Whether `url` is a local remote (an absolute path or a `file://` URL): `check-config --offline` still
  /// checks those.
  public static func isLocal(_ url: String) -> Bool { localPath(url) != nil }

  /// The path of a local remote (an absolute path or a `file://` URL), nil for a network one.
  static func localPath(_ url: String) -> String? {
    if url.hasPrefix("/") { return url }
    if url.hasPrefix("file://") {
      let path = String(url.dropFirst("file://".count))
      return path.removingPercentEncoding ?? path
    }
    return nil
  }

  private static func listReferences(_ url: String, timeout: Duration) throws(GitError) -> Int {
    var remote: OpaquePointer?
    guard git_remote_create_detached(&remote, url) >= 0 else {
      throw .fetchFailed(url: url, detail: lastErrorMessage(), credentialsRequested: false)
    }
    defer { git_remote_free(remote) }
    var callbacks = git_remote_callbacks()
    git_remote_init_callbacks(&callbacks, UInt32(GIT_REMOTE_CALLBACKS_VERSION))
    let context = FetchContext(deadline: ContinuousClock.now + timeout)
    let unmanaged = Unmanaged.passRetained(context)
    defer { unmanaged.release() }
    callbacks.payload = unmanaged.toOpaque()
    callbacks.credentials = fetchCredentials
    guard git_remote_connect(remote, GIT_DIRECTION_FETCH, &callbacks, nil, nil) >= 0 else {
      throw .fetchFailed(
        url: url, detail: GitRepository.fetchFailureDetail(lastErrorMessage(), url: url),
        credentialsRequested: context.askedForCredentials)
    }
    defer { git_remote_disconnect(remote) }
    var heads: UnsafeMutablePointer<UnsafePointer<git_remote_head>?>?
    var count = 0
    guard git_remote_ls(&heads, &count, remote) >= 0 else {
      throw .fetchFailed(url: url, detail: lastErrorMessage(), credentialsRequested: false)
    }
    return count
  }
}
