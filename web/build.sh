#!/usr/bin/env bash
# Builds the browser page's library: glsolve for wasm32 (release, with wasm SIMD: .cargo/config.toml
# and web/Cargo.toml) and its JavaScript bindings, into web/package/wasm. `--scalar` builds it
# without SIMD into web/package/wasm/scalar instead (not part of the package: what
# `node web/bench.mjs simd` compares against). Needs the wasm32 target and wasm-bindgen-cli of the version Cargo.lock pins
# (the browser tests install both when absent).
set -euo pipefail
cd "$(dirname "$0")/.."
version=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/[^0-9.]/, ""); print; exit }' Cargo.lock)
# wasm-bindgen of that version: $WASM_BINDGEN, else the one on PATH, else the one the browser
# tests install into target/tools.
bindgen=""
for c in "${WASM_BINDGEN:-}" "$(command -v wasm-bindgen || true)" target/tools/bin/wasm-bindgen; do
  if [ -n "$c" ] && [ -x "$c" ] && [ "$("$c" --version 2>/dev/null | awk '{print $2}')" = "$version" ]; then
    bindgen=$c
    break
  fi
done
if [ -z "$bindgen" ]; then
  echo "web/build.sh: no wasm-bindgen $version (the library's version) on PATH or in target/tools/bin;" \
       "install it with: cargo install wasm-bindgen-cli --version $version" \
       "(cargo test --release --test browser installs it into target/tools)" >&2
  exit 1
fi
if ! rustc --print target-libdir --target wasm32-unknown-unknown 2>/dev/null | xargs -r test -d; then
  echo "web/build.sh: the wasm32 target is missing; add it with: rustup target add wasm32-unknown-unknown" >&2
  exit 1
fi
if [ "${1:-}" = "--scalar" ]; then
  # RUSTFLAGS replaces .cargo/config.toml's flags for the wasm32 target.
  RUSTFLAGS="-C target-feature=-simd128" cargo build --release --target wasm32-unknown-unknown -p glsolve-web \
    --no-default-features --target-dir target/web-scalar
  dir=target/web-scalar out=web/package/wasm/scalar
else
  cargo build --release --target wasm32-unknown-unknown -p glsolve-web --target-dir target/web
  dir=target/web out=web/package/wasm
fi
"$bindgen" --target web --no-typescript --out-dir "$out" "$dir/wasm32-unknown-unknown/release/glsolve_web.wasm"
echo "web/build.sh: built $out ($(du -h "$out/glsolve_web_bg.wasm" | cut -f1) of wasm)"
