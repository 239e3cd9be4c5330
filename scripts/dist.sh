#!/usr/bin/env bash
# `make dist`: dist/ripple-<version>-linux-<arch>.tar.gz and its .sha256. Inside, one folder:
#   bin/ripple, bin/rippled        release, Swift runtime linked statically (no toolchain needed)
#   share/man/man1/*.1             swift-argument-parser's generate-manual, run on those binaries by
#                                  release-build.sh (BIN-DIR/man): nothing is built here when BIN-DIR is given
#   share/bash-completion/completions/, share/zsh/site-functions/, share/fish/vendor_completions.d/
#   share/ripple/systemd/          the units and their README; share/ripple/config/: the example configs
#   share/ripple/runtime-packages  the system libraries the binaries load, and their Debian packages
#   README.md, install.sh, SHA256SUMS
#   scripts/dist.sh [BIN-DIR]      BIN-DIR holds ripple and rippled from scripts/release-build.sh
#                                  (default: build them now into .build/release-bins)
# Environment: DIST_DIR (default dist); SWIFT, BUILD_FLAGS, RELEASE_FLAGS only without BIN-DIR. Prints the
# archive's path last.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
version=$(tr -d ' \n' <"$root/VERSION")
# shellcheck source=release-bins.lib.sh
source "$root/scripts/release-bins.lib.sh"
release_bins "${1:-}"
arch=$(uname -m)
name="ripple-$version-linux-$arch"
dist_dir=${DIST_DIR:-$root/dist}
mkdir -p "$dist_dir"
dist_dir=$(cd "$dist_dir" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/ripple-dist.XXXXXX")
trap 'rm -rf "$work"' EXIT
stage="$work/$name"
mkdir -p "$stage/bin" "$stage/share/man/man1" "$stage/share/bash-completion/completions" \
  "$stage/share/zsh/site-functions" "$stage/share/fish/vendor_completions.d" "$stage/share/ripple/systemd" \
  "$stage/share/ripple/config"
install -m 0755 "$bin_dir/ripple" "$bin_dir/rippled" "$stage/bin/"
# Debug information and local symbols off: about half of each binary.
if command -v strip >/dev/null; then strip --strip-unneeded "$stage/bin/ripple" "$stage/bin/rippled"; fi

# Completions and man pages come from the binaries themselves (swift-argument-parser).
for binary in ripple rippled; do
  "$stage/bin/$binary" --generate-completion-script bash >"$stage/share/bash-completion/completions/$binary"
  "$stage/bin/$binary" --generate-completion-script zsh >"$stage/share/zsh/site-functions/_$binary"
  "$stage/bin/$binary" --generate-completion-script fish >"$stage/share/fish/vendor_completions.d/$binary.fish"
done
install -m 0644 "$bin_dir"/man/*.1 "$stage/share/man/man1/"

install -m 0644 "$root/systemd/rippled.service" "$root/systemd/rippled-user.service" "$root/systemd/README.md" \
  "$stage/share/ripple/systemd/"
install -m 0644 "$root/Config/rippled.yml" "$root/Config/ripple.example.yml" "$stage/share/ripple/config/"
install -m 0644 "$root/README.md" "$stage/README.md"
if [[ -f "$root/LICENSE" ]]; then install -m 0644 "$root/LICENSE" "$stage/LICENSE"; fi
install -m 0755 "$root/packaging/install.sh" "$stage/install.sh"

# The system libraries the binaries load besides libc, each with the package that provided it here.
ldd "$stage/bin/ripple" "$stage/bin/rippled" | awk '$2 == "=>" && $3 ~ /^\// { print $1, $3 }' | sort -u \
  | while read -r soname path; do
    real=$(readlink -f "$path")
    # dpkg knows a file under the path its package shipped it at: /lib or /usr/lib (merged /usr).
    package=$( (dpkg -S "$real" || dpkg -S "${real#/usr}" || dpkg -S "/usr$real") 2>/dev/null | head -1 | cut -d: -f1 || true)
    case "$package" in libc6 | libgcc-s1 | libstdc++6 | "") continue ;; esac
    echo "$soname $package"
  done >"$stage/share/ripple/runtime-packages"

(cd "$stage" && find . -type f ! -name SHA256SUMS | LC_ALL=C sort | sed 's|^\./||' | xargs sha256sum >SHA256SUMS)
# Reproducible: sorted names, no owners, every mtime the commit's (or VERSION's).
epoch=$(git -C "$root" log -1 --format=%ct 2>/dev/null || stat -c %Y "$root/VERSION")
tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$epoch" -C "$work" -czf "$dist_dir/$name.tar.gz" "$name"
(cd "$dist_dir" && sha256sum "$name.tar.gz" >"$name.tar.gz.sha256")
echo "$dist_dir/$name.tar.gz"
