#!/usr/bin/env bash
# Register tiles on a GPU machine (NVIDIA H100, headless EGL through the vendor's library): the
# capability record on desktop GL and OpenGL ES (draw buffers, color attachments, texture units,
# the tile plan), then `glsolve bench tiles` — the assembly A·D²·Aᵀ and the Cholesky in GFLOP/s
# for the blocked and the tiled kernels beside faer's f32 product and Cholesky on the machine's
# CPU, with fetches per multiply-add; the gpu and hybrid LP backends with blocked-16 against
# tiled-16 — and, where their binaries were built, the GL tests of the blocked and tiled kernels.
#
# Run from the repository root with a prebuilt release binary (no Rust toolchain needed):
#   OUT=/some/folder bash scripts/device/register_tiles.sh
# Inputs: ./target/release/glsolve; optionally the test binaries target/release/deps/tiled-*
# and target/release/deps/blocked-* (`cargo test --release --no-run --test tiled --test blocked`).
# Everything goes under $OUT (summary.txt first); it stops itself before 5 minutes.
set -uo pipefail
OUT=${OUT:?set OUT to the folder the results go to}
mkdir -p "$OUT"
BIN=./target/release/glsolve
if [ ! -x "$BIN" ]; then
  echo "register_tiles.sh: $BIN is missing (build it with cargo build --release)" | tee "$OUT/error.txt" >&2
  exit 1
fi
start=$(date +%s)
left() { echo $((280 - ($(date +%s) - start))); }
# run NAME SECONDS COMMAND...: stdout to NAME.txt, stderr (progress lines) to NAME.err.
run() {
  local name=$1 limit=$2
  shift 2
  if [ "$(left)" -lt 10 ]; then
    echo "skipped $name: out of time" >>"$OUT/summary.txt"
    return
  fi
  [ "$limit" -gt "$(left)" ] && limit=$(left)
  local t0
  t0=$(date +%s%N)
  timeout --kill-after=5 "$limit" "$@" >"$OUT/$name.txt" 2>"$OUT/$name.err"
  local rc=$?
  printf '%-20s rc=%-3s %6d ms\n' "$name" "$rc" $((($(date +%s%N) - t0) / 1000000)) >>"$OUT/summary.txt"
}
{
  echo "date: $(date -u +%FT%TZ)"
  echo "host: $(uname -a)"
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null || echo "nvidia-smi: not found"
  echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-) × $(nproc)"
} >"$OUT/summary.txt"
run info_desktop 20 "$BIN" --gl desktop info
run info_es 20 "$BIN" --gl es info
run info_four_buffers 20 "$BIN" --gl es info --max-draw-buffers 4
# The kernels at the sizes measured on llvmpipe and one larger; the LPs apart (a run stopped by
# its limit keeps its progress lines in its .err file); the kernels again on OpenGL ES.
run kernels 80 "$BIN" bench tiles --no-lp --assembly 1024,4096 --cholesky 1024,2048,4096 \
  --variants blocked-8,blocked-16,blocked-32,tiled-8,tiled-16,tiled-32 --reps 5 --json "$OUT/kernels.json"
run lp 110 "$BIN" bench tiles --no-kernels --lp 512,1024,2048 --lp-reps 2 --json "$OUT/lp.json"
run kernels_es 40 "$BIN" --gl es bench tiles --no-lp --assembly 1024,4096 --cholesky 2048 \
  --variants blocked-16,tiled-16,tiled-32 --reps 3 --json "$OUT/kernels_es.json"
for t in tiled blocked; do
  exe=$(ls -t target/release/deps/$t-* 2>/dev/null | grep -v '\.d$' | head -1)
  if [ -n "$exe" ]; then
    run "test_$t" 60 "$exe" --test-threads 1
  fi
done
echo "total $(($(date +%s) - start)) s" >>"$OUT/summary.txt"
cat "$OUT/summary.txt"
