// The share link's reader under Node, with hostile fragments (issue 47): whatever a link holds,
// `decode` returns a text of at most MAX_TEXT_BYTES or throws, and it never inflates past that
// limit. A seeded generator, so a failure names the case that found it.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deflateRawSync } from 'node:zlib';
import { encode, decode, decodeMoves, decodeStart, MAX_MOVES, MAX_TEXT_BYTES, TooLargeError } from '../src/share.js';

/** A small seeded generator (mulberry32): the same cases on every run. */
function generator(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const base64url = (bytes) => Buffer.from(bytes).toString('base64')
  .replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

test('a text comes back from its link', async () => {
  for (const text of ['', 'board 7 x 7\n', 'é ♔ 𝄞\n'.repeat(100)]) {
    assert.equal(await decode(`#${await encode(text)}`), text);
  }
  assert.equal(await decode('#nothing-here'), null);
});

test('any fragment decodes within the limit or throws', async () => {
  const random = generator(47);
  for (let i = 0; i < 300; i += 1) {
    const length = Math.floor(random() * 200);
    let fragment = 'v=';
    for (let j = 0; j < length; j += 1) fragment += ALPHABET[Math.floor(random() * ALPHABET.length)];
    try {
      const text = await decode(`#${fragment}`);
      assert.ok(text === null || new TextEncoder().encode(text).length <= MAX_TEXT_BYTES, fragment);
    } catch (error) {
      assert.ok(error instanceof Error, `${fragment}: ${error}`);
    }
  }
});

test('a link that inflates past the limit stops there', async () => {
  // A few kilobytes of deflate that would inflate to 64 MiB.
  const bomb = base64url(deflateRawSync(Buffer.alloc(64 * 1024 * 1024)));
  await assert.rejects(decode(`#v=${bomb}`), TooLargeError);
  // Exactly the limit is fine; one byte more is not.
  const full = base64url(deflateRawSync(Buffer.alloc(MAX_TEXT_BYTES, 'a')));
  assert.equal((await decode(`#v=${full}`)).length, MAX_TEXT_BYTES);
  const over = base64url(deflateRawSync(Buffer.alloc(MAX_TEXT_BYTES + 1, 'a')));
  await assert.rejects(decode(`#v=${over}`), TooLargeError);
});

test('a permalink carries the moves played, and a damaged move list is refused whole', async () => {
  const text = 'name "x"\nboard 7 x 7\n';
  const fragment = `#${await encode(text, ['d1-d3', 'e4-e2', 'k10-k11'])}`;
  assert.equal(await decode(fragment), text);
  assert.deepEqual(decodeMoves(fragment), ['d1-d3', 'e4-e2', 'k10-k11']);
  assert.deepEqual(decodeMoves(`#${await encode(text)}`), []);
  assert.deepEqual(decodeMoves('#v=abc&m='), []);
  for (const bad of ['d1d3', 'd1-d3.<script>', 'd1-d3..e4-e2', 'D1-D3', 'd100-d3']) {
    assert.throws(() => decodeMoves(`#v=abc&m=${bad}`), /not two squares/, bad);
  }
  const many = Array(MAX_MOVES + 1).fill('d1-d3').join('.');
  assert.throws(() => decodeMoves(`#v=abc&m=${many}`), /more than/);
});

test('a permalink carries a set-up position, and a damaged one is refused', async () => {
  const start = { position: '/7/7/7/3K3/7/7/3t3/', side: 'defenders' };
  const fragment = `#${await encode('text', ['d4-d5'], start)}`;
  assert.deepEqual(decodeStart(fragment), start);
  assert.deepEqual(decodeMoves(fragment), ['d4-d5']);
  assert.equal(decodeStart(`#${await encode('text')}`), null);
  for (const bad of ['&p=/7/<b>/&s=attackers', '&p=/7/&s=sideways', '&p=/7/']) {
    assert.throws(() => decodeStart(`#v=abc${bad}`), /not a position/, bad);
  }
});
