// The board, drawn from a game's state (WebGame.state()): the squares the rules name (throne,
// corners, camps, escape squares), the pieces by side and kind, and the marks of play
// (selection, legal targets, the last move and its captures). Pure: state in, SVG text out.

const CELL = 100;
const MARGIN = 50;

const THRONE = '#c9a45c';
const CORNER = '#a8744a';
// Other regions (camps, fortresses, ...) in the order the rules name them.
const REGION_FILLS = ['#b9cfe0', '#c8dcb8', '#e3c4d8', '#e9d3a6', '#c7c2e6'];
const LIGHT = '#efe2c4';
const DARK = '#e6d4ae';

const SIDE_FILL = { attackers: '#2d2a26', defenders: '#f7f1e1' };
const SIDE_RIM = { attackers: '#0f0d0b', defenders: '#5b4d38' };
const SIDE_INK = { attackers: '#f7f1e1', defenders: '#2d2a26' };

/** The colour of each square region the rules use, and whether a piece escapes to it. */
export function regionStyles(state) {
  const styles = [];
  let other = 0;
  for (const region of state.regions) {
    if (region.name === 'edge') continue;
    const fill = region.name === 'throne' ? THRONE
      : region.name === 'corners' ? CORNER
      : REGION_FILLS[other++ % REGION_FILLS.length];
    styles.push({ name: region.name, squares: new Set(region.squares), fill, escape: state.escapes.includes(region.name) });
  }
  return styles;
}

/** The kinds drawn with a letter: every kind but a side's most common soldier and its king. */
function lettered(state) {
  const counts = new Map();
  for (const p of state.pieces) counts.set(p.kind, (counts.get(p.kind) ?? 0) + 1);
  const plain = new Set();
  for (const side of ['attackers', 'defenders']) {
    let best = null;
    for (const p of state.pieces) {
      if (p.side === side && !p.king && (best === null || counts.get(p.kind) > counts.get(best))) best = p.kind;
    }
    if (best !== null) plain.add(best);
  }
  return (piece) => !piece.king && !plain.has(piece.kind);
}

const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c]));

/** One piece centred on (cx, cy): a disc in its side's colours, a crown for a king, the
 * symbol for a kind that is neither the common soldier nor a king. */
export function pieceSvg(piece, cx, cy, r, withLetter) {
  const fill = SIDE_FILL[piece.side];
  const rim = SIDE_RIM[piece.side];
  const ink = SIDE_INK[piece.side];
  let out = `<circle cx="${cx}" cy="${cy + r * 0.08}" r="${r}" fill="rgb(0 0 0 / 0.18)"/>`;
  out += `<circle cx="${cx}" cy="${cy}" r="${r}" fill="${fill}" stroke="${rim}" stroke-width="${r * 0.09}"/>`;
  out += `<circle cx="${cx}" cy="${cy}" r="${r * 0.72}" fill="none" stroke="${ink}" stroke-opacity="0.25" stroke-width="${r * 0.05}"/>`;
  if (piece.king) {
    const s = r * 0.55;
    const pts = [[-1, 0.55], [-1, -0.45], [-0.5, 0.05], [0, -0.7], [0.5, 0.05], [1, -0.45], [1, 0.55]]
      .map(([x, y]) => `${cx + x * s},${cy + y * s}`).join(' ');
    out += `<polygon points="${pts}" fill="#c9a45c" stroke="${ink}" stroke-width="${r * 0.06}" stroke-linejoin="round"/>`;
  } else if (withLetter) {
    out += `<text x="${cx}" y="${cy + r * 0.36}" font-size="${r * 1.0}" font-weight="700" text-anchor="middle" fill="${ink}" font-family="Georgia, serif">${esc(piece.symbol.toUpperCase())}</text>`;
  }
  return `<g class="piece" data-kind="${esc(piece.kind)}"><title>${esc(piece.display)} (${piece.side}) on ${piece.square}</title>${out}</g>`;
}

/** Square name of file/rank (0-based). */
export const squareName = (file, rank) => `${String.fromCharCode(97 + file)}${rank + 1}`;

/**
 * The board as SVG. `marks`: `selected` (a square), `targets` (squares the selected piece may
 * reach), `last` (the last move, `a1-a3`), `captured` (squares emptied by it), `flipped` (the
 * board turned half round), `cursor` (the keyboard's square); `compact` drops
 * the coordinates (the gallery's thumbnails).
 */
