#!/usr/bin/env bash
# The benchmark families on a GPU machine (NVIDIA H100, headless EGL through the vendor's
# library): which backend `auto` chooses for each family now that its probe is weighed against
# each side's predicted work (`bench families`, every default case, glsolve alone: the device
# has no HiGHS or Clarabel), then the hybrid and gpu backends on the L1 and Chebyshev families
# with the shapes on and off (time, GPU iterations, passes and fragments per iteration), then
# the GL tests of the split assembly (tests/lp_families_gl.rs, tests/tiled.rs, tests/blocked.rs).
#
# Two steps, both from the repository root:
#   1. Where the toolchain and the network are:
#        bash scripts/device/families.sh --prepare
#      builds the release binary and the three test binaries, puts stripped copies in .device/
#      (with the source they were built from) and the GL loader packages in .gl/ (both ignored
#      by git).
#   2. On the device machine, the two folders carried beside the checkout:
#        OUT=/some/folder bash scripts/device/families.sh
# What comes back: $OUT/summary.txt (machine, each step's exit code and time, the tests'
# results), $OUT/tables.md (the benchmarks' tables), $OUT/raw.tar.gz (every step's output and
# JSON). Every step has its own time limit; the whole run stops itself within 330 s.
set -uo pipefail
cd "$(dirname "$0")/../.."
TESTS=(lp_families_gl tiled blocked)

if [ "${1:-}" = "--prepare" ]; then
  set -e
  built=$(nice -n 10 cargo test --release --no-run "${TESTS[@]/#/--test=}" 2>&1 | tee /dev/stderr)
  nice -n 10 cargo build --release --bin glsolve
  rm -rf .device && mkdir -p .device
  strip -o .device/glsolve target/release/glsolve
  for t in "${TESTS[@]}"; do
    exe=$(sed -n "s|.*Executable tests/$t\.rs (\(.*\))|\1|p" <<<"$built")
    [ -x "$exe" ] || { echo "no test binary for tests/$t.rs" >&2; exit 1; }
    strip -o ".device/test_$t" "$exe"
  done
  {
    echo "built $(date -u +%FT%TZ) on $(uname -n)"
    git log -1 --format='commit %H %s' 2>/dev/null || true
    git status --short 2>/dev/null | sed 's/^/changed: /'
  } >.device/source.txt
  mkdir -p .gl
  (cd .gl && apt-get download libvulkan1 libegl1 libglvnd0 libopengl0 libgl1 libglx0 libgles2)
  du -sh .device .gl
  exit 0
fi

OUT=${OUT:?set OUT to the folder the results go to}
mkdir -p "$OUT"
WORK=$(mktemp -d /tmp/families.XXXXXX)
SUMMARY=$OUT/summary.txt
TABLES=$OUT/tables.md
start=$(date +%s)
DEADLINE=${DEADLINE:-330}
left() { echo $((DEADLINE - ($(date +%s) - start))); }
pack() { tar -czf "$OUT/raw.tar.gz" -C "$WORK" . 2>/dev/null; }
# step NAME SECONDS COMMAND...: stdout to NAME.txt, stderr (progress lines) to NAME.err, in $WORK.
step() {
  local name=$1 limit=$2
  shift 2
  if [ "$(left)" -lt 15 ]; then
    echo "skipped $name: out of time" >>"$SUMMARY"
    return 1
  fi
  [ "$limit" -gt "$(left)" ] && limit=$(left)
  local t0 rc
  t0=$(date +%s%N)
  timeout --kill-after=5 "$limit" "$@" >"$WORK/$name.txt" 2>"$WORK/$name.err"
  rc=$?
  printf '%-18s rc=%-3s %7d ms (limit %d s)\n' "$name" "$rc" $((($(date +%s%N) - t0) / 1000000)) "$limit" >>"$SUMMARY"
  pack
  return $rc
}
table() {
  { echo "## $2"; echo; cat "$WORK/$1.txt"; echo; } >>"$TABLES"
  [ -s "$WORK/$1.txt" ] || { echo "(no table; the end of its progress:)"; tail -8 "$WORK/$1.err"; echo; } >>"$TABLES"
}

{
  echo "date: $(date -u +%FT%TZ)"
  echo "host: $(uname -a)"
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null || echo "nvidia-smi: not found"
  echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-) × $(nproc)"
  [ -f .device/source.txt ] && sed 's/^/binary: /' .device/source.txt
} >"$SUMMARY"

if ! ldconfig -p | grep -q 'libEGL\.so\.1'; then
  if ls .gl/*.deb >/dev/null 2>&1; then
    for f in .gl/*.deb; do dpkg -x "$f" /; done
    ldconfig
    echo "libEGL: unpacked from .gl/" >>"$SUMMARY"
  else
    echo "libEGL: missing and no .gl/*.deb to unpack (run --prepare and carry .gl)" >>"$SUMMARY"
  fi
fi
vendor=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
if [ -f "$vendor" ] && ! ls /usr/share/glvnd/egl_vendor.d/*nvidia* /etc/glvnd/egl_vendor.d/*nvidia* >/dev/null 2>&1; then
  export __EGL_VENDOR_LIBRARY_FILENAMES=$vendor
  echo "EGL vendor: $vendor" >>"$SUMMARY"
fi

BIN=.device/glsolve
if [ ! -x "$BIN" ]; then
  echo "no .device/glsolve: run 'bash scripts/device/families.sh --prepare' where cargo and the network are, and carry .device and .gl" | tee -a "$SUMMARY" >&2
  pack
  exit 1
fi
step info 15 "$BIN" info
grep -E 'renderer|version' "$WORK/info.txt" 2>/dev/null | head -3 >>"$SUMMARY"

: >"$TABLES"
# What auto chooses per family (its reason is in the progress lines, one per case).
step auto 110 "$BIN" bench families --reps 1 --json "$WORK/auto.json"
table auto "Every family with no options (auto), glsolve alone"
# The GL backends with the shapes on and off.
step gl 130 "$BIN" bench families --cases l1:1000:100,l1:2000:200,l1:4000:400,chebyshev:2000:100,chebyshev:4000:200 \
  --backends hybrid,gpu --compare-full --reps 1 --json "$WORK/gl.json"
table gl "The hybrid and gpu backends on the L1 and Chebyshev families, shapes on and off"
for t in "${TESTS[@]}"; do
  exe=.device/test_$t
  if [ -x "$exe" ]; then
    step "test_$t" 30 "$exe" --test-threads 1
    echo "--- tests/$t.rs: $(grep -E '^test result' "$WORK/test_$t.txt" || echo 'no result line')" >>"$SUMMARY"
    grep -E '^test .* FAILED|panicked' "$WORK/test_$t.txt" "$WORK/test_$t.err" 2>/dev/null | head -20 >>"$SUMMARY"
  else
    echo "--- tests/$t.rs: no test binary" >>"$SUMMARY"
  fi
done
echo "total $(($(date +%s) - start)) s" >>"$SUMMARY"
pack
cat "$SUMMARY" "$TABLES"
rm -rf "$WORK"
