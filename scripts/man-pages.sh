#!/usr/bin/env bash
# Man pages for the given binaries, written by swift-argument-parser's generate-manual tool (the tool
# behind its GenerateManual plugin). The plugin itself would first build the whole package again (all
# products, without --static-swift-stdlib); the tool alone is built once from the resolved checkout into
# its own scratch folder (offline: swift-argument-parser has no dependencies) and run on the binaries.
#   scripts/man-pages.sh OUT-DIR BINARY...
set -euo pipefail
out=${1:?usage: man-pages.sh OUT-DIR BINARY...}
shift
root=$(cd "$(dirname "$0")/.." && pwd)
swift=${SWIFT:-swift}
checkout="$root/.build/checkouts/swift-argument-parser"
[[ -f "$checkout/Package.swift" ]] || (cd "$root" && "$swift" package resolve)
scratch="$root/.build/generate-manual"
"$swift" build --package-path "$checkout" --scratch-path "$scratch" --product generate-manual >&2
mkdir -p "$out"
for binary in "$@"; do "$scratch/debug/generate-manual" "$binary" --output-directory "$out"; done