export function boardSvg(state, marks = {}, compact = false) {
  const { width, height } = state;
  const margin = compact ? 8 : MARGIN;
  const W = width * CELL + 2 * margin;
  const H = height * CELL + 2 * margin;
  // Flipped, the board is turned half round: the top rank and the last file nearest the player.
  const flip = marks.flipped === true;
  const x = (file) => margin + (flip ? width - 1 - file : file) * CELL;
  const y = (rank) => margin + (flip ? rank : height - 1 - rank) * CELL;
  const styles = regionStyles(state);
  const withLetter = lettered(state);
  const [lastFrom, lastTo] = (marks.last ?? '').split('-');
  const targets = new Set(marks.targets ?? []);
  const captured = new Set(marks.captured ?? []);
  let out = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" role="img" aria-label="${esc(state.title)} board">`;
  out += `<rect x="0" y="0" width="${W}" height="${H}" rx="${compact ? 10 : 18}" fill="#7a5431"/>`;
  out += `<rect x="${margin - 6}" y="${margin - 6}" width="${width * CELL + 12}" height="${height * CELL + 12}" fill="#5a3c22"/>`;
  for (let rank = 0; rank < height; rank++) {
    for (let file = 0; file < width; file++) {
      const sq = squareName(file, rank);
      const style = styles.find((s) => s.squares.has(sq));
      let fill = (file + rank) % 2 === 0 ? DARK : LIGHT;
      if (style) fill = style.fill;
      if (sq === lastFrom || sq === lastTo) fill = mix(fill);
      out += `<rect class="sq" data-square="${sq}" x="${x(file)}" y="${y(rank)}" width="${CELL}" height="${CELL}" fill="${fill}" stroke="#8b6b43" stroke-width="2"/>`;
      if (style?.escape) {
        out += `<rect x="${x(file) + 12}" y="${y(rank) + 12}" width="${CELL - 24}" height="${CELL - 24}" fill="none" stroke="#fff7e0" stroke-width="5" stroke-dasharray="12 8" pointer-events="none"/>`;
      }
      if (style?.name === 'throne') {
        const cx = x(file) + CELL / 2, cy = y(rank) + CELL / 2;
        out += `<path d="M${cx - 30} ${cy}L${cx} ${cy - 30}L${cx + 30} ${cy}L${cx} ${cy + 30}Z" fill="none" stroke="#8b6b43" stroke-width="4" pointer-events="none"/>`;
      }
    }
  }
  if (state.escapes.includes('edge') && !compact) {
    out += `<rect x="${margin - 3}" y="${margin - 3}" width="${width * CELL + 6}" height="${height * CELL + 6}" fill="none" stroke="#fff7e0" stroke-width="5" stroke-dasharray="16 10" pointer-events="none"/>`;
  }
  if (!compact) {
    for (let file = 0; file < width; file++) {
      out += `<text class="coord" x="${x(file) + CELL / 2}" y="${H - margin / 2}" font-size="26" text-anchor="middle" dominant-baseline="central" fill="#f3e6c8">${String.fromCharCode(97 + file)}</text>`;
    }
    for (let rank = 0; rank < height; rank++) {
      out += `<text class="coord" x="${margin / 2}" y="${y(rank) + CELL / 2}" font-size="26" text-anchor="middle" dominant-baseline="central" fill="#f3e6c8">${rank + 1}</text>`;
    }
  }
  for (const sq of captured) {
    const [file, rank] = coords(sq);
    const cx = x(file) + CELL / 2, cy = y(rank) + CELL / 2;
    out += `<path d="M${cx - 20} ${cy - 20}L${cx + 20} ${cy + 20}M${cx + 20} ${cy - 20}L${cx - 20} ${cy + 20}" stroke="#b3261e" stroke-width="8" stroke-linecap="round" opacity="0.75" pointer-events="none"/>`;
  }
  out += '<g pointer-events="none">';
  for (const piece of state.pieces) {
    out += pieceSvg(piece, x(piece.file) + CELL / 2, y(piece.rank) + CELL / 2, CELL * 0.36, withLetter(piece));
  }
  out += '</g>';
  if (marks.selected) {
    const [file, rank] = coords(marks.selected);
    out += `<rect x="${x(file) + 4}" y="${y(rank) + 4}" width="${CELL - 8}" height="${CELL - 8}" fill="none" stroke="#d9480f" stroke-width="7" rx="8" pointer-events="none"/>`;
  }
  for (const sq of targets) {
    const [file, rank] = coords(sq);
    out += `<circle cx="${x(file) + CELL / 2}" cy="${y(rank) + CELL / 2}" r="13" fill="#d9480f" opacity="0.6" pointer-events="none"/>`;
  }
  if (marks.cursor) {
    const [file, rank] = coords(marks.cursor);
    out += `<rect class="cursor" data-cursor="${marks.cursor}" x="${x(file) + 10}" y="${y(rank) + 10}" width="${CELL - 20}" height="${CELL - 20}" fill="none" stroke="#1f5fa8" stroke-width="6" stroke-dasharray="14 8" rx="6" pointer-events="none"/>`;
  }
  return out + '</svg>';
}

/** The legend: each region the board colours, then each kind of piece. */
export function legendHtml(state) {
  const withLetter = lettered(state);
  const parts = regionStyles(state).map((s) =>
    `<span><svg viewBox="0 0 20 20"><rect width="20" height="20" rx="3" fill="${s.fill}" stroke="#8b6b43"/></svg>${esc(s.name)}${s.escape ? ' (escape)' : ''}</span>`);
  if (state.escapes.includes('edge')) parts.push('<span>dashed border: the edge is an escape</span>');
  const seen = new Set();
  for (const piece of state.pieces) {
    if (seen.has(piece.kind)) continue;
    seen.add(piece.kind);
    parts.push(`<span><svg viewBox="0 0 40 40">${pieceSvg(piece, 20, 20, 16, withLetter(piece))}</svg>${esc(piece.display)}</span>`);
  }
  return parts.join('');
}

/** A square's file and rank from 0: `c2` is [2, 1]. */
export function coords(sq) {
  return [sq.charCodeAt(0) - 97, Number(sq.slice(1)) - 1];
}

/** A square's colour tinted to mark the last move. */
function mix(fill) {
  return fill === DARK || fill === LIGHT ? '#e8c77a' : fill;
}
