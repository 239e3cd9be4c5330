// Written by scripts/stamp-version.sh from VERSION: edit VERSION, then run the script.
// Release builds (scripts/release-build.sh) write the commit and Swift version here, then restore this.
extension BuildInfo {
  static let stamp = Stamp(version: "0.3.0", commit: "", swiftVersion: "")
}
