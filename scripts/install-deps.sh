#!/usr/bin/env bash
# Installs the system packages Ripple builds and tests against, only when they are missing.
# Debian/Ubuntu: apt (as root, or through sudo). macOS: Homebrew. Anything else: says what to install.
set -euo pipefail

missing_apt=()
pkg-config --version >/dev/null 2>&1 || missing_apt+=(pkg-config)
if ! pkg-config --exists libgit2 2>/dev/null; then missing_apt+=(libgit2-dev); fi
if ! pkg-config --exists libarchive 2>/dev/null; then missing_apt+=(libarchive-dev); fi
command -v git >/dev/null 2>&1 || missing_apt+=(git)
command -v python3 >/dev/null 2>&1 || missing_apt+=(python3)

[ ${#missing_apt[@]} -eq 0 ] && exit 0

if [ "$(uname)" = Darwin ]; then
  if command -v brew >/dev/null 2>&1; then
    echo "installing with Homebrew: libgit2 pkg-config"
    brew install libgit2 libarchive pkg-config
    exit 0
  fi
  echo "error: missing ${missing_apt[*]}; install Homebrew (https://brew.sh) then: brew install libgit2 libarchive pkg-config" >&2
  exit 3
fi

if command -v apt-get >/dev/null 2>&1; then
  sudo=()
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
      sudo=(sudo -n)
    else
      echo "error: missing ${missing_apt[*]} and not root; run: sudo apt-get install -y ${missing_apt[*]}" >&2
      exit 3
    fi
  fi
  echo "installing with apt: ${missing_apt[*]}"
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing_apt[@]}" >/dev/null
  exit 0
fi

echo "error: missing ${missing_apt[*]} and no apt-get or brew here; install libgit2 (with headers) and pkg-config with your package manager" >&2
exit 3
