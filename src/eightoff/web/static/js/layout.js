// Layout: card size and the arrangement of foundations, cells and columns for the frame's size.

import { $ } from "./state.js";

const MIN_CARD_WIDTH = 40;
const MAX_CARD_WIDTH = 112;
const GAP_RATIO = 0.14; // gap as a share of the card width

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
  const pad = w < 600 ? 8 : 16;
  const tableauUnits = 1 + 7 * 0.24; // room for a column of eight cards before compressing
  const candidates = [];
  if (nCell + nF <= nCol) {
    candidates.push({ mode: "top", slotsX: nCol, unitsY: 1 + 0.2 + tableauUnits });
  } else {
    const fCols = Math.ceil(nF / 4);
    const fRows = Math.ceil(nF / fCols);
    candidates.push({
      mode: "side",
      slotsX: Math.max(nCol, nCell) + fCols + 0.35,
      unitsY: Math.max(fRows + (fRows - 1) * GAP_RATIO / 1.4, 1 + 0.2 + tableauUnits),
      fCols,
    });
    candidates.push({ mode: "stack", slotsX: Math.max(nCol, nCell, nF), unitsY: 2 + 0.4 + tableauUnits });
  }
  let best = null;
  for (const c of candidates) {
    const byW = (w - 2 * pad) / (c.slotsX * (1 + GAP_RATIO) - GAP_RATIO);
    const byH = (h - 2 * pad) / (c.unitsY * 1.4);
    c.cw = Math.min(byW, byH, MAX_CARD_WIDTH);
    if (!best || c.cw > best.cw + 0.5) best = c;
  }
  const cw = Math.max(MIN_CARD_WIDTH, Math.floor(best.cw));
  const ch = Math.round(cw * 1.4);
  const gap = Math.max(4, Math.round(cw * GAP_RATIO));
  const compact = cw < 66;
  return { ...best, cw, ch, gap, pad, compact, frameH: h, frameW: w };
}

/** The height left for the columns, and how far apart n cards of a column sit in it. */
export function columnRoom(L) {
  const topRows = L.mode === "stack" ? 2 : 1;
  return L.frameH - 2 * L.pad - topRows * (L.ch + L.gap * 1.4);
}

export function cardOffset(L, n) {
  const defOff = L.ch * (L.compact ? 0.38 : 0.25);
  const minOff = L.ch * (L.compact ? 0.27 : 0.2);
  if (n <= 1) return defOff;
  return Math.max(minOff, Math.min(defOff, (columnRoom(L) - L.ch) / (n - 1)));
}
