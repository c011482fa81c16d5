#!/usr/bin/env bash
# Register tiles on a GPU machine (NVIDIA H100, headless EGL through the vendor's library): the
# capability record on desktop GL and OpenGL ES (draw buffers, color attachments, texture units,
# the tile plan, the fallback with fewer draw buffers), then `glsolve bench tiles` — the assembly
# A·D²·Aᵀ and the Cholesky in GFLOP/s for the blocked and the tiled kernels beside faer's f32
# product and Cholesky on the machine's CPU, with fetches per multiply-add; the gpu and hybrid LP
# backends with blocked-16 against tiled-16 — the kernels again on OpenGL ES, and the GL tests of
# the tiled and blocked kernels.
#
# Two steps, both from the repository root:
#   1. Where the toolchain and the network are (the device machine has neither crates nor network):
#        bash scripts/device/register_tiles.sh --prepare
#      builds the release binary and the tiled and blocked test binaries, puts stripped copies in
#      .device/ (with the source they were built from) and the GL loader packages in .gl/ (for a
#      machine without libEGL); both folders are ignored by git, ~25 MiB together.
#   2. On the device machine, the two folders carried beside the checkout:
#        OUT=/some/folder bash scripts/device/register_tiles.sh
#      Without .device/glsolve it tries `cargo build --release --offline` there (which needs the
#      crates in that machine's cargo cache) and says so in summary.txt if that fails.
# What comes back: $OUT/summary.txt (machine, each step's exit code and time, the capability
# records, the tests' results), $OUT/tables.md (the benchmarks' tables), $OUT/raw.tar.gz (every
# step's output and JSON). Every step has its own time limit and the whole run stops itself
# within 330 s (a build included).
set -uo pipefail
cd "$(dirname "$0")/../.."
TESTS=(tiled blocked)

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
WORK=$(mktemp -d /tmp/register_tiles.XXXXXX)
SUMMARY=$OUT/summary.txt
TABLES=$OUT/tables.md
start=$(date +%s)
DEADLINE=${DEADLINE:-330}
left() { echo $((DEADLINE - ($(date +%s) - start))); }
# Only three files come back from $OUT: the raw outputs are packed after every step.
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

{
  echo "date: $(date -u +%FT%TZ)"
  echo "host: $(uname -a)"
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null || echo "nvidia-smi: not found"
  echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-) × $(nproc)"
  [ -f .device/source.txt ] && sed 's/^/binary: /' .device/source.txt
} >"$SUMMARY"

# The GL loaders (libglvnd's libEGL) where the image lacks them; NVIDIA's EGL vendor file where
# glvnd does not find it by itself.
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

# The binaries: carried (step 1), else built here offline.
BIN=.device/glsolve
declare -A TEST_BIN
if [ -x "$BIN" ]; then
  for t in "${TESTS[@]}"; do TEST_BIN[$t]=.device/test_$t; done
elif command -v cargo >/dev/null; then
  echo "no .device/glsolve: building with cargo build --release --offline" >>"$SUMMARY"
  if step build 200 cargo build --release --offline --bin glsolve "${TESTS[@]/#/--test=}" --message-format=short; then
    BIN=target/release/glsolve
    for t in "${TESTS[@]}"; do
      TEST_BIN[$t]=$(ls -t target/release/deps/$t-* 2>/dev/null | grep -v '\.d$' | head -1)
    done
  else
    tail -5 "$WORK/build.err" >>"$SUMMARY"
  fi
fi
if [ ! -x "$BIN" ]; then
  echo "no glsolve binary: run 'bash scripts/device/register_tiles.sh --prepare' where cargo and the network are, and carry .device and .gl" | tee -a "$SUMMARY" >&2
  pack
  exit 1
fi

step info_desktop 15 "$BIN" --gl desktop info
step info_es 15 "$BIN" --gl es info
step info_two_buffers 15 "$BIN" --gl es info --max-draw-buffers 2
for f in info_desktop info_es info_two_buffers; do
  echo "--- $f"
  grep -E 'renderer|version|DRAW_BUFFERS|COLOR_ATTACHMENTS|TEXTURE_IMAGE_UNITS|draw buffers used|register tiles' "$WORK/$f.txt" "$WORK/$f.err" 2>/dev/null | cut -d: -f2-
done >>"$SUMMARY"

# table NAME TITLE: the step's tables into tables.md, its last progress lines where it failed.
table() {
  { echo "## $2"; echo; cat "$WORK/$1.txt"; echo; } >>"$TABLES"
  [ -s "$WORK/$1.txt" ] || { echo "(no table; the end of its progress:)"; tail -5 "$WORK/$1.err"; echo; } >>"$TABLES"
}
# The kernels at the sizes measured on llvmpipe and one larger; the LPs apart (a run stopped by
# its limit keeps its progress lines in its .err file); the kernels again on OpenGL ES.
: >"$TABLES"
step kernels 75 "$BIN" --gl desktop bench tiles --no-lp --assembly 1024,4096 --cholesky 1024,2048,4096 \
  --variants blocked-8,blocked-16,blocked-32,tiled-8,tiled-16,tiled-32 --reps 5 --json "$WORK/kernels.json"
table kernels "Kernels, desktop GL"
step lp 100 "$BIN" --gl desktop bench tiles --no-kernels --lp 512,1024,2048 --lp-reps 3 --json "$WORK/lp.json"
table lp "The LP's gpu and hybrid backends, blocked-16 against tiled-16, desktop GL"
step kernels_es 35 "$BIN" --gl es bench tiles --no-lp --assembly 1024,4096 --cholesky 2048 \
  --variants blocked-16,tiled-16,tiled-32 --reps 3 --json "$WORK/kernels_es.json"
table kernels_es "Kernels, OpenGL ES"
for t in "${TESTS[@]}"; do
  exe=${TEST_BIN[$t]:-}
  if [ -n "$exe" ] && [ -x "$exe" ]; then
    step "test_$t" 40 "$exe" --test-threads 1
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
