// The playground page: the editor on one side, the game of the edited variant on the other.
// Every answer about the rules comes from the wasm module (the tafl library); this file wires
// the page together.

import init, { WebGame, recordMoves, variants } from '../pkg/tafl_wasm.js';
import { createEditor, setText, fixChange, fixName, inline } from './editor.js';
import { boardSvg, legendHtml, coords } from './board.js';
import { encode, decode, decodeMoves, decodeStart, TooLargeError } from './share.js';
import { openGame } from './games.js';
import { problemCount, notYourPiece } from './words.js';

const $ = (id) => document.getElementById(id);

const page = {
  view: null,
  name: 'copenhagen',
  text: '',
  game: null,
  state: null,
  selected: null,
  worker: null,
  drag: null,
  workerUrl: null,
  module: null,
  request: 0,
  thinking: false,
  flipped: false,
  /** The position the game started from, `{ position, side }`; null: the variant's start. */
  start: null,
  /** While stepping through the game: the plies shown; null shows the game as it stands. */
  viewPly: null,
  /** The square the keyboard points at (arrows), or null before the board is first used so. */
  cursor: null,
  // Whether a notice the user has not yet acted on holds the message box (`say`).
  notice: false,
  checked: null,
  diagnostics: [],
};

// ---- messages -----------------------------------------------------------------------------

/** Shows `text` in the message box. A `sticky` notice (a damaged link) stays there, whatever
 * the page says meanwhile, until the user clicks or types. */
function say(text, kind = 'info', { sticky = false } = {}) {
  if (page.notice && !sticky) return;
  const box = $('message');
  box.innerHTML = inline(text);
  box.className = `message ${kind}`;
  if (sticky) {
    page.notice = true;
    // Capture, so that the user's own action clears the notice before its handler speaks.
    const clear = () => {
      page.notice = false;
    };
    document.addEventListener('pointerdown', clear, { once: true, capture: true });
    document.addEventListener('keydown', clear, { once: true, capture: true });
  }
}

const sideName = (side) => page.state.sides[side === 'attackers' ? 0 : 1];

// ---- the editor's side ----------------------------------------------------------------------

function showProblems(text, diagnostics) {
  page.diagnostics = diagnostics;
  const list = $('problems');
  list.replaceChildren();
  const errors = diagnostics.filter((d) => d.severity === 'error').length;
  const count = $('problem-count');
  count.textContent = problemCount(diagnostics);
  count.className = `count ${errors ? 'errors' : diagnostics.length ? '' : 'clean'}`;
  for (const d of diagnostics) {
    const item = document.createElement('li');
    item.className = d.severity;
    const range = d.labels[0]?.range;
    const where = document.createElement('span');
    where.className = 'where';
    where.textContent = range ? `${range.line}:${range.column}` : '';
    where.title = 'Go there';
    where.onclick = () => {
      if (!range) return;
      page.view.dispatch({ selection: { anchor: range.from, head: range.to }, scrollIntoView: true });
      page.view.focus();
    };
    const text = document.createElement('span');
    text.innerHTML = inline(d.message);
    item.append(where, text);
    const code = document.createElement('span');
    code.className = 'code';
    code.textContent = `[${d.code}]`;
    item.append(code);
    if (d.help) {
      const help = document.createElement('div');
      help.className = 'help';
      help.innerHTML = `help: ${inline(d.help)}`;
      item.append(help);
    }
    if (d.fix) {
      const fix = document.createElement('button');
      fix.type = 'button';
      fix.className = 'fix';
      fix.textContent = `Fix: ${fixName(d)}`;
      // The list is redrawn on every check, so the fix is always for the current text.
      fix.onclick = () => page.view.dispatch({ changes: fixChange(d) });
      item.append(fix);
    }
    list.append(item);
  }
}

/** Keeps the text for this tab, so that a reload brings it back (a new tab starts afresh).
 * Storage may be refused (a private window, a full quota): then the text is simply not kept. */
function saveText(text) {
  try {
    sessionStorage.setItem('tafl.text', text);
    sessionStorage.setItem('tafl.name', page.name);
  } catch {
    // Not kept; the page works as before.
  }
}

/** The text this tab had before a reload, if any: `{ name, text }`. */
function savedText() {
  try {
    const text = sessionStorage.getItem('tafl.text');
    return text === null ? null : { name: sessionStorage.getItem('tafl.name') ?? 'copenhagen', text };
  } catch {
    return null;
  }
}

