#!/usr/bin/env bash
# `make release-bins`: ripple and rippled built once in release (Swift runtime linked statically on Linux),
# stamped with VERSION, the commit and the Swift version, and copied to OUT-DIR with their man pages.
# `make dist`, `make deb`, their checks and CI take them from there instead of building again.
#   scripts/release-build.sh OUT-DIR
# Environment: SWIFT, BUILD_FLAGS, RELEASE_FLAGS (as in the Makefile).
# Sources/BuildInfo/BuildStamp.swift is stamped for the build and put back afterwards (even on failure).
set -euo pipefail
out=${1:?usage: release-build.sh OUT-DIR}
root=$(cd "$(dirname "$0")/.." && pwd)
swift=${SWIFT:-swift}
release_flags=${RELEASE_FLAGS-}
if [[ -z "${RELEASE_FLAGS+set}" && "$(uname)" == Linux ]]; then release_flags=--static-swift-stdlib; fi
stamp="$root/Sources/BuildInfo/BuildStamp.swift"
saved=$(mktemp)
cp -p "$stamp" "$saved"
trap 'cmp -s "$saved" "$stamp" || cp -p "$saved" "$stamp"; rm -f "$saved"' EXIT
"$root/scripts/stamp-version.sh" --release
cd "$root"
# shellcheck disable=SC2086 # the flags are word lists
for product in ripple rippled; do "$swift" build -c release --product "$product" $release_flags ${BUILD_FLAGS:-}; done
# shellcheck disable=SC2086
bin=$("$swift" build -c release --show-bin-path $release_flags ${BUILD_FLAGS:-})
mkdir -p "$out"
install -m 0755 "$bin/ripple" "$bin/rippled" "$out/"
# The man pages now, beside the binaries: `make dist BIN_DIR=…` and `make deb BIN_DIR=…` then build nothing.
"$root/scripts/man-pages.sh" "$out/man" "$out/ripple" "$out/rippled" >&2
echo "release binaries in $out: $("$out/ripple" --version) ($(sed -n 's/^commit: //p' < <("$out/ripple" --version --verbose)))"
