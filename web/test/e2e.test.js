// End-to-end tests of the playground in headless Chromium (Debian's, driven by playwright-core):
// the built page (web/dist) served by `tafl serve`, one browser for every test. Run by
// `bash .ci/web` after web/build.sh; screenshots go to docs/img/ (docs/web.md).
//
// Environment: TAFL_BIN (the tafl program, default debug/tafl in $CARGO_TARGET_DIR or target/), CHROMIUM (default
// /usr/bin/chromium), SCREENSHOTS=0 to leave docs/img alone.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateRawSync } from 'node:zlib';
import { chromium } from 'playwright-core';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const targetDir = process.env.CARGO_TARGET_DIR ? path.resolve(root, process.env.CARGO_TARGET_DIR) : path.join(root, 'target');
const tafl = process.env.TAFL_BIN ?? path.join(targetDir, 'debug/tafl');
const screenshots = process.env.SCREENSHOTS !== '0';

let server;
let url;
let context;
let profile;
let page;

/** `tafl serve --port 0` and the URL it prints. */
function serve() {
  return new Promise((resolve, reject) => {
    server = spawn(tafl, ['serve', '--port', '0', '--dir', path.join(root, 'web/dist')]);
    let out = '';
    server.stdout.on('data', (chunk) => {
      out += chunk;
      const found = /http:\/\/127\.0\.0\.1:\d+\//.exec(out);
      if (found) resolve(found[0]);
    });
    server.stderr.on('data', (chunk) => { out += chunk; });
    server.on('exit', (code) => reject(new Error(`tafl serve exited ${code}: ${out}`)));
  });
}

async function shot(name) {
  if (screenshots) await page.screenshot({ path: path.join(root, 'docs/img', name) });
}

/** The editor's whole text, as "Download .tafl" saves it. */
async function downloadedText(from) {
  const [download] = await Promise.all([from.waitForEvent('download'), from.click('#download-tafl')]);
  return readFile(await download.path(), 'utf8');
}

/**
 * Clicks Share and returns the link it writes. The box's value is read before the click: a wait
 * for "changed from before" that reads "before" after the action races the page, and waits for
 * ever when the link was already written.
 */
async function shareLink(from) {
  const before = await from.locator('#share-link').inputValue();
  await from.click('#share');
  await from.waitForFunction((old) => document.querySelector('#share-link').value !== old, before);
  return from.locator('#share-link').inputValue();
}

const message = () => page.locator('#message');
const record = () => page.locator('#record');
const square = (name) => page.locator(`#board [data-square="${name}"]`);

before(async () => {
  url = await serve();
  profile = await mkdtemp(path.join(tmpdir(), 'tafl-chromium-'));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    viewport: { width: 1400, height: 900 },
    acceptDownloads: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  page = context.pages()[0] ?? await context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.errors = errors;
});

after(async () => {
  await context?.close();
  server?.kill();
  if (profile) await rm(profile, { recursive: true, force: true });
});

test('the page loads a bundled variant, its board and its record', async () => {
  await page.goto(url);
  await page.waitForSelector('body[data-ready="true"]');
  await page.locator('#board .piece').first().waitFor();
  assert.equal(await page.locator('#board .piece').count(), 37, 'Copenhagen: 24 + 12 + the king');
  assert.match(await page.locator('#game-title').textContent(), /Copenhagen/);
  assert.match(await page.locator('#problem-count').textContent(), /no problems/);
  assert.match(await record().textContent(), /variant: copenhagen/);
  await shot('playground.png');
});

test('the gallery opens another variant', async () => {
  await page.click('#gallery-open');
  await page.locator('#gallery-grid button').first().waitFor();
  assert.ok(await page.locator('#gallery-grid button').count() >= 15);
  await shot('gallery.png');
  await page.click('#gallery-grid button[data-variant="brandubh"]');
  await page.waitForFunction(() => document.querySelector('#game-title').textContent === 'Brandubh');
  assert.equal(await page.locator('#board .piece').count(), 13);
});

