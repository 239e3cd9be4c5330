import Affected
import PackageLoading
import PackageModel
import RippleCore
import XcodeLoading
import XcodeModel

/// The merged graph of a fixture, through the real reader, resolver and mapper.
func mergedGraph(_ app: ThinApp, packages: PackageGraph = ThinApp.packageGraph) throws -> PackageGraph {
  let tree = app.tree()
  let snapshot = XcodeLoader.load(tree, excludePackages: [])
  if let error = XcodeError.combining(snapshot.failures) { throw error }
  return XcodeLoader.merge(snapshot, into: packages, files: try tree.files())
}

/// Selected targets (`package:Name` → reasons) for `changes` between two fixtures.
func analyze(
  base: ThinApp, head: ThinApp, changes: [ChangedFile],
  resolved: [String: (base: ResolvedPins?, head: ResolvedPins?)] = [:]
) throws -> AffectedResult {
  AffectedAnalysis.analyze(
    AffectedInput(
      changes: changes, base: try mergedGraph(base), head: try mergedGraph(head), resolvedChanges: resolved))
}

func modified(_ path: String) -> ChangedFile { ChangedFile(path: path, status: .modified) }

extension AffectedResult {
  var byName: [String: [String]] {
    Dictionary(uniqueKeysWithValues: targets.map { ("\($0.package):\($0.name)", $0.reasons) })
  }
  var testNames: Set<String> { Set(testTargets.map(\.name)) }
}
