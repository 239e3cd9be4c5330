import Foundation

/// Writes the machine outputs of a run (`--junit`, `--report-json`) and updates the timing history.
public enum TestReportWriter {
  /// Writes each requested file atomically, creating directories (a device or a link in place: `ReportPath`). Also when nothing was affected, so CI
  /// steps that upload them always find them.
  /// `repositoryRoot`: failure paths inside it are written relative to it in JUnit, as CI annotations expect.
  public static func write(
    _ result: TestRunResult, junitPath: String?, jsonPath: String?, repositoryRoot: String? = nil
  )
    throws
  {
    if let junitPath {
      try writeAtomically(JUnitRenderer.render(result, repositoryRoot: repositoryRoot), to: junitPath)
    }
    if let jsonPath { try writeAtomically(result.jsonReport(), to: jsonPath) }
  }

  /// Atomically for a regular file (or none yet); in place for a device or a link (`ReportPath.write`).
  static func writeAtomically(_ text: String, to path: String) throws {
    try ReportPath.write(Data(text.utf8), to: path)
  }
}