test('an illegal move is refused with the clause that forbids it; a legal one is dragged', async () => {
  await page.selectOption('#computer', 'none');
  await square('d7').click();
  await square('a7').click();
  await page.waitForFunction(() => document.querySelector('#message').className.includes('refusal'));
  const refusal = await message().textContent();
  assert.match(refusal, /d7-a7 is illegal/);
  assert.match(refusal, /only the king may enter the corners/);
  await shot('refusal.png');
  assert.doesNotMatch(await record().textContent(), /d7-a7/);

  const targets = page.locator('#board circle[fill="#d9480f"]');
  await square('d7').click();
  assert.equal(await targets.count(), 4, "d7 reaches b7, c7, e7 and f7; the corners are the king's");
  await square('d7').click();
  assert.equal(await targets.count(), 0, 'a second click puts the piece down');
  await square('d7').dragTo(square('c7'));
  await page.waitForFunction(() => document.querySelector('#record').textContent.includes('d7-c7'));
  assert.match(await page.locator('#turn').textContent(), /Defenders to move/);
});

test('the computer answers in its worker, and undo takes back both moves', async () => {
  await page.selectOption('#think', '500');
  await page.selectOption('#computer', 'defenders');
  await page.waitForFunction(() => /The computer played/.test(document.querySelector('#message').textContent),
    null, { timeout: 30000 });
  assert.match(await page.locator('#turn').textContent(), /Attackers to move/);
  assert.match(await page.locator('#thought').textContent(), /depth \d+.*expects [a-k]\d+-[a-k]\d+/);
  await shot('game.png');
  await page.click('#undo');
  await page.waitForFunction(() => !document.querySelector('#record').textContent.includes('d7-c7'));
  assert.match(await page.locator('#turn').textContent(), /Attackers to move · move 1/);
  await page.selectOption('#computer', 'none');
});

test('once loaded the page works offline, and Stop ends the computer\'s thinking', async () => {
  await context.setOffline(true);
  try {
    await page.selectOption('#think', '10000');
    await page.selectOption('#computer', 'attackers');
    await page.waitForFunction(() => !document.querySelector('#stop').disabled);
    assert.match(await message().textContent(), /thinking/);
    await page.click('#stop');
    assert.match(await message().textContent(), /Stopped/);
    assert.equal(await page.locator('#computer').inputValue(), 'none');
    assert.doesNotMatch(await record().textContent(), /[a-g]\d-[a-g]\d/, "no move was played");
    // A fresh worker, still offline, plays.
    await page.selectOption('#think', '500');
    await page.selectOption('#computer', 'attackers');
    await page.waitForFunction(() => /The computer played/.test(document.querySelector('#message').textContent),
      null, { timeout: 30000 });
  } finally {
    await context.setOffline(false);
  }
  await page.selectOption('#computer', 'none');
  await page.click('#undo');
  assert.match(await page.locator('#turn').textContent(), /Attackers to move · move 1/);
});

test('a mistake is diagnosed as it is typed, explained on hover, and its fix applied', async () => {
  await page.click('.cm-content');
  await page.keyboard.press('Control+End');
  await page.keyboard.type('\nthe kign is armed');
  await page.keyboard.press('Escape');
  const problem = page.locator('#problems li', { hasText: 'kign' });
  await problem.waitFor();
  assert.match(await problem.getAttribute('class'), /error/);
  assert.match(await page.locator('#problem-count').textContent(), /1 error/);
  assert.equal(await page.locator('.cm-lintRange-error').count() > 0, true, 'squiggle drawn');
  await page.locator('.cm-line', { hasText: 'only the king may enter the corners' })
    .locator('span', { hasText: /^only$/ }).hover();
  await page.locator('.tafl-hover').waitFor();
  await shot('diagnostic.png');
  await problem.locator('button.fix').click();
  await page.waitForFunction(() => ![...document.querySelectorAll('#problems li')].some((li) => li.textContent.includes('kign')));
  const text = await downloadedText(page);
  assert.match(text, /\nthe king is armed$/);
});

test('completion offers the names of the variant', async () => {
  await page.click('.cm-content');
  await page.keyboard.press('Control+End');
  await page.keyboard.type('\nthe ki');
  await page.keyboard.press('Control+Space');
  const option = page.locator('.cm-tooltip-autocomplete li', { hasText: 'king' }).first();
  await option.waitFor();
  await page.keyboard.press('Escape');
  for (let i = 0; i < 7; i++) await page.keyboard.press('Backspace');
});

