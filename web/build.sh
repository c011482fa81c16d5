#!/usr/bin/env bash
# Builds the browser page's library: glsolve for wasm32 (release) and its JavaScript bindings,
# into web/package/wasm. Needs the wasm32 target and wasm-bindgen-cli of the version Cargo.lock pins
# (`.ci/run` installs both when absent).
set -euo pipefail
cd "$(dirname "$0")/.."
version=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/[^0-9.]/, ""); print; exit }' Cargo.lock)
if ! command -v wasm-bindgen >/dev/null; then
  echo "web/build.sh: wasm-bindgen not found; install it with: cargo install wasm-bindgen-cli --version $version" >&2
  exit 1
fi
if [ "$(wasm-bindgen --version | awk '{print $2}')" != "$version" ]; then
  echo "web/build.sh: $(wasm-bindgen --version) does not match the library's wasm-bindgen $version;" \
       "install it with: cargo install --force wasm-bindgen-cli --version $version" >&2
  exit 1
fi
if ! rustc --print target-libdir --target wasm32-unknown-unknown 2>/dev/null | xargs -r test -d; then
  echo "web/build.sh: the wasm32 target is missing; add it with: rustup target add wasm32-unknown-unknown" >&2
  exit 1
fi
cargo build --release --target wasm32-unknown-unknown -p glsolve-web --target-dir target/web
wasm-bindgen --target web --no-typescript --out-dir web/package/wasm \
  target/web/wasm32-unknown-unknown/release/glsolve_web.wasm
echo "web/build.sh: built web/package/wasm ($(du -h web/package/wasm/glsolve_web_bg.wasm | cut -f1) of wasm)"
