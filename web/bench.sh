#!/usr/bin/env bash
# The wasm engine against the native one on this machine: the same cases (perft and a fixed-depth
# one-thread search from the start), the same code, timed the same way; prints a Markdown table
# with the ratio (docs/performance.md, "Web"). `bash web/bench.sh [RUNS]` (fastest of RUNS, 3).
set -euo pipefail
web="$(cd "$(dirname "$0")" && pwd)"
cd "$(dirname "$web")"
root="$PWD"
# Cargo's target directory: target/ unless CARGO_TARGET_DIR or a cargo config moves it.
target=$(cargo metadata --format-version 1 --no-deps --offline 2>/dev/null |
    node -e 'let s = ""; process.stdin.on("data", (d) => { s += d; }).on("end", () => console.log(JSON.parse(s).target_directory))' ||
    echo "${CARGO_TARGET_DIR:-$root/target}")
runs="${1:-3}"
[ -f "$web/pkg/tafl_wasm_bg.wasm" ] || bash web/build.sh
cargo build --locked --release -p tafl-wasm --example speed
native=$("$target/release/examples/speed" "$runs")
wasm=$(node "$web/bench.mjs" "$runs")
node -e '
const [native, wasm] = [JSON.parse(process.argv[1]), JSON.parse(process.argv[2])];
console.log("| work | variant | depth | nodes | native | wasm (Node) | wasm time / native time |");
console.log("|---|---|---|---|---|---|---|");
native.forEach((n, i) => {
  const w = wasm[i];
  if (w.nodes !== n.nodes) throw new Error(`${n.work} ${n.variant}: ${n.nodes} native, ${w.nodes} wasm`);
  const rate = (m) => `${m.ms.toFixed(0)} ms, ${(m.nodes / m.ms / 1000).toFixed(2)} M/s`;
  console.log(`| ${n.work} | ${n.variant} | ${n.depth} | ${n.nodes.toLocaleString("en")} | ${rate(n)} | ${rate(w)} | ${(w.ms / n.ms).toFixed(2)}x |`);
});
' "$native" "$wasm"
