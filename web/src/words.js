// The page's words that depend on numbers and names, kept apart from the DOM so that Node can
// test them (web/test/words.test.js).

/** `n thing`, or `n things`. */
export function count(n, thing) {
  return `${n} ${thing}${n === 1 ? '' : 's'}`;
}

/** The problems of a text by severity, as the page heads their list: "no problems",
 * "1 error", "2 errors, 1 warning, 3 notes". */
export function problemCount(diagnostics) {
  if (diagnostics.length === 0) return 'no problems';
  const of = (severity) => diagnostics.filter((d) => d.severity === severity).length;
  return [['error', of('error')], ['warning', of('warning')], ['note', of('note')]]
    .filter(([, n]) => n > 0)
    .map(([severity, n]) => count(n, severity))
    .join(', ');
}

/** What the page says when a player presses on a square that holds none of the pieces of the
 * side to move: `owner` is the side name of the piece there (`null` for an empty square),
 * `toMove` the side name of the side to move (both plural, as variants name their sides). */
export function notYourPiece(owner, toMove) {
  return owner
    ? `That piece belongs to the ${owner}; the ${toMove} are to move.`
    : `Choose a piece belonging to the ${toMove} first.`;
}
