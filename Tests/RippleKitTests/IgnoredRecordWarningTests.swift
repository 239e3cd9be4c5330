import PassRecords
import Testing

@testable import RippleKit

/// A protected branch without a signing key reads every unsigned record of the store: it says so once, with the
/// count and how to sign, not once per target (issue 52).
@Suite struct IgnoredRecordWarningTests {
  func unit(_ name: String) -> KeyedUnit {
    var inputs = KeyInputs()
    inputs.add("file", "Sources/\(name)/\(name).swift", name)
    return KeyedUnit(package: ".", target: name + "Tests", run: nil, inputs: inputs)
  }

  @Test func sixUnsignedRecordsOnAProtectedBranchAreOneWarningWithTheFix() {
    let reason = "an unsigned pass record (\"main\" is protected: only signed records count)"
    let ignored = ["A", "B", "C", "D", "E", "F"].map { (unit: unit($0), reason: reason) }
    let warnings = Workspace.ignoredRecordWarnings(ignored, store: "s3://team/records", unsignedHint: "; to sign: X")
    #expect(
      warnings == [
        "ignored 6 pass records in s3://team/records, each \(reason) (.:ATests, .:BTests, .:CTests and 3 more); "
          + "their tests run; to sign: X"
      ])
  }

  @Test func oneRecordIsNamedWithItsKeyAndOtherReasonsStayApart() {
    let one = unit("A")
    let other = "an unsigned pass record of another branch (\"feature\")"
    let warnings = Workspace.ignoredRecordWarnings(
      [(one, "a pass record whose signature does not verify (key ci)"), (unit("B"), other), (unit("C"), other)],
      store: "local", unsignedHint: "; to sign: X")
    #expect(warnings.count == 2)
    #expect(
      warnings.first
        == ".:ATests: ignored a pass record whose signature does not verify (key ci) at \(one.key.hex.prefix(12)) in local"
    )
    #expect(warnings.last?.hasPrefix("ignored 2 pass records in local, each \(other)") == true)
    #expect(warnings.last?.contains("to sign") == false, "only the protected branch's unsigned records get the fix")
  }
}
