#!/usr/bin/env bash
# Writes Sources/BuildInfo/BuildStamp.swift: the version from VERSION (the one source of truth), and, with
# --release, the commit (`git describe`) and the Swift version of the toolchain on PATH.
#   scripts/stamp-version.sh             the committed default: version only (BuildInfoTests checks it
#                                        matches VERSION; run this after editing VERSION)
#   scripts/stamp-version.sh --release   what scripts/release-build.sh compiles into release binaries,
#                                        then puts the committed default back
# RIPPLE_COMMIT overrides `git describe` (a build from a source archive, or a checkout git cannot read).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
version=$(tr -d ' \n' <"$root/VERSION")
[[ "$version" =~ ^[0-9]+\.[0-9]+\.[0-9]+([.~+-][0-9A-Za-z.~+-]+)?$ ]] \
  || { echo "error: $root/VERSION holds '$version', not a version like 1.2.3" >&2; exit 2; }
commit="" swift=""
if [[ "${1:-}" == --release ]]; then
  commit=${RIPPLE_COMMIT:-$(git -C "$root" describe --always --dirty --abbrev=12 --match 'v[0-9]*' 2>/dev/null || true)}
  swift=$(swift --version 2>/dev/null | sed -n 's/.*Swift version \([^ ]*\).*/\1/p' | head -1)
elif [[ -n "${1:-}" ]]; then
  echo "usage: stamp-version.sh [--release]" >&2
  exit 2
fi
cat >"$root/Sources/BuildInfo/BuildStamp.swift" <<SWIFT
// Written by scripts/stamp-version.sh from VERSION: edit VERSION, then run the script.
// Release builds (scripts/release-build.sh) write the commit and Swift version here, then restore this.
extension BuildInfo {
  static let stamp = Stamp(version: "$version", commit: "$commit", swiftVersion: "$swift")
}
SWIFT
