// A variant in a link: the text deflated (CompressionStream 'deflate-raw') and written in
// base64url after `#v=`, and the moves played, if any, after `&m=`, dot-separated
// (`&m=d1-d3.e4-e2`): a game's permalink. The fragment never reaches a server.

function toBase64Url(bytes) {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text) {
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

async function pipe(bytes, transform) {
  const stream = new Blob([bytes]).stream().pipeThrough(transform);
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** The fragment (`v=...`, then `&m=...` when there are moves) that carries `text` and the
 * game's `moves` (`d1-d3`). */
export async function encode(text, moves = [], start = null) {
  const packed = await pipe(new TextEncoder().encode(text), new CompressionStream('deflate-raw'));
  const from = start ? `&p=${start.position}&s=${start.side}` : '';
  const played = moves.length ? `&m=${moves.join('.')}` : '';
  return `v=${toBase64Url(packed)}${from}${played}`;
}

/** The set-up position a fragment starts from (`&p=...&s=...`), or null for the variant's
 * own. Throws for one that is not a position string or a side: a damaged link. */
export function decodeStart(fragment) {
  const position = /(?:^#?|&)p=([^&]*)/.exec(fragment)?.[1];
  if (position === undefined) return null;
  const side = /(?:^#?|&)s=([^&]*)/.exec(fragment)?.[1];
  if (!/^[A-Za-z0-9/]{1,2000}$/.test(position) || !['attackers', 'defenders'].includes(side)) {
    throw new Error('the link\'s position is not a position string and a side');
  }
  return { position, side };
}

/** The most moves a link may carry: far more than any game, few enough to replay at once. */
export const MAX_MOVES = 5000;

/** The moves a fragment carries (none when it has no `m=`). Throws for a move that is not two
 * squares (`d1-d3`) or for more than MAX_MOVES: a damaged link, said as such, rather than a
 * game that stops at a move nobody played. Whether each is legal, the game decides. */
export function decodeMoves(fragment) {
  const match = /(?:^#?|&)m=([^&]*)/.exec(fragment);
  if (!match || match[1] === '') return [];
  const moves = match[1].split('.');
  if (moves.length > MAX_MOVES) throw new Error(`the link carries more than ${MAX_MOVES} moves`);
  for (const move of moves) {
    if (!/^[a-z][0-9]{1,2}-[a-z][0-9]{1,2}$/.test(move)) {
      throw new Error(`the link's move “${move.slice(0, 20)}” is not two squares like d1-d3`);
    }
  }
  return moves;
}

/** The largest text a link may carry, in bytes: the checker's limit for a variant file
 * (src/check/limits.rs, MAX_FILE_BYTES). */
export const MAX_TEXT_BYTES = 1024 * 1024;

/** A link whose text would be larger than MAX_TEXT_BYTES. */
export class TooLargeError extends Error {
  constructor() {
    super(`the variant in this link is larger than ${MAX_TEXT_BYTES / 1024 / 1024} MiB`);
    this.name = 'TooLargeError';
  }
}

/** The bytes `stream` gives, stopping with TooLargeError past `limit`: a link of a few hundred
 * kilobytes can inflate to gigabytes, and reading it whole would take the tab's memory. */
async function readAtMost(stream, limit) {
  const reader = stream.getReader();
  const chunks = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.length;
    if (total > limit) {
      await reader.cancel();
      throw new TooLargeError();
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return bytes;
}

/** The text a fragment carries, or null when it carries none. Throws TooLargeError for a text
 * over MAX_TEXT_BYTES, another error for a damaged link. */
export async function decode(fragment) {
  const match = /(?:^#?|&)v=([A-Za-z0-9_-]+)/.exec(fragment);
  if (!match) return null;
  const stream = new Blob([fromBase64Url(match[1])]).stream().pipeThrough(new DecompressionStream('deflate-raw'));
  return new TextDecoder().decode(await readAtMost(stream, MAX_TEXT_BYTES));
}
