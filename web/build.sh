#!/usr/bin/env bash
# Builds the browser playground into web/dist/ (docs/web.md): the tafl-wasm crate in release
# for wasm32-unknown-unknown, its JavaScript bindings (wasm-bindgen --target web) and the page
# bundled by esbuild. Installs what is missing: the wasm32 target, wasm-bindgen-cli at the exact
# version of the wasm-bindgen crate in Cargo.lock, and the npm packages of package-lock.json.
set -euo pipefail
web="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$web")"
cd "$root"
# Cargo's target directory: target/ unless CARGO_TARGET_DIR or a cargo config moves it.
target=$(cargo metadata --format-version 1 --no-deps --offline 2>/dev/null |
    node -e 'let s = ""; process.stdin.on("data", (d) => { s += d; }).on("end", () => console.log(JSON.parse(s).target_directory))' ||
    echo "${CARGO_TARGET_DIR:-$root/target}")

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
    echo "== rustup target add wasm32-unknown-unknown"
    rustup target add wasm32-unknown-unknown
fi

# The CLI must match the crate exactly: the bindings' schema changes between versions.
version=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/[^0-9.]/, ""); print; exit }' Cargo.lock)
if [ -z "$version" ]; then
    echo "error: no wasm-bindgen in Cargo.lock" >&2
    exit 1
fi
if [ "$(wasm-bindgen --version 2>/dev/null | awk '{print $2}')" != "$version" ]; then
    echo "== cargo install wasm-bindgen-cli $version"
    # --locked first; a registry mirror that lacks one of the CLI's locked dependencies gets
    # the newest compatible ones instead (the CLI's own version is pinned either way).
    cargo install --locked wasm-bindgen-cli --version "$version" ||
        cargo install wasm-bindgen-cli --version "$version"
fi

if [ ! -d "$web/node_modules" ] || [ "$web/package-lock.json" -nt "$web/node_modules/.package-lock.json" ]; then
    echo "== npm ci"
    (cd "$web" && npm ci --no-audit --no-fund)
fi

echo "== cargo build -p tafl-wasm (release, wasm32)"
cargo build --locked -p tafl-wasm --release --target wasm32-unknown-unknown

echo "== wasm-bindgen"
rm -rf "$web/pkg"
wasm-bindgen --target web --out-dir "$web/pkg" --no-typescript \
    "$target/wasm32-unknown-unknown/release/tafl_wasm.wasm"

echo "== esbuild"
rm -rf "$web/dist"
mkdir -p "$web/dist"
(cd "$web" && npx --no-install esbuild src/main.js src/worker.js src/checker.js --bundle --format=esm \
    --minify --sourcemap --target=es2022 --outdir=dist --log-level=warning)
cp "$web/pkg/tafl_wasm_bg.wasm" "$web/index.html" "$web/style.css" "$web/dist/"
echo "built $web/dist: $(du -sh "$web/dist" | cut -f1), tafl_wasm_bg.wasm $(gzip -c "$web/dist/tafl_wasm_bg.wasm" | wc -c | numfmt --to=iec) gzipped"