/** The checker worker's answer for `text`: `{ diagnostics, explanation, hash }`. */
function check(text) {
  return new Promise((resolve) => {
    page.checks += 1;
    const id = page.checks;
    page.pending.set(id, resolve);
    page.checker.postMessage({ id, text });
  });
}

function onChecked({ data }) {
  const resolve = page.pending.get(data.id);
  page.pending.delete(data.id);
  if (!resolve) return;
  if (data.error) {
    resolve({ diagnostics: [], explanation: null, hash: null, error: data.error });
    return;
  }
  resolve({ diagnostics: JSON.parse(data.diagnostics), explanation: data.explanation, hash: data.hash });
}

function onCheck(text, { diagnostics, explanation, hash, error }) {
  if (error) {
    say(`The text could not be checked: ${error}`, 'refusal');
    return;
  }
  saveText(text);
  showProblems(text, diagnostics);
  if (text === page.checked) return;
  page.checked = text;
  if (explanation === null) {
    $('rules').textContent = 'The rules are explained once the text has no errors.';
    say('Fix the errors in the text to play this variant; the board shows the last version that worked.');
    return;
  }
  $('rules').textContent = explanation;
  if (page.game && hash === page.rulesHash) {
    // The same rules (a comment, a name, the layout): the game goes on, under the new text's
    // names and line numbers.
    keepGame(text);
    return;
  }
  page.rulesHash = hash;
  const moves = page.pendingMoves ?? [];
  const from = page.pendingFrom ?? 'the link';
  // New rules start from their own start position, unless a link sets one up.
  page.start = page.pendingStart ?? null;
  page.pendingMoves = null;
  page.pendingFrom = null;
  page.pendingStart = null;
  newGame(text, moves, from);
}

// ---- the game -------------------------------------------------------------------------------

/** A game of `text` with `moves` played, as far as the rules allow: the game, and why it
 * stopped short (null when every move was played). Throws when the text cannot be played. */
function gameWith(text, moves, from = 'the link') {
  const game = openGame(text, page.name, page.start);
  for (const [index, move] of moves.entries()) {
    try {
      game.play(move);
    } catch (error) {
      return { game, stopped: `Move ${index + 1} of ${from}, ${move}, was not played: ${error.message}` };
    }
  }
  return { game, stopped: null };
}

/** A new game of `text`, with `moves` (a permalink's or a record's: `from` names it) played
 * first. */
function newGame(text = page.text, moves = [], from = 'the link') {
  stopThinking();
  let stopped;
  try {
    const made = gameWith(text, moves, from);
    page.game?.free();
    page.game = made.game;
    page.text = text;
    stopped = made.stopped;
  } catch (error) {
    say(error.message, 'refusal');
    return;
  }
  page.selected = null;
  page.viewPly = null;
  refresh();
  if (stopped) {
    say(stopped, 'refusal', { sticky: true });
  } else if (moves.length) {
    say(`The ${moves.length} move${moves.length === 1 ? '' : 's'} of ${from} played. ${sideName(page.state.toMove)} to move.`);
  } else {
    say(`${sideName(page.state.toMove)} to move. Click a piece, then where it goes.`);
  }
  maybeComputer();
}

/** The game so far, rebuilt on `text`, whose rules are the game's: every move plays again,
 * and the record, refusals and verdicts speak of the new text. A search under way goes on; its
 * move is as good on the rebuilt game. */
function keepGame(text) {
  const moves = page.state.plies.map((p) => p.move);
  try {
    const { game } = gameWith(text, moves);
    page.game.free();
    page.game = game;
    page.text = text;
  } catch (error) {
    say(error.message, 'refusal');
    return;
  }
  refresh();
}

