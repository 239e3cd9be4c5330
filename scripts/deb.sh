#!/usr/bin/env bash
# `make deb`: dist/ripple_<version>_<arch>.deb, built with Debian's own tools (dpkg-deb; dpkg-shlibdeps
# writes Depends from the libraries the binaries load). Files:
#   /usr/bin/ripple, /usr/bin/rippled
#   /lib/systemd/system/rippled.service, /usr/lib/systemd/user/rippled.service (ExecStart=/usr/bin/rippled)
#   /etc/ripple/rippled.yml (a conffile: an edited one survives upgrades)
#   completions (/usr/share/bash-completion/completions, /usr/share/zsh/vendor-completions,
#   /usr/share/fish/vendor_completions.d), man pages (/usr/share/man/man1), /usr/share/doc/ripple
# Maintainer scripts (packaging/deb/): the rippled system user and its folders; the service enabled, not
# started; stopped on removal; its state deleted on purge.
#   scripts/deb.sh [BIN-DIR]    BIN-DIR: ripple and rippled from scripts/release-build.sh (default: build)
# Environment: DIST_DIR (default dist), DEB_MAINTAINER (the Maintainer field, "Name <address>").
# Exit codes: 0 built (prints the .deb's path), 2 dpkg-deb or dpkg-shlibdeps missing, or bad binaries.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
for tool in dpkg-deb dpkg-shlibdeps; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "error: make deb needs $tool (Debian's package tools), which is not on PATH: apt-get install dpkg-dev" >&2
    exit 2
  fi
done
version=$(tr -d ' \n' <"$root/VERSION")
# shellcheck source=release-bins.lib.sh
source "$root/scripts/release-bins.lib.sh"
release_bins "${1:-}"
arch=$(dpkg --print-architecture)
dist_dir=${DIST_DIR:-$root/dist}
mkdir -p "$dist_dir"
dist_dir=$(cd "$dist_dir" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/ripple-deb.XXXXXX")
trap 'rm -rf "$work"' EXIT
stage="$work/ripple"
umask 022
install -d "$stage/DEBIAN" "$stage/usr/bin" "$stage/lib/systemd/system" "$stage/usr/lib/systemd/user" \
  "$stage/etc/ripple" "$stage/usr/share/man/man1" "$stage/usr/share/bash-completion/completions" \
  "$stage/usr/share/zsh/vendor-completions" "$stage/usr/share/fish/vendor_completions.d" \
  "$stage/usr/share/doc/ripple/examples" "$stage/usr/share/lintian/overrides"
install -m 0755 "$bin_dir/ripple" "$bin_dir/rippled" "$stage/usr/bin/"
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$stage/usr/bin/ripple" "$stage/usr/bin/rippled"
# The units as shipped, pointed at /usr/bin/rippled.
sed 's#^ExecStart=[^ ]*#ExecStart=/usr/bin/rippled#' "$root/systemd/rippled.service" \
  >"$stage/lib/systemd/system/rippled.service"
sed 's#^ExecStart=[^ ]*#ExecStart=/usr/bin/rippled#' "$root/systemd/rippled-user.service" \
  >"$stage/usr/lib/systemd/user/rippled.service"
chmod 0644 "$stage/lib/systemd/system/rippled.service" "$stage/usr/lib/systemd/user/rippled.service"
# 0640: rippled.yml names the token and secret files; postinst gives its group to rippled, which reads it.
install -m 0640 "$root/Config/rippled.yml" "$stage/etc/ripple/rippled.yml"
for binary in ripple rippled; do
  # Debian's completions are sourced, not run: no #! line.
  "$bin_dir/$binary" --generate-completion-script bash | sed '1{/^#!/d}' \
    >"$stage/usr/share/bash-completion/completions/$binary"
  "$bin_dir/$binary" --generate-completion-script zsh >"$stage/usr/share/zsh/vendor-completions/_$binary"
  "$bin_dir/$binary" --generate-completion-script fish >"$stage/usr/share/fish/vendor_completions.d/$binary.fish"
done
install -m 0644 "$bin_dir"/man/*.1 "$stage/usr/share/man/man1/"
gzip -9n "$stage"/usr/share/man/man1/*.1
install -m 0644 "$root/README.md" "$stage/usr/share/doc/ripple/README.md"
install -m 0644 "$root/systemd/README.md" "$stage/usr/share/doc/ripple/README.systemd.md"
install -m 0644 "$root/Config/ripple.example.yml" "$stage/usr/share/doc/ripple/examples/ripple.example.yml"
{
  echo "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/"
  echo "Upstream-Name: ripple"
  echo
  echo "Files: *"
  echo "Copyright: 2025-$(date -u +%Y) the Ripple authors"
  if [[ -f "$root/LICENSE" ]]; then
    # Debian policy: the Apache licence by reference to the system's copy, not its text (lintian errs).
    echo "License: Apache-2.0"
    echo " Licensed under the Apache License, Version 2.0 (the \"License\"); you may not use this"
    echo " software except in compliance with the License."
    echo " ."
    echo " On Debian systems, the complete text of the Apache License, Version 2.0 can be found in"
    echo " \"/usr/share/common-licenses/Apache-2.0\"."
  else
    echo "License: none-stated"
    echo " The Ripple repository states no licence."
  fi
} >"$stage/usr/share/doc/ripple/copyright"
maintainer=${DEB_MAINTAINER:-Ripple maintainers <ripple-maintainers@example.org>}
epoch=$(git -C "$root" log -1 --format=%ct 2>/dev/null || stat -c %Y "$root/VERSION")
{
  echo "ripple ($version) unstable; urgency=medium"
  echo
  echo "  * Release $version (scripts/deb.sh)."
  echo
  echo " -- $maintainer  $(date -u -R -d "@$epoch")"
} | gzip -9n >"$stage/usr/share/doc/ripple/changelog.gz"
install -m 0644 "$root/packaging/deb/lintian-overrides" "$stage/usr/share/lintian/overrides/ripple"
find "$stage/usr/share" -type f -exec chmod 0644 {} +

# Depends from the libraries the binaries load (dpkg-shlibdeps reads a debian/control beside them).
mkdir -p "$work/debian"
printf 'Source: ripple\n\nPackage: ripple\nArchitecture: any\n' >"$work/debian/control"
depends=$(cd "$work" && dpkg-shlibdeps -O -e ripple/usr/bin/ripple -e ripple/usr/bin/rippled 2>/dev/null \
  | sed -n 's/^shlibs:Depends=//p')
[[ -n "$depends" ]] || { echo "error: dpkg-shlibdeps found no dependencies" >&2; exit 4; }
installed_size=$(du -sk --exclude=DEBIAN "$stage" | cut -f1)
sed -e "s/@VERSION@/$version/" -e "s/@ARCH@/$arch/" -e "s/@DEPENDS@/$depends/" -e "s|@MAINTAINER@|$maintainer|" "$root/packaging/deb/control" \
  >"$stage/DEBIAN/control"
echo "Installed-Size: $installed_size" >>"$stage/DEBIAN/control"
echo /etc/ripple/rippled.yml >"$stage/DEBIAN/conffiles"
install -m 0755 "$root/packaging/deb/postinst" "$root/packaging/deb/prerm" "$root/packaging/deb/postrm" "$stage/DEBIAN/"
chmod 0644 "$stage/DEBIAN/control" "$stage/DEBIAN/conffiles"
deb="$dist_dir/ripple_${version}_$arch.deb"
SOURCE_DATE_EPOCH=$epoch dpkg-deb --root-owner-group -Zxz --build "$stage" "$deb" >&2
echo "$deb"