test('a shared link opens the same text', async () => {
  const original = await downloadedText(page);
  const link = await shareLink(page);
  assert.match(link, /#v=[A-Za-z0-9_-]+$/);
  const other = await context.newPage();
  await other.goto(link);
  await other.waitForSelector('body[data-ready="true"]');
  await other.waitForFunction(() => document.querySelector('#game-title').textContent === 'Brandubh');
  assert.equal(await downloadedText(other), original);
  assert.match(await other.locator('#variant-name').textContent(), /shared/);
  await other.close();
  assert.deepEqual(page.errors, [], 'no uncaught errors in the page');
});

test('a shared link to a text with errors opens with its problems and no game', async () => {
  await page.click('.cm-content');
  await page.keyboard.press('Control+End');
  await page.keyboard.type('\nboard 0 x 0');
  await page.locator('#problems li.error').first().waitFor();
  const link = await shareLink(page);
  const other = await context.newPage();
  const errors = [];
  other.on('pageerror', (error) => errors.push(error.message));
  await other.goto(link);
  await other.waitForSelector('body[data-ready="true"]');
  await other.locator('#problems li.error').first().waitFor();
  assert.match(await other.locator('#message').textContent(), /Fix the errors/);
  assert.equal(await other.locator('#board .piece').count(), 0);
  for (const button of ['#undo', '#new-game', '#download-record', '#copy-record']) {
    if (await other.locator(button).isEnabled()) await other.click(button);
  }
  assert.deepEqual(errors, [], 'buttons without a game throw nothing');
  await other.close();
});

test('a link that inflates past 1 MiB is refused with a notice that stays', async () => {
  // Issue 47: an 815 KB link inflated to 600 MB, then opened an empty editor without a word.
  const huge = deflateRawSync(Buffer.alloc(3 * 1024 * 1024, 'a'))
    .toString('base64').replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  const other = await context.newPage();
  const errors = [];
  other.on('pageerror', (error) => errors.push(error.message));
  await other.goto(`${url}#v=${huge}`);
  await other.waitForSelector('body[data-ready="true"]');
  const notice = () => other.locator('#message').textContent();
  assert.match(await notice(), /larger than the 1 MiB/);
  // The page goes on with Copenhagen, and its own messages do not hide the notice.
  await other.waitForFunction(() => document.querySelector('#game-title').textContent.includes('Copenhagen'));
  assert.match(await notice(), /larger than the 1 MiB/);
  // The user's first action clears it.
  await other.click('#new-game');
  assert.doesNotMatch(await notice(), /larger than the 1 MiB/);
  assert.deepEqual(errors, []);
  await other.close();
});

test('undo of the computer\'s first move gives it the turn, and it answers again', async () => {
  // Issue 48: computer plays the attackers, it moves, Undo: "Taken back", then nothing moved.
  const other = await context.newPage();
  await other.goto(url);
  await other.waitForSelector('body[data-ready="true"]');
  await other.selectOption('#think', '500');
  await other.selectOption('#computer', 'attackers');
  const played = () => other.waitForFunction(() => /The computer played/.test(document.querySelector('#message').textContent),
    null, { timeout: 30000 });
  await played();
  await other.click('#undo');
  // Thinking again (the message changes), then its move again.
  await played();
  assert.doesNotMatch(await other.locator('#turn').textContent(), /Attackers to move/);
  await other.close();
});

test('an edit that keeps the rules keeps the game, and a permalink carries its moves', async () => {
  // Issue 48: a comment restarted the game, and a share link carried only the text.
  const other = await context.newPage();
  await other.goto(url);
  await other.waitForSelector('body[data-ready="true"]');
  await other.selectOption('#computer', 'none');
  const at = (name) => other.locator(`#board [data-square="${name}"]`);
  await at('d1').click();
  await at('d3').click();
  await other.waitForFunction(() => document.querySelector('#record').textContent.includes('d1-d3'));
  await other.click('.cm-content');
  await other.keyboard.press('Control+End');
  await other.keyboard.type('\nnote "kept"');
  // The rules panel shows the note once the new text is checked; the game is still there.
  await other.waitForFunction(() => document.querySelector('#rules').textContent.includes('Kept'));
  assert.match(await other.locator('#record').textContent(), /d1-d3/);
  assert.match(await other.locator('#turn').textContent(), /Defenders to move/);

  const link = await shareLink(other);
  assert.match(link, /#v=[A-Za-z0-9_-]+&m=d1-d3$/);
  const third = await context.newPage();
  const errors = [];
  third.on('pageerror', (error) => errors.push(error.message));
  await third.goto(link);
  await third.waitForSelector('body[data-ready="true"]');
  await third.waitForFunction(() => document.querySelector('#record').textContent.includes('d1-d3'));
  // The game goes on from the link's position: the computer (the defenders, by default) answers.
  await third.waitForFunction(() => /The computer played/.test(document.querySelector('#message').textContent),
    null, { timeout: 30000 });
  assert.match(await third.locator('#turn').textContent(), /Attackers to move · move 2/);
  assert.deepEqual(errors, []);
  await third.close();
  await other.close();
});

test('on a phone the board comes first and its coordinates can be read', async () => {
  // Issue 48: at 390x844 the board began 856 px down, under the editor, with 7 px coordinates.
  const phone = await context.newPage();
  await phone.setViewportSize({ width: 390, height: 844 });
  await phone.goto(url);
  await phone.waitForSelector('body[data-ready="true"]');
  await phone.locator('#board .piece').first().waitFor();
  const board = await phone.locator('#board').boundingBox();
  const editor = await phone.locator('#editor').boundingBox();
  assert.ok(board.y < editor.y, `the board (y ${board.y}) above the editor (y ${editor.y})`);
  assert.ok(board.y < 844, `the board starts on the first screen (y ${board.y})`);
  const letter = await phone.locator('#board text.coord').first().boundingBox();
  assert.ok(letter.height >= 10, `coordinates ${letter.height} px high`);
  await phone.close();
});

test('a typed move plays, the board flips, and a reload keeps the text', async () => {
  // Issue 48: no typing a move, no flipping the board, and a reload lost the text.
  const other = await context.newPage();
  await other.goto(url);
  await other.waitForSelector('body[data-ready="true"]');
  await other.locator('#board .piece').first().waitFor();
  await other.selectOption('#computer', 'none');
  await other.fill('#move-input', 'D1-D3');
  await other.press('#move-input', 'Enter');
  await other.waitForFunction(() => document.querySelector('#record').textContent.includes('d1-d3'));
  assert.equal(await other.locator('#move-input').inputValue(), '', 'the box empties once played');
  await other.fill('#move-input', 'a1-a2');
  await other.press('#move-input', 'Enter');
  await other.waitForFunction(() => document.querySelector('#message').className.includes('refusal'));

  const a1 = async () => (await other.locator('#board [data-square="a1"]').boundingBox());
  const before = await a1();
  await other.click('#flip');
  const after = await a1();
  assert.ok(after.y < before.y && after.x > before.x, 'a1 goes from the bottom left to the top right');

  await other.click('.cm-content');
  await other.keyboard.press('Control+End');
  await other.keyboard.type('\nnote "after a reload"');
  await other.waitForFunction(() => document.querySelector('#rules').textContent.includes('After a reload'));
  await other.reload();
  await other.waitForSelector('body[data-ready="true"]');
  await other.waitForFunction(() => document.querySelector('#rules').textContent.includes('After a reload'));
  await other.close();
});

test('Ctrl-F finds in the text', async () => {
  const other = await context.newPage();
  await other.goto(url);
  await other.waitForSelector('body[data-ready="true"]');
  await other.click('.cm-content');
  await other.keyboard.press('Control+f');
  await other.locator('.cm-search input[name="search"]').waitFor();
  await other.keyboard.type('throne');
  await other.keyboard.press('Enter');
  const found = other.locator('.cm-searchMatch-selected').first();
  await found.waitFor();
  assert.equal((await found.textContent()).toLowerCase(), 'throne');
  await other.close();
});

test('the board plays by keyboard: arrows, Enter, Enter', async () => {
  // Issue 48: the board had no focusable element.
  const other = await context.newPage();
  await other.goto(url);
  await other.waitForSelector('body[data-ready="true"]');
  await other.locator('#board .piece').first().waitFor();
  await other.selectOption('#computer', 'none');
  await other.focus('#board');
  // The cursor starts at the middle, f6 on Copenhagen's 11x11; d1 is two left and five down.
  await other.keyboard.press('ArrowLeft');
  await other.keyboard.press('ArrowLeft');
  for (let i = 0; i < 5; i++) await other.keyboard.press('ArrowDown');
  assert.equal(await other.locator('#board [data-cursor]').getAttribute('data-cursor'), 'd1');
  await other.keyboard.press('Enter');
  await other.keyboard.press('ArrowUp');
  await other.keyboard.press('ArrowUp');
  await other.keyboard.press('Enter');
  await other.waitForFunction(() => document.querySelector('#record').textContent.includes('d1-d3'));
  await other.close();
});

test('a record file loads its game, on its own variant', async () => {
  // Issue 48: no loading a record; the formats are those `tafl games` reads.
  const other = await context.newPage();
  await other.goto(url);
  await other.waitForSelector('body[data-ready="true"]');
  await other.selectOption('#computer', 'none');
  await other.setInputFiles('#load-record', {
    name: 'game.txt', mimeType: 'text/plain', buffer: Buffer.from('variant: brandubh\n\n1. d2-c2 d3-d2\n'),
  });
  await other.waitForFunction(() => document.querySelector('#game-title').textContent === 'Brandubh');
  await other.waitForFunction(() => document.querySelector('#record').textContent.includes('d3-d2'));
  assert.match(await other.locator('#message').textContent(), /2 moves of game\.txt played/);
  await other.setInputFiles('#load-record', {
    name: 'bad.txt', mimeType: 'text/plain', buffer: Buffer.from('variant: brandubh\n\n1. d1-c1 banana\n'),
  });
  await other.waitForFunction(() => /bad\.txt could not be read/.test(document.querySelector('#message').textContent));
  assert.match(await other.locator('#record').textContent(), /d3-d2/, 'the game is kept');
  await other.close();
});

test('the game can be stepped through without changing it', async () => {
  // Issue 48: a move list to step through.
  const other = await context.newPage();
  await other.goto(url);
  await other.waitForSelector('body[data-ready="true"]');
  await other.locator('#board .piece').first().waitFor();
  await other.selectOption('#computer', 'none');
  for (const move of ['d1-d3', 'f4-c4']) {
    await other.fill('#move-input', move);
    await other.press('#move-input', 'Enter');
    await other.waitForFunction((m) => document.querySelector('#record').textContent.includes(m), move);
  }
  const pieceOn = async (square) => (await other.locator(`#board [data-square="${square}"]`).count()) > 0
    && other.evaluate((sq) => {
      // A piece is drawn over its square's centre: look for a circle there.
      const rect = document.querySelector(`#board rect[data-square="${sq}"]`);
      const x = Number(rect.getAttribute('x')) + 50, y = Number(rect.getAttribute('y')) + 50;
      return [...document.querySelectorAll('#board circle')].some((c) => Math.abs(c.getAttribute('cx') - x) < 1 && Math.abs(c.getAttribute('cy') - y) < 1);
    }, square);
  assert.equal(await pieceOn('d3'), true);
  await other.click('#step-back');
  await other.click('#step-back');
  assert.match(await other.locator('#turn').textContent(), /Viewing after 0 of 2 plies/);
  assert.equal(await pieceOn('d1'), true, 'the start position');
  assert.equal(await pieceOn('d3'), false);
  await other.click('#step-forward');
  assert.match(await other.locator('#turn').textContent(), /Viewing after 1 of 2 plies/);
  await other.click('#step-live');
  assert.match(await other.locator('#turn').textContent(), /Attackers to move/);
  assert.match(await other.locator('#record').textContent(), /d1-d3 f4-c4/);
  await other.close();
});

test('a game starts from a position typed in, and its permalink keeps it', async () => {
  // Issue 48: loading a position (the form `tafl moves --from` reads).
  const other = await context.newPage();
  await other.goto(url);
  await other.waitForSelector('body[data-ready="true"]');
  await other.click('#gallery-open');
  await other.click('#gallery-grid button[data-variant="brandubh"]');
  await other.waitForFunction(() => document.querySelector('#game-title').textContent === 'Brandubh');
  await other.selectOption('#computer', 'none');
  await other.fill('#position-input', '/7/7/7/3K3/7/7/');
  await other.click('#position-form button[type="submit"]');
  await other.waitForFunction(() => /cannot be set up/.test(document.querySelector('#message').textContent));
  assert.equal(await other.locator('#board .piece').count(), 13, 'the game is kept');
  await other.fill('#position-input', '/7/7/7/3K3/7/7/3t3/');
  await other.selectOption('#position-side', 'defenders');
  await other.click('#position-form button[type="submit"]');
  await other.waitForFunction(() => document.querySelectorAll('#board .piece').length === 2);
  assert.match(await other.locator('#turn').textContent(), /Defenders to move/);
  await other.fill('#move-input', 'd4-d5');
  await other.press('#move-input', 'Enter');
  await other.waitForFunction(() => document.querySelector('#record').textContent.includes('d4-d5'));
  const link = await shareLink(other);
  assert.match(link, /&p=\/7\/7\/7\/3K3\/7\/7\/3t3\/&s=defenders&m=d4-d5$/);
  const third = await context.newPage();
  await third.goto(link);
  await third.waitForSelector('body[data-ready="true"]');
  await third.waitForFunction(() => document.querySelector('#record').textContent.includes('d4-d5'));
  assert.equal(await third.locator('#board .piece').count(), 2);
  await third.close();
  await other.close();
});
