#!/usr/bin/env bash
# Builds the student build's release artifacts for one target into DIST (docs/release.md):
#   grader-student-<version>-<target>.tar.gz   the `grader` binary alone
#   grader_student-<version>-<tags>.whl         the same binary as a wheel (`pip install grader-student`)
# and a `.sha256` beside each. One cargo build makes both: maturin builds the binary and packs it.
#
#   packaging/student/build.sh [TARGET] [DIST]
#
# TARGET defaults to this machine's (`rustc -vV`), DIST to `$CARGO_TARGET_DIR/dist` (or target/dist).
# Linux targets link glibc statically (`crt-static`): the binary runs on any Linux distribution with no
# shared library at all, and the wheel is tagged manylinux2014 (glibc 2.17, the oldest pip accepts for
# it). macOS links dynamically against the system's libraries, as every macOS binary does.
# Needs Rust with TARGET installed, and maturin (`pip install maturin`).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
host="$(rustc -vV | sed -n 's/^host: //p')"
target="${1:-$host}"
target_dir="${CARGO_TARGET_DIR:-$root/target}"
dist="${2:-$target_dir/dist}"
version="$(sed -n 's/^version = "\(.*\)"$/\1/p' "$root/Cargo.toml" | head -n 1)"
command -v maturin >/dev/null || {
  echo "error: no \`maturin\` here; hint: pip install maturin" >&2
  exit 2
}
mkdir -p "$dist"
dist="$(cd "$dist" && pwd)"
args=(build --locked --target "$target" --out "$dist")
case "$target" in
  *-linux-gnu)
    # The target is named even when it is the host's, so RUSTFLAGS reach only the grader and not the
    # build scripts and procedural macros (which cannot be static).
    export RUSTFLAGS="${RUSTFLAGS:-} -C target-feature=+crt-static"
    args+=(--compatibility manylinux2014)
    ;;
esac
(cd "$here" && maturin "${args[@]}")
binary="$target_dir/$target/student/grader"
[ -x "$binary" ] || {
  echo "error: maturin built no \`$binary\`" >&2
  exit 1
}
archive="grader-student-$version-$target.tar.gz"
# The archive and the checksums by Python (here already, for maturin), alike on Linux and macOS: a
# fixed owner, time and mode, so the same binary gives the same archive.
python3 - "$binary" "$dist" "$archive" <<'PY'
import gzip, hashlib, io, pathlib, sys, tarfile
binary, dist, archive = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2]), sys.argv[3]
data = binary.read_bytes()
info = tarfile.TarInfo("grader")
info.size, info.mode, info.mtime = len(data), 0o755, 315532800
raw = io.BytesIO()
with tarfile.open(fileobj=raw, mode="w", format=tarfile.GNU_FORMAT) as tar:
    tar.addfile(info, io.BytesIO(data))
with open(dist / archive, "wb") as out, gzip.GzipFile(fileobj=out, mode="wb", mtime=0, filename="") as gz:
    gz.write(raw.getvalue())
for f in [dist / archive, *dist.glob("grader_student-*.whl")]:
    digest = hashlib.sha256(f.read_bytes()).hexdigest()
    (dist / (f.name + ".sha256")).write_text(f"{digest}  {f.name}\n")
PY
ls -l "$dist"
