// Layout: card size and the arrangement of foundations, cells and columns for the frame's size.
//
// Every card of every column stays inside the frame: the cards are sized for the longest
// column (with a readable strip of each covered card), and a column's overlap shrinks as it
// grows (as PySolFC and KPat squeeze). Each place has a heading strip above it (its key).

import { $, state } from "./state.js";

const MIN_CARD_WIDTH = 30;
const MAX_CARD_WIDTH = 112;
const LARGE_MAX_CARD_WIDTH = 150; // the "Large cards" setting (which also keeps the big index)
const RATIO = 1.4; // card height / width (a poker card)
// On a phone held upright the width keeps the cards small and the height is to spare: the
// cards take the taller shape of a bridge card (57 × 89 mm) there.
const PORTRAIT_RATIO = 1.55;
const COMPACT_BELOW = 66; // narrower cards get the compact face (big index, one pip)
// The part of a card's width its corner index (rank and suit, the text's whole box) takes
// from the top (cards.js draws it), and the least strip of a covered card in CSS px.
const INDEX = 0.33;
const COMPACT_INDEX = 0.44;
const MIN_STRIP = 16;
let lastMode = null; // the arrangement last drawn, kept while it stays good
let lastF = undefined;
let lastC = undefined;

export function frameSize() {
  const frame = $("frame");
  return { w: frame.clientWidth, h: frame.clientHeight };
}

/**
 * The biggest cards that fit: foundations and cells in one row above the columns ("top")
 * when there are few enough, else beside them ("side") or in two rows ("stack").
 */
