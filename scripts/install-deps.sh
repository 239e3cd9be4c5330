#!/usr/bin/env bash
# Installs what Ripple builds and tests against, only when it is missing.
#   scripts/install-deps.sh            build: libgit2, libarchive, sqlite3 (with headers and the CLI: `make demo`
#                                      and the generate tests build a SQLite dictionary), pkg-config, git, curl
#                                      (the action's download)
#   scripts/install-deps.sh --test     also what the tests use: python3 with moto[server] and boto3
#                                      (a real S3 endpoint), check-jsonschema (CI files), openssl (test CAs),
#                                      ffmpeg (transforms), zip (archives), bubblewrap (rippled's run sandbox),
#                                      git-lfs (lfs sources), tmux (a real terminal for the progress
#                                      line), wamerican (/usr/share/dict/words: the isowords
#                                      example's public dictionary), nginx (WebDAV: the Bazel HTTP cache
#                                      result store's tests)
#   scripts/install-deps.sh --bench    also what `make bench` compares with: entr
#   scripts/install-deps.sh --browser  also Chromium, for `make dashboard-shot`
# Debian/Ubuntu: apt (as root, or through sudo). macOS: Homebrew. Anything else: says what to install.
set -euo pipefail
want_test=false
want_bench=false
want_browser=false
for option in "$@"; do
  case "$option" in
    --test) want_test=true ;;
    --bench) want_bench=true ;;
    --browser) want_browser=true ;;
    *) echo "error: unknown option $option (use --test, --bench or --browser)" >&2; exit 2 ;;
  esac
done

missing=()
pkg-config --version >/dev/null 2>&1 || missing+=(pkg-config)
pkg-config --exists libgit2 2>/dev/null || missing+=(libgit2-dev)
pkg-config --exists libarchive 2>/dev/null || missing+=(libarchive-dev)
pkg-config --exists sqlite3 2>/dev/null || missing+=(libsqlite3-dev)
command -v git >/dev/null 2>&1 || missing+=(git)
command -v sqlite3 >/dev/null 2>&1 || missing+=(sqlite3)
# The GitHub Action downloads Ripple's release archive with curl (scripts/action-run.sh fetch).
command -v curl >/dev/null 2>&1 || missing+=(curl ca-certificates)
if $want_test; then
  command -v python3 >/dev/null 2>&1 || missing+=(python3 python3-pip)
  command -v openssl >/dev/null 2>&1 || missing+=(openssl)
  command -v ffmpeg >/dev/null 2>&1 || missing+=(ffmpeg)
  command -v zip >/dev/null 2>&1 || missing+=(zip)
  if [ "$(uname)" != Darwin ]; then command -v bwrap >/dev/null 2>&1 || missing+=(bubblewrap); fi
  command -v git-lfs >/dev/null 2>&1 || missing+=(git-lfs)
  command -v tmux >/dev/null 2>&1 || missing+=(tmux)
  [ -r /usr/share/dict/words ] || missing+=(wamerican)
  # nginx-light has ngx_http_dav_module; it lives in /usr/sbin, which a non-root PATH may lack.
  command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || missing+=(nginx-light)
fi
if $want_bench; then
  command -v entr >/dev/null 2>&1 || missing+=(entr)
fi
if $want_browser; then
  command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || missing+=(chromium)
fi

if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(uname)" = Darwin ]; then
    command -v brew >/dev/null 2>&1 || {
      echo "error: missing ${missing[*]}; install Homebrew (https://brew.sh), then: brew install libgit2 libarchive pkg-config ffmpeg" >&2
      exit 3
    }
    echo "installing with Homebrew: libgit2 libarchive pkg-config$($want_test && echo ' ffmpeg git-lfs nginx')"
    brew install libgit2 libarchive pkg-config $($want_test && echo ffmpeg git-lfs nginx)
  elif command -v apt-get >/dev/null 2>&1; then
    sudo=()
    if [ "$(id -u)" -ne 0 ]; then
      if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
        sudo=(sudo -n)
      else
        echo "error: missing ${missing[*]} and not root; run: sudo apt-get install -y ${missing[*]}" >&2
        exit 3
      fi
    fi
    echo "installing with apt: ${missing[*]}"
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  else
    echo "error: missing ${missing[*]} and no apt-get or brew here; install them with your package manager" >&2
    exit 3
  fi
fi

if $want_test && ! python3 -c 'import moto.server, boto3, flask, flask_cors, prometheus_client' 2>/dev/null; then
  echo "installing with pip: moto[server] boto3 prometheus-client"
  python3 -m pip install --quiet 'moto[server]' boto3 prometheus-client 2>/dev/null \
    || python3 -m pip install --quiet --break-system-packages 'moto[server]' boto3 prometheus-client
fi
# check-jsonschema: its built-in vendor schemas (GitHub, GitLab, Buildkite) validate the CI examples offline.
if $want_test && ! python3 -c 'import check_jsonschema' 2>/dev/null; then
  echo "installing with pip: check-jsonschema"
  python3 -m pip install --quiet check-jsonschema 2>/dev/null \
    || python3 -m pip install --quiet --break-system-packages check-jsonschema
fi
exit 0
