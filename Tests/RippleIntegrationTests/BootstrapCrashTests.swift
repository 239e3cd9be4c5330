import Foundation
import TestSupport
import Testing

/// `kill -9` of `ripple bootstrap` in the middle of its work: the destination holds the full old set,
/// and the next run completes the new one.
@Suite(.serialized, .exclusive(.cooperativeThread)) struct BootstrapCrashTests {
  /// An archive of `count` files whose contents name `version`, and its sha256.
  static func archive(_ directory: String, version: String, count: Int) throws -> (path: String, sha: String) {
    let folder = directory + "/\(version)/sounds"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    for index in 0..<count {
      try Data("\(version) sound \(index)\n".utf8).write(to: URL(fileURLWithPath: folder + "/s\(index).wav"))
    }
    let path = directory + "/\(version).tar.gz"
    try run(["/bin/tar", "-czf", path, "-C", directory + "/\(version)", "sounds"])
    return (path, String(try run(["/usr/bin/sha256sum", path]).standardOutput.prefix(64)))
  }

  /// A transform that leaves a mark in `marks` when it starts and then takes `seconds` per file, so a
  /// test can kill the run while it is transforming.
  static func config(_ archive: (path: String, sha: String), marks: String = "/dev/null/none", seconds: Int = 0)
    -> String
  {
    """
    assets:
      - id: sounds
        source: {file: "\(archive.path)"}
        sha256: "\(archive.sha)"
        archive: {format: tar.gz, stripComponents: 1}
        transform:
          command: ["/bin/sh", "-c", "touch \\"$2\\" 2>/dev/null; sleep \(seconds); cp \\"$0\\" \\"$1\\"", "{input}", "{output}", "\(marks)/{stem}"]
          output: "{stem}.snd"
        destination: Sources/Audio/Resources

    """
  }

  @Test func killedDuringTheTransformLeavesTheOldSetAndTheNextRunCompletes() async throws {
    let repo = try TestRepository.checkout()
    let assets = repo.root + "/.git/test-assets"  // inside the temp repo, so it is cleaned up with it
    try repo.write(".gitignore", ".build/\nSources/Audio/Resources/\n")
    let v1 = try Self.archive(assets, version: "v1", count: 3)
    let v2 = try Self.archive(assets, version: "v2", count: 8)
    try repo.write("ripple.yml", Self.config(v1))
    try repo.commitAll("v1")
    let first = try RippleBinary.run(["bootstrap"], in: repo.root)
    #expect(first.status == 0, "\(first.standardError)")
    let destination = repo.root + "/Sources/Audio/Resources"
    let oldSet = try contents(destination)
    #expect(oldSet.count == 3 && oldSet.values.allSatisfy { $0.hasPrefix("v1") })

    let marks = assets + "/marks"
    try FileManager.default.createDirectory(atPath: marks, withIntermediateDirectories: true)
    // Each transform waits long after its mark: the kill comes first even when this task wakes late on a loaded machine.
    try repo.write("ripple.yml", Self.config(v2, marks: marks, seconds: 20))
    let process = Process()
    process.executableURL = URL(fileURLWithPath: RippleBinary.path)
    process.arguments = ["bootstrap"]
    process.currentDirectoryURL = URL(fileURLWithPath: repo.root)
    process.environment = ProcessInfo.processInfo.environment.merging(["RIPPLE_CACHE_DIR": RippleBinary.cacheDirectory])
    {
      $1
    }
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    let deadline = ContinuousClock.now + .seconds(120)
    while process.isRunning && ContinuousClock.now < deadline
      && ((try? FileManager.default.contentsOfDirectory(atPath: marks)) ?? []).isEmpty
    {
      try await Task.sleep(for: .milliseconds(20))
    }
    #expect(process.isRunning, "the run should still be transforming when killed")
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
    #expect(try contents(destination) == oldSet, "after kill -9 the destination is the full old set")

    try repo.write("ripple.yml", Self.config(v2))
    let again = try RippleBinary.run(["bootstrap"], in: repo.root)
    #expect(again.status == 0, "\(again.standardOutput)\(again.standardError)")
    let newSet = try contents(destination)
    #expect(newSet.count == 8 && newSet.values.allSatisfy { $0.hasPrefix("v2") }, "\(newSet.keys.sorted())")
  }

  @Test func killedDuringTheDownloadLeavesTheOldSetAndTheNextRunCompletes() async throws {
    let repo = try TestRepository.checkout()
    let assets = repo.root + "/.git/test-assets"
    try repo.write(".gitignore", ".build/\nSources/Audio/Resources/\n")
    let v1 = try Self.archive(assets, version: "v1", count: 2)
    let v2 = try Self.archive(assets, version: "v2", count: 2)
    try repo.write("ripple.yml", Self.config(v1))
    try repo.commitAll("v1")
    #expect(try RippleBinary.run(["bootstrap"], in: repo.root).status == 0)
    let destination = repo.root + "/Sources/Audio/Resources"
    let oldSet = try contents(destination)

    // The v2 source is a FIFO that delivers half of the archive and then stalls: the download is in
    // progress when the process is killed.
    let stalled = assets + "/stalled.tar.gz"
    #expect(mkfifo(stalled, 0o600) == 0)
    try repo.write("ripple.yml", Self.config((stalled, v2.sha)))
    let cache = repo.root + "/.git/test-cache"
    let process = Process()
    process.executableURL = URL(fileURLWithPath: RippleBinary.path)
    process.arguments = ["bootstrap"]
    process.currentDirectoryURL = URL(fileURLWithPath: repo.root)
    process.environment = ProcessInfo.processInfo.environment.merging(["RIPPLE_CACHE_DIR": cache]) { $1 }
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    let bytes = try Data(contentsOf: URL(fileURLWithPath: v2.path))
    // Non-blocking open fails (ENXIO) until ripple opens the FIFO for reading: never hang the test.
    var descriptor: Int32 = -1
    let deadline = ContinuousClock.now + .seconds(60)
    while descriptor < 0 && ContinuousClock.now < deadline && process.isRunning {
      descriptor = open(stalled, O_WRONLY | O_NONBLOCK)
      if descriptor < 0 { try await Task.sleep(for: .milliseconds(50)) }
    }
    #expect(descriptor >= 0, "ripple never started reading the source")
    let writer = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    if descriptor >= 0 { try writer.write(contentsOf: bytes.prefix(bytes.count / 2)) }
    // Mid-download: ripple has read what was written (the FIFO holds no unread byte) and waits for the rest.
    var unread: Int32 = 1
    let drained = ContinuousClock.now + .seconds(60)
    while descriptor >= 0 && unread > 0 && ContinuousClock.now < drained && process.isRunning {
      guard ioctl(descriptor, UInt(FIONREAD), &unread) == 0 else { break }
      if unread > 0 { try await Task.sleep(for: .milliseconds(10)) }
    }
    #expect(unread == 0, "ripple read the first half")
    #expect(process.isRunning)
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
    #expect(try contents(destination) == oldSet, "after kill -9 mid-download the destination is the full old set")

    try FileManager.default.removeItem(atPath: stalled)
    try FileManager.default.copyItem(atPath: v2.path, toPath: stalled)
    let again = try RippleBinary.run(["bootstrap"], in: repo.root, environment: ["RIPPLE_CACHE_DIR": cache])
    #expect(again.status == 0, "\(again.standardOutput)\(again.standardError)")
    #expect(try contents(destination).values.allSatisfy { $0.hasPrefix("v2") })
  }

  /// File name → contents of every regular file directly in `folder`.
  func contents(_ folder: String) throws -> [String: String] {
    var out: [String: String] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: folder) where !name.hasPrefix(".") {
      out[name] = try String(contentsOfFile: folder + "/" + name, encoding: .utf8)
    }
    return out
  }
}
