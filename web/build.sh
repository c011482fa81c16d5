#!/usr/bin/env bash
# Builds the browser page's library: glsolve for wasm32 (release, with wasm SIMD: .cargo/config.toml
# and web/Cargo.toml) and its JavaScript bindings, into web/package/wasm. `--scalar` builds it
# without SIMD into web/package/wasm/scalar instead (not part of the package: what
# `node web/bench.mjs simd` compares against). Needs the wasm32 target and wasm-bindgen-cli of the version Cargo.lock pins
# (the browser tests install both when absent).
#
# `--site OUT` builds it, then writes the page as static files into OUT: the page (web/static),
# the package it imports (OUT/package) and the NETLIB problems its self-test solves (OUT/data).
# Any static host serves OUT as it is, at its root or under a path; no glsolve server is needed.
# Served cross-origin isolated (COOP/COEP: OUT/_headers says so to hosts that read that file) an
# abort interrupts a solve in the worker; served as most hosts do, it terminates the worker.
set -euo pipefail
cd "$(dirname "$0")/.."
site=""
if [ "${1:-}" = "--site" ]; then
  site=${2:?"web/build.sh --site OUT: name the folder to write"}
  case "$site" in /*) ;; *) site="$PWD/$site" ;; esac
  # Replaced whole, so only an empty folder or an earlier site is taken.
  if [ -d "$site" ] && [ -n "$(ls -A "$site")" ] && [ ! -f "$site/package/wasm/glsolve_web.js" ]; then
    echo "web/build.sh: $site is not empty and holds no earlier site; name a new or empty folder" >&2
    exit 1
  fi
fi
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
if [ -n "$site" ]; then
  rm -rf "$site"
  mkdir -p "$site/package/wasm" "$site/data/netlib"
  cp web/static/*.html web/static/*.js web/static/*.css "$site/"
  cp -r web/package/index.js web/package/src web/package/LICENSE-MIT web/package/LICENSE-APACHE "$site/package/"
  cp web/package/wasm/glsolve_web.js web/package/wasm/glsolve_web_bg.wasm "$site/package/wasm/"
  cp tests/data/netlib/*.mps tests/data/netlib/optimal.tsv "$site/data/netlib/"
  # Netlify's and Cloudflare Pages' header file: the page cross-origin isolated, so that an abort
  # interrupts the solve (other hosts: send these two headers with every file, or do without).
  printf '/*\n  Cross-Origin-Opener-Policy: same-origin\n  Cross-Origin-Embedder-Policy: require-corp\n' > "$site/_headers"
  echo "web/build.sh: wrote the page as static files into $site ($(du -sh "$site" | cut -f1))"
fi
