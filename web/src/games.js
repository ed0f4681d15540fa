// A game of a variant text, from the variant's own start or from a set-up position: the one
// place the page and the computer's worker make their WebGame.

import { WebGame } from '../pkg/tafl_wasm.js';

/** A WebGame of `text` (its record calling the variant `name`) from `start`, a set-up position
 * `{ position, side }`, or from the variant's own start when `start` is null. Throws the
 * text's or the position's errors. */
export function openGame(text, name, start) {
  return start
    ? WebGame.fromPosition(text, name, start.position, start.side)
    : new WebGame(text, name);
}