function refresh() {
  page.state = JSON.parse(page.game.state());
  const { state } = page;
  if (page.viewPly !== null && page.viewPly >= state.plies.length) page.viewPly = null;
  const viewing = page.viewPly !== null;
  // Stepping through the game shows the position after `viewPly` plies; the game stays as it is.
  const shown = viewing ? positionAfter(page.viewPly) : state;
  const last = shown.plies.at(-1);
  const targets = page.selected && !viewing
    ? state.legal.filter((m) => m.startsWith(`${page.selected}-`)).map((m) => m.split('-')[1])
    : [];
  $('board').innerHTML = boardSvg(shown, {
    selected: viewing ? null : page.selected, targets, last: last?.move, captured: last?.captures,
    flipped: page.flipped, cursor: page.cursor,
  });
  $('legend').innerHTML = legendHtml(state);
  $('game-title').textContent = state.title;
  const turn = $('turn');
  if (viewing) {
    turn.textContent = `Viewing after ${page.viewPly} of ${state.plies.length} plies`;
  } else {
    turn.innerHTML = state.status === 'ongoing'
      ? `<span class="dot ${state.toMove}"></span>${escapeText(sideName(state.toMove))} to move · move ${state.moveNumber}`
      : 'Game over';
  }
  $('record').textContent = page.game.record();
  $('undo').disabled = state.plies.length === 0;
  const at = page.viewPly ?? state.plies.length;
  $('step-back').disabled = at === 0;
  $('step-forward').disabled = !viewing;
  $('step-live').disabled = !viewing;
}

/** The game's state after its first `plies` plies, for stepping through it. */
function positionAfter(plies) {
  const { game } = gameWith(page.text, page.state.plies.slice(0, plies).map((p) => p.move));
  try {
    return JSON.parse(game.state());
  } finally {
    game.free();
  }
}

/** Steps through the game: `to` a number of plies, or null for the game as it stands. */
function stepTo(to) {
  const total = page.state?.plies.length ?? 0;
  page.viewPly = to === null || to >= total ? null : Math.max(0, to);
  page.selected = null;
  refresh();
}

function escapeText(s) {
  const span = document.createElement('span');
  span.textContent = s;
  return span.innerHTML;
}

function afterMove(ply, by) {
  page.selected = null;
  refresh();
  const caught = ply.captures.length ? `, capturing ${ply.captures.join(', ')}` : '';
  if (ply.verdict) {
    say(`${by}${ply.move}${caught}. ${ply.verdict}`, 'verdict');
    showCitedLine(ply.verdict);
  } else {
    say(`${by}${ply.move}${caught}. ${sideName(page.state.toMove)} to move.`);
    maybeComputer();
  }
}

function play(move, by = '') {
  try {
    afterMove(JSON.parse(page.game.play(move)), by);
    return true;
  } catch (error) {
    say(error.message, 'refusal');
    showCitedLine(error.message);
    return false;
  }
}

/** Selects the clause a refusal or a verdict cites (`line 33, ...`) in the editor. */
function showCitedLine(words) {
  const cited = /line (\d+)/.exec(words);
  const number = cited ? Number(cited[1]) : 0;
  if (number < 1 || number > page.view.state.doc.lines) return;
  const line = page.view.state.doc.line(number);
  page.view.dispatch({ selection: { anchor: line.from, head: line.to }, scrollIntoView: true });
}

/** The board by keyboard: the arrows move a cursor (as the board is drawn, flipped or not),
 * Enter or Space picks up the piece under it or puts the picked-up piece down there, Escape
 * puts it back. */
