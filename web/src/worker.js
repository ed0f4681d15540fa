// The computer player, off the page's thread: it brings its game to the variant text and the
// moves so far, searches for the time allowed and answers with the search's report. The game
// is kept between requests: the same text is not read again, and only the moves that differ
// from the last request's are taken back or played (a megabyte's text takes seconds to read).
// The page sends the compiled wasm module first (so a new worker needs no network), and stops
// a search by ending the worker, so nothing here needs to listen while it thinks.

import init from '../pkg/tafl_wasm.js';
import { openGame } from './games.js';

let ready = null;
/** The game of the last request: its text, the WebGame and the moves played in it. */
let current = null;

/** The game of `text` from `start` (a set-up position, or null for the variant's own) after
 * `moves`, from the last one where they agree. */
function gameFor(text, start, moves) {
  const key = JSON.stringify(start);
  if (current?.text !== text || current.key !== key) {
    current?.game.free();
    current = null; // a text that does not load leaves no game behind
    current = { text, key, game: openGame(text, '', start), moves: [] };
  }
  let same = 0;
  while (same < current.moves.length && same < moves.length && current.moves[same] === moves[same]) same += 1;
  while (current.moves.length > same) {
    current.game.undo();
    current.moves.pop();
  }
  for (const move of moves.slice(same)) {
    current.game.play(move);
    current.moves.push(move);
  }
  return current.game;
}

self.onmessage = async ({ data }) => {
  if (data.module) {
    ready = init({ module_or_path: data.module });
    return;
  }
  const { id, text, start, moves, ms } = data;
  try {
    await ready;
    self.postMessage({ id, report: JSON.parse(gameFor(text, start ?? null, moves).think(ms)) });
  } catch (error) {
    self.postMessage({ id, error: String(error?.message ?? error) });
  }
};