export function computeLayout(g) {
  const { w, h } = frameSize();
  const nCol = g.columns.length;
  const nCell = g.cells.length;
  const nF = g.foundations.length;
  const large = Boolean(state.settings.large_cards);
  const narrow = w < 600;
  // a phone held upright: the width decides the card size, so the margins are thin
  const portrait = narrow && h > w * 1.3;
  const pad = portrait ? 3 : narrow || h < 420 ? 6 : 14;
  const ratio = portrait ? PORTRAIT_RATIO : RATIO;
  const gapRatio = portrait ? 0.06 : narrow ? 0.07 : 0.14; // gap as a share of the card width
  const lab = narrow || h < 420 ? 15 : 18; // the heading strip above each place
  const longest = Math.max(1, ...g.columns.map((c) => c.length));
  // the height a column needs, in card heights: a card and a strip of each covered card
  // (room for eight cards at the usual overlap; longer columns at a strip that still shows
  // the index: small cards have a bigger index)
  const units = (strip) => 1 + Math.max(7 * 0.24, (longest - 1) * strip);
  const grids = (n) => [...new Set([1, 2, 4].map((rows) => Math.ceil(n / rows)))].map((cols) => ({ cols, rows: Math.ceil(n / cols) }));
  // each candidate: width in card widths and gaps; the height of each stack of places in
  // card heights (tableau: units ×), gaps and heading strips
  const candidates = [];
  if (nCell + nF <= nCol) {
    candidates.push({ mode: "top", slots: nCol, gaps: nCol + 1, rows: [{ units: 1, tab: 1, gaps: 1.4, labs: 2 }] });
  } else {
    for (const f of grids(nF)) {
      candidates.push({
        mode: "side",
        fCols: f.cols,
        slots: Math.max(nCol, nCell) + f.cols,
        gaps: Math.max(nCol, nCell) - 1 + 2 + 0.6 + (f.cols - 1) + 0.5,
        rows: [
          { units: 1, tab: 1, gaps: 1.4, labs: 2 },
          { units: f.rows, tab: 0, gaps: f.rows - 1, labs: f.rows },
        ],
      });
    }
    candidates.push({
      mode: "stack",
      slots: Math.max(nCol, nCell, nF),
      gaps: Math.max(nCol, nCell, nF),
      rows: [{ units: 2, tab: 1, gaps: 2.8, labs: 3 }],
    });
  }
  // cells on the left, foundations on the right, the columns the whole height between
  for (const c of grids(nCell)) {
    for (const f of grids(nF)) {
      if (c.rows > 4 || f.rows > 4) continue;
      candidates.push({
        mode: "wide",
        cCols: c.cols,
        fCols: f.cols,
        slots: c.cols + nCol + f.cols,
        gaps: c.cols - 1 + nCol - 1 + f.cols - 1 + 4 + 1.2 + 0.5,
        rows: [
          { units: 0, tab: 1, gaps: 0, labs: 1 },
          { units: c.rows, tab: 0, gaps: c.rows - 1, labs: c.rows },
          { units: f.rows, tab: 0, gaps: f.rows - 1, labs: f.rows },
        ],
      });
    }
  }
  const widthFor = (c, tabUnits) => {
    let cw = (w - 2 * pad - 2) / (c.slots + c.gaps * gapRatio);
    for (const r of c.rows) {
      cw = Math.min(cw, (h - 2 * pad - r.labs * lab) / ((r.units + r.tab * tabUnits) * ratio + r.gaps * gapRatio));
    }
    return Math.min(cw, large ? LARGE_MAX_CARD_WIDTH : MAX_CARD_WIDTH);
  };
  const pick = (tabUnits) => {
    let best = null;
    for (const c of candidates) {
      c.cw = widthFor(c, tabUnits);
      if (!best || c.cw > best.cw + 0.5) best = c;
    }
    // keep the arrangement the table had unless another gives clearly bigger cards
    const kept = candidates.find((c) => c.mode === lastMode && c.fCols === lastF && c.cCols === lastC);
    return kept && kept.cw * 1.08 >= best.cw ? kept : best;
  };
  // The strip of each covered card shows its whole index (rank and suit) and is at least
  // MIN_STRIP px: the cards are sized so that the longest column fits at that strip; when
  // not even the smallest cards let it fit, the frame scrolls (a strip too thin to read is
  // never drawn).
  const stripFor = (cw) => Math.max(MIN_STRIP, cw * (large || cw < COMPACT_BELOW ? COMPACT_INDEX : INDEX));
  let best = pick(units((large ? COMPACT_INDEX : INDEX) / ratio));
  for (let i = 0; i < 8; i++) {
    // (a little to spare: the card size is rounded to whole pixels below)
    const need = (1.03 * stripFor(Math.max(MIN_CARD_WIDTH, best.cw))) / (Math.max(MIN_CARD_WIDTH, best.cw) * ratio);
    const next = pick(units(need));
    if (Math.abs(next.cw - best.cw) < 0.25) {
      best = next.cw < best.cw ? next : best;
      break;
    }
    best = next;
  }
  lastMode = best.mode;
  lastF = best.fCols;
  lastC = best.cCols;
  const cw = Math.max(MIN_CARD_WIDTH, Math.floor(best.cw));
  const ch = Math.round(cw * ratio);
  const gap = Math.max(3, Math.round(cw * gapRatio));
  const compact = large || cw < COMPACT_BELOW;
  const strip = stripFor(cw);
  return { mode: best.mode, fCols: best.fCols, cCols: best.cCols, cw, ch, gap, pad, lab, compact, narrow, portrait, ratio: ch / cw, frameH: h, frameW: w, strip };
}

/** The height left for the columns' cards (below their headings). */
export function columnRoom(L) {
  const topRows = { stack: 2, wide: 0 }[L.mode] ?? 1;
  return L.frameH - 2 * L.pad - topRows * (L.lab + L.ch + L.gap * 1.4) - L.lab - 1;
}

/**
 * How far apart the n cards of a column sit: the usual overlap while the column fits, less
 * as it grows, so that its last card always ends inside the frame. On a phone held upright,
 * where the width keeps the cards small and the screen is tall, the columns fan out to use
 * the height: covered cards show most of their faces, a nine-card column reaches the bottom
 * (longer ones close up).
 */
export function cardOffset(L, n) {
  if (n <= 1) return 0;
  const room = columnRoom(L) - L.ch;
  let usual = L.ch * (L.compact ? 0.38 : 0.25);
  if (L.portrait) usual = Math.max(usual, Math.min(L.ch * 0.8, room / 8));
  else if (L.compact && L.frameH > L.frameW) usual = Math.max(usual, Math.min(L.ch * 0.72, room / 9));
  // never closer than the strip that shows a covered card's index (the frame scrolls then)
  return Math.max(L.strip, Math.min(usual, room / (n - 1)));
}