function onBoardKey(event) {
  const { state } = page;
  if (!state) return;
  const steps = { ArrowUp: [0, 1], ArrowDown: [0, -1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };
  if (event.key in steps) {
    event.preventDefault();
    const [df, dr] = steps[event.key].map((d) => (page.flipped ? -d : d));
    const [file, rank] = coords(page.cursor ?? page.selected ?? squareName(state.width >> 1, state.height >> 1));
    const clamp = (v, size) => Math.max(0, Math.min(size - 1, v));
    page.cursor = squareName(clamp(file + df, state.width), clamp(rank + dr, state.height));
    refresh();
  } else if (event.key === 'Enter' || event.key === ' ') {
    event.preventDefault();
    if (page.cursor) pressOn(page.cursor);
  } else if (event.key === 'Escape' && page.selected) {
    page.selected = null;
    refresh();
  }
}

const squareName = (file, rank) => `${String.fromCharCode(97 + file)}${rank + 1}`;

const squareAt = (event) => event.target.closest?.('[data-square]')?.dataset.square;

/** Whether the person at the board may move now. */
function personToMove() {
  const { state } = page;
  return state && !page.thinking && page.viewPly === null && state.status === 'ongoing'
    && !computerMoves(state.toMove);
}

/** Tries a move; legal or not, the game decides, and a refusal comes back in its own words. */
function tryMove(from, to) {
  if (!play(`${from}-${to}`)) {
    page.selected = null;
    refresh();
  }
}

// A move is a click on a piece then on its square, or a drag from one to the other: a press
// on a piece of the side to move selects it; a release elsewhere moves it there; a press
// elsewhere moves the selected piece there; a press and release on the selected piece
// unselects it.
function onPress(event) {
  const square = squareAt(event);
  page.drag = null;
  if (!square || !personToMove()) return;
  const { state } = page;
  const own = state.pieces.find((p) => p.square === square && p.side === state.toMove);
  if (own) {
    page.drag = { from: square, wasSelected: square === page.selected };
    page.selected = square;
    refresh();
  } else if (page.selected) {
    tryMove(page.selected, square);
  } else {
    const piece = state.pieces.find((p) => p.square === square);
    say(notYourPiece(piece ? sideName(piece.side) : null, sideName(state.toMove)));
  }
}

/** Enter on `square`: the keyboard's click. A piece of the side to move is picked up (or put
 * back, if it is the one picked up); elsewhere the picked-up piece moves there. */
function pressOn(square) {
  if (!personToMove()) return;
  const { state } = page;
  const own = state.pieces.find((p) => p.square === square && p.side === state.toMove);
  if (own) {
    page.selected = page.selected === square ? null : square;
    refresh();
  } else if (page.selected) {
    tryMove(page.selected, square);
  } else {
    const piece = state.pieces.find((p) => p.square === square);
    say(notYourPiece(piece ? sideName(piece.side) : null, sideName(state.toMove)));
  }
}

function onRelease(event) {
  const { drag } = page;
  page.drag = null;
  const square = squareAt(event);
  if (!drag || !square || !personToMove()) return;
  if (square !== drag.from) {
    tryMove(drag.from, square);
  } else if (drag.wasSelected) {
    page.selected = null;
    refresh();
  }
}

// ---- the computer ---------------------------------------------------------------------------

const computerMoves = (side) => {
  const who = $('computer').value;
  return who === 'both' || who === side;
};

/** The computer's worker, started from the script and the compiled module fetched at load,
 * so that starting another one (after Stop) needs no network. */
function worker() {
  if (!page.worker) {
    page.worker = new Worker(page.workerUrl, { type: 'module' });
    page.worker.onmessage = onComputer;
    page.worker.postMessage({ module: page.module });
  }
  return page.worker;
}

function maybeComputer() {
  const { state } = page;
  if (!state || state.status !== 'ongoing' || page.thinking || !computerMoves(state.toMove)) return;
  page.thinking = true;
  page.request += 1;
  $('stop').disabled = false;
  say(`${sideName(state.toMove)} (the computer) are thinking…`, 'thinking');
  worker().postMessage({
    id: page.request,
    text: page.text,
    start: page.start,
    moves: state.plies.map((p) => p.move),
    ms: Number($('think').value),
  });
}

function onComputer({ data }) {
  if (data.id !== page.request || !page.thinking) return;
  page.thinking = false;
  $('stop').disabled = true;
  if (data.error) {
    say(`The computer could not move: ${data.error}`, 'refusal');
    return;
  }
  const { report } = data;
  const line = report.pv?.length ? `; expects ${report.pv.slice(0, 8).join(' ')}` : '';
  $('thought').textContent = `Computer: depth ${report.depth}, ${report.nodes.toLocaleString()} positions, `
    + `${Math.round(report.nps / 1000).toLocaleString()}k/s, score ${report.score}${line}`;
  if (report.move) play(report.move, 'The computer played ');
}

/** Ends a search in progress: its worker is ended (a search cannot be interrupted from
 * outside), and a fresh one is started for the next request. */
function stopThinking() {
  if (!page.thinking) return false;
  page.thinking = false;
  page.worker?.terminate();
  page.worker = null;
  $('stop').disabled = true;
  return true;
}

// ---- buttons --------------------------------------------------------------------------------

function download(name, text) {
  const link = document.createElement('a');
  link.href = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

function wireButtons() {
  $('board').addEventListener('pointerdown', onPress);
  $('board').addEventListener('pointerup', onRelease);
  $('board').addEventListener('keydown', onBoardKey);
  $('new-game').onclick = () => {
    if (!page.game) return;
    page.start = null;
    newGame();
  };
  $('position-form').onsubmit = (event) => {
    event.preventDefault();
    const position = $('position-input').value.trim();
    const side = $('position-side').value;
    if (!position || !page.game) return;
    try {
      // Checked before it replaces anything: a refused position leaves the game as it is.
      openGame(page.text, page.name, { position, side }).free();
    } catch (error) {
      say(`That position cannot be set up: ${error.message}`, 'refusal');
      return;
    }
    page.start = { position, side };
    newGame(page.text);
  };
  $('stop').onclick = () => {
    if (stopThinking()) {
      $('computer').value = 'none';
      say(`Stopped. The computer plays nobody now; ${sideName(page.state.toMove)} to move.`);
    }
  };
  $('undo').onclick = () => {
    stopThinking();
    if (!page.game?.undo()) return;
    // Against the computer, take back its answer and your move together.
    if (computerMoves(JSON.parse(page.game.state()).toMove) && $('computer').value !== 'both') page.game.undo();
    page.selected = null;
    refresh();
    say(`Taken back. ${sideName(page.state.toMove)} to move.`);
    // The turn goes back to whoever it belongs to: where that is the computer (its first move
    // taken back, or both sides its), it answers again.
    maybeComputer();
  };
  $('computer').onchange = () => maybeComputer();
  $('step-back').onclick = () => stepTo((page.viewPly ?? page.state.plies.length) - 1);
  $('step-forward').onclick = () => stepTo((page.viewPly ?? page.state.plies.length) + 1);
  $('step-live').onclick = () => stepTo(null);
  $('flip').onclick = () => {
    page.flipped = !page.flipped;
    $('flip').setAttribute('aria-pressed', String(page.flipped));
    if (page.game) refresh();
  };
  // A move typed as two squares (`d1-d3`, capitals too), played as a click would play it.
  $('move-form').onsubmit = (event) => {
    event.preventDefault();
    const typed = $('move-input').value.trim().toLowerCase();
    if (!typed) return;
    if (!page.game) {
      say('There is no game yet: the text is being checked, or has errors.', 'refusal');
      return;
    }
    if (!personToMove()) {
      say(page.state.status === 'ongoing' ? 'The computer is to move.' : 'The game is over.', 'refusal');
      return;
    }
    if (play(typed)) $('move-input').value = '';
  };
  // Until a text without errors has been loaded there is no game, and nothing to record.
  $('copy-record').onclick = () => page.game && navigator.clipboard?.writeText(page.game.record());
  $('download-record').onclick = () => page.game && download(`${page.name}-game.txt`, page.game.record());
  $('download-tafl').onclick = () => download(`${page.name}.tafl`, page.view.state.doc.toString());
  $('share').onclick = share;
  $('load-record').onchange = async (event) => {
    const [file] = event.target.files;
    event.target.value = '';
    if (file) await loadRecord(file);
  };
  for (const tab of document.querySelectorAll('.tab')) {
    tab.onclick = () => {
      for (const other of document.querySelectorAll('.tab')) {
        other.setAttribute('aria-selected', String(other === tab));
        $(`panel-${other.dataset.tab}`).hidden = other !== tab;
      }
    };
  }
}

/** The largest record the page reads: a game is a few kilobytes; a corpus belongs to `tafl
 * games`. */
const MAX_RECORD_BYTES = 16 * 1024 * 1024;

/** Plays a record file's first game (any format `tafl games` reads): on its own variant when
 * the record names a bundled one other than the text's, else on the text in the editor. */
async function loadRecord(file) {
  if (file.size > MAX_RECORD_BYTES) {
    say(`${file.name} is ${Math.round(file.size / 1024 / 1024)} MiB; the page reads records up to 16 MiB (tafl games reads more).`, 'refusal');
    return;
  }
  let found;
  try {
    found = JSON.parse(recordMoves(await file.text(), file.name));
  } catch (error) {
    say(`${file.name} could not be read: ${error.message}`, 'refusal');
    return;
  }
  const bundled = JSON.parse(variants()).find((v) => v.name === found.variant);
  if (bundled && bundled.name !== page.name) {
    openText(bundled.name, bundled.text);
    page.pendingMoves = found.moves;
    page.pendingFrom = file.name;
  } else {
    newGame(page.text, found.moves, file.name);
  }
}

async function share() {
  const moves = page.state?.plies.map((p) => p.move) ?? [];
  const fragment = await encode(page.view.state.doc.toString(), moves, page.start);
  history.replaceState(null, '', `#${fragment}`);
  const link = location.href;
  $('share-box').hidden = false;
  $('share-link').value = link;
  $('share-link').select();
  try {
    await navigator.clipboard.writeText(link);
    $('share-note').textContent = `Copied. Whoever opens it gets this text${moves.length ? ' and this game' : ''}.`;
  } catch {
    $('share-note').textContent = `Copy it from the box. Whoever opens it gets this text${moves.length ? ' and this game' : ''}.`;
  }
}

// ---- the gallery ----------------------------------------------------------------------------

function buildGallery(all) {
  const grid = $('gallery-grid');
  for (const variant of all) {
    const card = document.createElement('button');
    card.type = 'button';
    card.dataset.variant = variant.name;
    let picture = '';
    try {
      const game = new WebGame(variant.text, variant.name);
      picture = boardSvg(JSON.parse(game.state()), {}, true);
      game.free();
    } catch {
      // A bundled variant always loads (the library's tests say so); a card without a picture
      // is still a card.
    }
    card.innerHTML = `${picture}<span class="title"></span><span class="name"></span>`;
    card.querySelector('.title').textContent = variant.title;
    card.querySelector('.name').textContent = variant.name;
    card.onclick = () => {
      $('gallery').close();
      openText(variant.name, variant.text);
    };
    grid.append(card);
  }
  $('gallery-open').onclick = () => $('gallery').showModal();
  $('gallery-close').onclick = () => $('gallery').close();
}

function openText(name, text) {
  page.name = name;
  page.pendingMoves = null;
  $('variant-name').textContent = name === 'shared' ? 'shared variant' : `${name}.tafl`;
  if (location.hash) history.replaceState(null, '', location.pathname);
  setText(page.view, text);
}

// ---- start ----------------------------------------------------------------------------------

async function start() {
  // Everything the page will need is fetched now: it works offline once loaded.
  const [module, script, checker] = await Promise.all([
    WebAssembly.compileStreaming(fetch('tafl_wasm_bg.wasm')),
    fetch('worker.js').then((response) => response.blob()),
    fetch('checker.js').then((response) => response.blob()),
  ]);
  page.module = module;
  page.workerUrl = URL.createObjectURL(new Blob([script], { type: 'text/javascript' }));
  page.checker = new Worker(URL.createObjectURL(new Blob([checker], { type: 'text/javascript' })), { type: 'module' });
  page.checker.onmessage = onChecked;
  page.checker.postMessage({ module });
  page.checks = 0;
  page.pending = new Map();
  await init({ module_or_path: module });
  page.view = createEditor($('editor'), check, onCheck);
  wireButtons();
  const all = JSON.parse(variants());
  buildGallery(all);
  let shared = null;
  try {
    shared = await decode(location.hash);
    page.pendingMoves = shared === null ? null : decodeMoves(location.hash);
    page.pendingStart = shared === null ? null : decodeStart(location.hash);
  } catch (error) {
    shared = null;
    page.pendingMoves = null;
    page.pendingStart = null;
    const why = error instanceof TooLargeError
      ? `This link's variant is larger than the 1 MiB a variant may be, so it was not opened.`
      : 'This link is damaged: its variant could not be read.';
    say(`${why} Here is Copenhagen instead.`, 'refusal', { sticky: true });
  }
  const saved = shared === null ? savedText() : null;
  if (shared !== null) {
    page.name = 'shared';
    $('variant-name').textContent = 'shared variant';
    setText(page.view, shared);
  } else if (saved) {
    // A reload: the text as it was, edits included.
    page.name = saved.name;
    $('variant-name').textContent = saved.name === 'shared' ? 'shared variant' : `${saved.name}.tafl`;
    setText(page.view, saved.text);
  } else {
    const first = all.find((v) => v.name === page.name) ?? all[0];
    openText(first.name, first.text);
  }
  worker();
  document.body.dataset.ready = 'true';
}

start().catch((error) => say(`The playground could not start: ${error.message}`, 'refusal'));
