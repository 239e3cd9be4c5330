# Sourced by dist.sh and deb.sh: `release_bins DIR` sets $bin_dir to DIR (or builds the release binaries
# into .build/release-bins when DIR is empty) and exits 2 unless both binaries are there and say $version,
# with their man pages in DIR/man (release-build.sh writes them: a given DIR means nothing is built here).
# Needs $root and $version.
release_bins() {
  bin_dir=${1:-}
  if [[ -z "$bin_dir" ]]; then
    bin_dir="$root/.build/release-bins"
    "$root/scripts/release-build.sh" "$bin_dir" >&2
  fi
  local binary built
  for binary in ripple rippled; do
    [[ -x "$bin_dir/$binary" ]] || { echo "error: $bin_dir/$binary is missing: run make release-bins" >&2; exit 2; }
    built=$("$bin_dir/$binary" --version)
    [[ "$built" == "$version" ]] \
      || { echo "error: $bin_dir/$binary is version $built, VERSION says $version: run make release-bins" >&2; exit 2; }
    [[ -f "$bin_dir/man/$binary.1" ]] || {
      echo "error: $bin_dir/man/$binary.1 is missing: run make release-bins (it writes the man pages beside the binaries)" >&2
      exit 2
    }
  done
}
