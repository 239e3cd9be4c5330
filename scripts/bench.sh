#!/usr/bin/env bash
# `make bench`: see scripts/bench.py for what is measured.
set -euo pipefail
exec python3 "$(dirname "$0")/bench.py" "$@"
