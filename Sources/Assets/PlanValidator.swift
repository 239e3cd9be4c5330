import Foundation
import RippleConfig

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The file-system checks of a plan, run before any download: no destination (or secret output)
/// reaches outside the repository through a symlink, and no two assets install into the same or
/// nested folders (they could write the same file, which only shows after downloading).
enum PlanValidator {
  static func validate(_ plans: [AssetPlan], secrets: [SecretSpec], repositoryRoot: String) -> [AssetsError] {
    var errors: [AssetsError] = []
    guard let root = resolve(repositoryRoot) else {
      return [.fileSystem(operation: "resolve", path: repositoryRoot, reason: "the repository folder is missing")]
    }
    var claimed: [(owner: String, path: String, shown: String)] = []
    for plan in plans {
      for destination in plan.destinations {
        let owner = "asset `\(plan.spec.id)`"
        guard let resolved = inside(destination, root: root, repositoryRoot: repositoryRoot) else {
          errors.append(
            .destinationOutsideRepository(
              asset: plan.spec.id, path: destination,
              resolved: resolveExisting(repositoryRoot + "/" + destination) ?? "?"))
          continue
        }
        if let other = claimed.first(where: { overlaps($0.path, resolved) }) {
          errors.append(.overlappingDestinations(first: other.owner, second: owner, path: destination))
        }
        claimed.append((owner, resolved, destination))
      }
    }
    for secret in secrets {
      for path in [secret.output, secret.template] + (secret.example.map { [$0] } ?? []) {
        guard let resolved = inside(path, root: root, repositoryRoot: repositoryRoot) else {
          errors.append(
            .destinationOutsideRepository(
              asset: "secret \(secret.id)", path: path, resolved: resolveExisting(repositoryRoot + "/" + path) ?? "?"))
          continue
        }
        if path == secret.output, let other = claimed.first(where: { overlaps($0.path, resolved) }) {
          errors.append(.overlappingDestinations(first: other.owner, second: "secret `\(secret.id)`", path: path))
        }
      }
    }
    return errors
  }

  private static func overlaps(_ a: String, _ b: String) -> Bool {
    a == b || a.hasPrefix(b + "/") || b.hasPrefix(a + "/")
  }

  /// The real path of `relative` (its existing part resolved, the rest appended) when it stays inside
  /// the real repository root.
  private static func inside(_ relative: String, root: String, repositoryRoot: String) -> String? {
    guard let resolved = resolveExisting(repositoryRoot + "/" + relative) else { return nil }
    return resolved == root || resolved.hasPrefix(root + "/") ? resolved : nil
  }

  /// `realpath` of the longest existing prefix, with the missing components appended.
  static func resolveExisting(_ path: String) -> String? {
    var existing = path
    var missing: [String] = []
    while !FileIO.exists(existing) {
      missing.insert(PathParts.name(existing), at: 0)
      let parent = PathParts.parent(existing)
      if parent == existing || parent.isEmpty { return nil }
      existing = parent
    }
    guard let real = resolve(existing) else { return nil }
    return ([real] + missing).joined(separator: "/")
  }

  static func resolve(_ path: String) -> String? {
    guard let pointer = realpath(path, nil) else { return nil }
    defer { free(pointer) }
    return String(cString: pointer)
  }
}
