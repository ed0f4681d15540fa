// The computer player, off the page's thread: it rebuilds the game from the variant text and
// the moves so far, searches for the time allowed and answers with the search's report. The
// page sends the compiled wasm module first (so a new worker needs no network), and stops a
// search by ending the worker, so nothing here needs to listen while it thinks.

import init, { WebGame } from '../pkg/tafl_wasm.js';

let ready = null;

self.onmessage = async ({ data }) => {
  if (data.module) {
    ready = init({ module_or_path: data.module });
    return;
  }
  const { id, text, moves, ms } = data;
  try {
    await ready;
    const game = new WebGame(text, '');
    try {
      for (const move of moves) game.play(move);
      self.postMessage({ id, report: JSON.parse(game.think(ms)) });
    } finally {
      game.free();
    }
  } catch (error) {
    self.postMessage({ id, error: String(error?.message ?? error) });
  }
};
