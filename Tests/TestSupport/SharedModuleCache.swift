import Foundation

/// The build arguments of every fixture the tests build with the real toolchain: one Swift module cache, and no
/// index of the system's modules.
///
/// SwiftPM gives each build folder a module cache of its own (`.build/<triple>/debug/ModuleCache`), and a fixture
/// is built in a fresh folder: filling that cache (Glibc's and Foundation's clang modules, Swift Testing compiled
/// from its `.swiftinterface`) cost ~6 s of CPU per package on the CI machine, half of a small package's cold
/// build. The tests that build fixtures pass `swiftArguments` the way a user passes build arguments (`ripple test
/// -- …`, rippled.yml's `testArguments`, `TestRunOptions.extraArguments`), so all of them fill it once. Only where
/// the compilers keep the system's modules changes; what is built, and where, does not. Clang and Swift lock each
/// entry while they write it, so builds running at the same time share the cache safely, as Xcode's builds share
/// one; the path is fixed per user, so the next run starts warm. It has to be the same path for every build: an
/// entry records the path it was built at, and a symlinked cache is refused.
public enum SharedModuleCache {
  public static let path: String = {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("ripple-tests-module-cache-\(getuid())")
      .path
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }()

  /// For `swift build` and `swift test` (SwiftPM's own `-module-cache-path` comes first; the last one counts), with
  /// `noSystemIndex`.
  public static var swiftArguments: [String] {
    ["-Xswiftc", "-module-cache-path", "-Xswiftc", path] + noSystemIndex
  }

  /// SwiftPM's debug builds pass `-index-system-modules`: each new build folder's index store gets units for the
  /// standard library, Foundation, XCTest and Swift Testing, ~4 of the ~9 s of CPU of a small fixture's cold build
  /// (measured with a wrapper around `swift-frontend`: a one-line module's compile job took 0.7 s, its
  /// `-emit-module` job 0.03 s). Nothing reads those units; Linux's test discovery reads only the test modules'
  /// own, which are still written. For sandboxed runs too, which cannot use the shared cache.
  public static let noSystemIndex = ["-Xswiftc", "-index-ignore-system-modules"]
}
