#!/usr/bin/env bash
# What a DBA installs, built and tried as they would:
# - the release tarball runs on RHEL/Oracle Linux 8 (glibc 2.28): scripts/dist builds it for
#   glibc 2.28 with cargo-zigbuild; the binary in the tarball asks for no GLIBC symbol version
#   above 2.28 (objdump), is stripped, and runs: --version, a twin check, and the Instant
#   Client guide when no client is there (the binary loads libclntsh at run time);
# - the .deb (cargo-deb, installed when missing) from that binary: dpkg -i, then the installed
#   dgscope, its man page and completions, then dpkg -r. Needs root (CI runs as root).
# - the .rpm (cargo-generate-rpm, installed when missing) from that binary, stripped: it asks
#   for no GLIBC above 2.28 (rpm -qpR), and installs into a scratch root with Debian's rpm
#   (no RHEL here: --nodeps, the root has no glibc package), runs, and is erased.
set -euo pipefail
cd "$(dirname "$0")/.."
floor="2.28"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

line="$(CARGO_TARGET_DIR="${GLIBC_FLOOR_TARGET_DIR:-target/glibc}" scripts/dist --out "$work" --glibc "$floor" | tail -1)"
tarball="${line#*  }"
tar -C "$work" -xzf "$tarball"
bin="$(ls -d "$work"/dgscope-*/)dgscope"

need="$(objdump -T "$bin" | grep -o 'GLIBC_[0-9][0-9.]*' | sed 's/GLIBC_//' | sort -Vu | tail -1)"
echo "glibc floor: the binary needs GLIBC_$need (at most $floor allowed)"
if [ "$(printf '%s\n%s\n' "$need" "$floor" | sort -V | tail -1)" != "$floor" ]; then
  echo "glibc floor: FAIL: needs GLIBC_$need, above $floor" >&2
  exit 1
fi
if objdump -h "$bin" | grep -q '\.debug_info'; then
  echo "glibc floor: FAIL: the binary in the tarball is not stripped" >&2
  exit 1
fi
size="$(stat -c %s "$bin")"
echo "glibc floor: stripped binary $((size / 1024 / 1024)) MiB"

"$bin" --version | grep -q '^dgscope '
out="$("$bin" check --twin slow-srl --duration 30s || true)"
echo "$out" | head -1 | grep -q '^dgscope check: WARN' || { echo "glibc floor: FAIL: twin check said: $out" >&2; exit 1; }
err="$(P=x LD_LIBRARY_PATH= "$bin" check --primary dgmon@//nohost/P --standby dgmon@//nohost/S --password-env P 2>&1 || true)"
echo "$err" | grep -q 'DPI-1047' || { echo "glibc floor: FAIL: no Instant Client guide: $err" >&2; exit 1; }
echo "glibc floor: ok"

# The .deb, from the same binary (cargo deb looks for it under the target's triple).
command -v cargo-deb >/dev/null 2>&1 || cargo install cargo-deb --locked --quiet
triple="$(rustc -vV | awk '/^host:/ {print $2}')"
target_dir="${GLIBC_FLOOR_TARGET_DIR:-target/glibc}"
scripts/gen-assets --bin "$target_dir/$triple/release/dgscope" --out target/assets
deb="$(CARGO_TARGET_DIR="$target_dir" cargo deb --no-build --target "$triple" | tail -1)"
dpkg-deb -f "$deb" Depends | grep -q 'libc6 (>= 2.28)' || { echo "deb: FAIL: Depends is $(dpkg-deb -f "$deb" Depends)" >&2; exit 1; }
if [ "$(id -u)" -ne 0 ]; then
  echo "deb: built $deb; not root, so not installed" >&2
  exit 0
fi
trap 'dpkg -r dgscope >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
dpkg -i "$deb" >/dev/null
/usr/bin/dgscope --version | grep -q '^dgscope '
test -s /usr/share/man/man1/dgscope.1.gz
zcat /usr/share/man/man1/dgscope.1.gz | grep -q '^\.SH EXIT STATUS'
test -s /usr/share/bash-completion/completions/dgscope
test -s /usr/share/dgscope/themes/dark.toml
dpkg -r dgscope >/dev/null
test ! -e /usr/bin/dgscope
echo "deb: $(basename "$deb") installed, ran, removed: ok"

# The .rpm, from the same binary, stripped as the tarball's and the .deb's are.
command -v cargo-generate-rpm >/dev/null 2>&1 || cargo install cargo-generate-rpm --locked --quiet
strip "$target_dir/$triple/release/dgscope"
rm -rf "$target_dir/$triple/generate-rpm"
CARGO_TARGET_DIR="$target_dir" cargo generate-rpm --target "$triple"
rpmfile="$(ls "$target_dir/$triple"/generate-rpm/dgscope-*.rpm)"
rneed="$(rpm -qpR "$rpmfile" | grep -o 'GLIBC_[0-9][0-9.]*' | sed 's/GLIBC_//' | sort -Vu | tail -1)"
if [ "$(printf '%s\n%s\n' "$rneed" "$floor" | sort -V | tail -1)" != "$floor" ]; then
  echo "rpm: FAIL: requires GLIBC_$rneed, above $floor" >&2
  exit 1
fi
rsize="$(rpm -qp --queryformat '%{SIZE}' "$rpmfile" 2>/dev/null)"
root="$work/rpmroot"
mkdir -p "$root"
rpm --root "$root" --initdb 2>/dev/null
rpm --root "$root" -i --nodeps --noscripts "$rpmfile" 2>/dev/null
"$root/usr/bin/dgscope" --version | grep -q '^dgscope '
test -s "$root/usr/share/man/man1/dgscope.1"
grep -q '^\.SH EXIT STATUS' "$root/usr/share/man/man1/dgscope.1"
test -s "$root/usr/share/bash-completion/completions/dgscope"
test -s "$root/usr/share/dgscope/themes/dark.toml"
rpm --root "$root" -e --nodeps dgscope 2>/dev/null
test ! -e "$root/usr/bin/dgscope"
echo "rpm: $(basename "$rpmfile") requires GLIBC_$rneed at most, $((rsize / 1024 / 1024)) MiB installed; installed into a scratch root, ran, erased: ok"
