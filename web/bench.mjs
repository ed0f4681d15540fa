// The wasm half of the web speed comparison (`bash web/bench.sh`, docs/performance.md): the
// cases of tafl_wasm's `speed`, in Node's V8 (Chromium's engine), as one JSON array on stdout.
// Needs web/pkg from web/build.sh.

import { readFile } from 'node:fs/promises';
import init, { speed } from './pkg/tafl_wasm.js';

const runs = Number(process.argv[2] ?? 3);
await init({ module_or_path: await readFile(new URL('./pkg/tafl_wasm_bg.wasm', import.meta.url)) });
console.log(speed(runs));
