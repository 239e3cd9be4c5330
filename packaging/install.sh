#!/bin/sh
# Installs Ripple from this release archive (made by `make dist`; see README.md, "Install").
#   ./install.sh [--prefix DIR]   bin/, man pages and shell completions under DIR (default /usr/local)
#   ./install.sh --check          only check: the files against SHA256SUMS, and the system libraries
#   --with-deps                   first apt-get install the libraries' packages that are missing (root;
#                                 share/ripple/runtime-packages names them, as on the system it was built on)
# Exit codes: 0 installed (or checked), 2 usage, 3 a damaged archive or a missing system library (the
# package to install is named), 4 the prefix is not writable (re-run with sudo, or --prefix ~/.local).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
prefix=/usr/local
check_only=false
with_deps=false
while [ $# -gt 0 ]; do
  case "$1" in
    --prefix) prefix=${2:?--prefix needs a directory}; shift 2 ;;
    --prefix=*) prefix=${1#--prefix=}; shift ;;
    --check) check_only=true; shift ;;
    --with-deps) with_deps=true; shift ;;
    -h | --help) sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "install.sh: unknown argument '$1' (expected --prefix DIR, --check or --with-deps)" >&2; exit 2 ;;
  esac
done

# 1. Every file as it was packed (the archive's own .sha256 covers the download; this, the extraction).
if ! (cd "$here" && sha256sum --check --quiet --strict SHA256SUMS >/dev/null 2>&1); then
  echo "install.sh: the files in $here do not match SHA256SUMS: the archive is damaged; download it again" >&2
  (cd "$here" && sha256sum --check --quiet SHA256SUMS 2>&1 | head -5) >&2 || true
  exit 3
fi

if $with_deps && command -v apt-get >/dev/null 2>&1; then
  missing=""
  for package in $(awk '{ print $2 }' "$here/share/ripple/runtime-packages" | sort -u); do
    dpkg-query -W -f '${Status}' "$package" 2>/dev/null | grep -q 'ok installed' || missing="$missing $package"
  done
  if [ -n "$missing" ]; then
    echo "installing with apt:$missing"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >/dev/null
  fi
fi

# 2. The system libraries the binaries load (libgit2, libarchive, …): the loader's own error, with the
# package that provides the library on the system the archive was built for (share/ripple/runtime-packages).
for binary in ripple rippled; do
  if ! output=$("$here/bin/$binary" --version 2>&1); then
    library=$(printf '%s\n' "$output" | sed -n 's/.*error while loading shared libraries: \([^:]*\):.*/\1/p' | head -1)
    if [ -z "$library" ]; then
      echo "install.sh: bin/$binary does not start: $output" >&2
      exit 3
    fi
    name=$(basename "$library")
    package=$(awk -v lib="$name" '$1 == lib { print $2 }' "$here/share/ripple/runtime-packages" 2>/dev/null)
    echo "install.sh: bin/$binary needs the system library $name, which is missing or unreadable here." >&2
    if [ -n "$package" ]; then
      echo "  install it: sudo apt-get install $package   (its name on Debian/Ubuntu; elsewhere the package with $name)" >&2
    fi
    exit 3
  fi
done
if $check_only; then
  echo "ripple $("$here/bin/ripple" --version): files and system libraries check out"
  exit 0
fi

# 3. The files, where this user may write them: one line saying so, not one `install` error per file.
for folder in bin share/man/man1 share/bash-completion/completions share/zsh/site-functions \
  share/fish/vendor_completions.d; do
  existing="$prefix/$folder"
  while [ ! -e "$existing" ] && [ "$existing" != / ]; do existing=$(dirname "$existing"); done
  if [ ! -d "$existing" ] || [ ! -w "$existing" ]; then
    echo "install.sh: cannot write to $existing (the prefix $prefix is not writable by $(id -un)): re-run with sudo, or install for yourself with --prefix ~/.local" >&2
    exit 4
  fi
done
install -d "$prefix/bin" "$prefix/share/man/man1" "$prefix/share/bash-completion/completions" \
  "$prefix/share/zsh/site-functions" "$prefix/share/fish/vendor_completions.d"
install -m 0755 "$here/bin/ripple" "$here/bin/rippled" "$prefix/bin/"
install -m 0644 "$here"/share/man/man1/*.1 "$prefix/share/man/man1/"
install -m 0644 "$here"/share/bash-completion/completions/* "$prefix/share/bash-completion/completions/"
install -m 0644 "$here"/share/zsh/site-functions/* "$prefix/share/zsh/site-functions/"
install -m 0644 "$here"/share/fish/vendor_completions.d/* "$prefix/share/fish/vendor_completions.d/"
echo "installed ripple $("$prefix/bin/ripple" --version) and rippled into $prefix (the service: share/ripple/systemd/README.md)"
