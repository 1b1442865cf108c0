// Layout: card size and the arrangement of foundations, cells and columns for the frame's size.
//
// Every card of every column stays inside the frame: the cards are sized for the longest
// column (with a readable strip of each covered card), and a column's overlap shrinks as it
// grows (as PySolFC and KPat squeeze). Each place has a heading strip above it (its key).

import { $ } from "./state.js";

const MIN_CARD_WIDTH = 40;
const MAX_CARD_WIDTH = 112;
const RATIO = 1.4; // card height / width

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
  const narrow = w < 600;
  const pad = narrow ? 6 : 14;
  const gapRatio = narrow ? 0.07 : 0.14; // gap as a share of the card width
  const lab = narrow ? 15 : 18; // the heading strip above each place
  const longest = Math.max(1, ...g.columns.map((c) => c.length));
  // the height a column needs, in card heights: a card and a strip of each covered card;
  // room for eight cards at the usual overlap, more (at a narrower strip) for longer columns
  const tableauUnits = 1 + Math.max(7 * 0.24, (longest - 1) * 0.17);
  // width in card widths (slots) and gaps; height in card heights, gaps and heading strips
  const candidates = [];
  if (nCell + nF <= nCol) {
    candidates.push({ mode: "top", slots: nCol, gaps: nCol, rows: [{ units: 1 + tableauUnits, gaps: 1.4, labs: 2 }] });
  } else {
    const fCols = Math.ceil(nF / 4);
    const fRows = Math.ceil(nF / fCols);
    const left = Math.max(nCol, nCell);
    candidates.push({
      mode: "side",
      fCols,
      slots: left + fCols,
      gaps: left - 1 + 2 + 0.6 + (fCols - 1) + 0.5,
      rows: [
        { units: 1 + tableauUnits, gaps: 1.4, labs: 2 },
        { units: fRows, gaps: fRows - 1, labs: fRows },
      ],
    });
    candidates.push({
      mode: "stack",
      slots: Math.max(nCol, nCell, nF),
      gaps: Math.max(nCol, nCell, nF) - 1,
      rows: [{ units: 2 + tableauUnits, gaps: 2.8, labs: 3 }],
    });
  }
  let best = null;
  for (const c of candidates) {
    let cw = (w - 2 * pad - 2) / (c.slots + c.gaps * gapRatio);
    for (const r of c.rows) {
      cw = Math.min(cw, (h - 2 * pad - r.labs * lab) / (r.units * RATIO + r.gaps * gapRatio));
    }
    c.cw = Math.min(cw, MAX_CARD_WIDTH);
    if (!best || c.cw > best.cw + 0.5) best = c;
  }
  const cw = Math.max(MIN_CARD_WIDTH, Math.floor(best.cw));
  const ch = Math.round(cw * RATIO);
  const gap = Math.max(3, Math.round(cw * gapRatio));
  const compact = cw < 66;
  return { mode: best.mode, fCols: best.fCols, cw, ch, gap, pad, lab, compact, narrow, frameH: h, frameW: w };
}

/** The height left for the columns' cards (below their headings). */
export function columnRoom(L) {
  const topRows = L.mode === "stack" ? 2 : 1;
  return L.frameH - 2 * L.pad - topRows * (L.lab + L.ch + L.gap * 1.4) - L.lab - 1;
}

/**
 * How far apart the n cards of a column sit: the usual overlap while the column fits, less
 * as it grows, so that its last card always ends inside the frame. On a phone, where the
 * columns are narrow and the screen tall, covered cards show more of their faces.
 */
export function cardOffset(L, n) {
  if (n <= 1) return 0;
  const room = columnRoom(L) - L.ch;
  let usual = L.ch * (L.compact ? 0.38 : 0.25);
  if (L.compact && L.frameH > L.frameW) usual = Math.max(usual, Math.min(L.ch * 0.7, room / 11));
  return Math.max(1, Math.min(usual, room / (n - 1)));
}
