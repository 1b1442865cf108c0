// Drawing: the board (with cards sliding to their new places), the marks on it (the
// picked-up cards, the places the server lists as legal for them, hints), the status line
// and the side panel.

import { cardSVG, placeholderSVG, RANKS } from "./cards.js";
import { cardName, formatDate, rankIndex, t } from "./i18n.js";
import { cardOffset, columnRoom, computeLayout } from "./layout.js";
import { placeNotation } from "./notation.js";
import { setDisabled, setHidden } from "./ui.js";
import { $, foundationCode, legalFrom, lessonOf, placeTitle, plural, reducedMotion, state, variantName } from "./state.js";

function makeCard(code, key, { depth = 0 } = {}) {
  const el = document.createElement("div");
  el.className = "card";
  el.setAttribute("role", "button");
  el.setAttribute("aria-label", cardName(code));
  el.tabIndex = -1;
  el.dataset.code = code;
  el.dataset.key = key;
  el.dataset.depth = String(depth);
  el.innerHTML = cardSVG(code, { index: rankIndex(code), compact: state.layout.compact, ratio: state.layout.ratio });
  return el;
}

/** A place's heading: its key and notation (columns 1..9, 0; cells a..i; foundations h1..h8). */
export function headingText(kind, index) {
  return placeNotation(kind, index) ?? String(index + 1);
}

function makePlace(kind, index) {
  const el = document.createElement("div");
  el.className = `place ${kind}`;
  el.setAttribute("role", "group");
  const title = placeTitle({ kind, index });
  el.setAttribute("aria-label", title);
  el.dataset.kind = kind;
  el.dataset.index = String(index);
  return el;
}

/**
 * The heading above a place, a button: a click or tap acts as its key does (picks up the
 * movable cards, or puts the picked-up cards there; a foundation's: Shift+H and its number,
 * or the picked-up card onto that foundation).
 */
function makeHeading(kind, index) {
  const text = headingText(kind, index);
  const title = placeTitle({ kind, index });
  const el = document.createElement("button");
  el.className = "heading";
  el.textContent = text;
  el.dataset.kind = kind;
  el.dataset.index = String(index);
  el.type = "button";
  el.tabIndex = -1; // the keys reach it; Tab stays on the controls
  el.setAttribute("aria-label", `${title} (${text})`);
  return el;
}

export function renderBoard({ animate = true } = {}) {
  const g = state.game;
  const board = $("board");
  if (!g) {
    board.replaceChildren();
    return;
  }
  board.querySelector(".board-loading")?.remove();
  // where each card was, to slide it to its new place (FLIP)
  const before = new Map();
  if (animate && !reducedMotion) {
    for (const el of board.querySelectorAll(".card")) before.set(el.dataset.key, el.getBoundingClientRect());
    if (state.flipFrom) for (const [k, r] of state.flipFrom) before.set(k, r);
  }
  state.flipFrom = null;
  const stagger = state.stagger || new Map();
  state.stagger = null;

  const L = (state.layout = computeLayout(g));
  board.className = `board layout-${L.mode}${L.compact ? " compact" : ""}${L.narrow ? " narrow" : ""}`;
  board.style.setProperty("--cw", `${L.cw}px`);
  board.style.setProperty("--ch", `${L.ch}px`);
  board.style.setProperty("--gap", `${L.gap}px`);
  board.style.setProperty("--pad", `${L.pad}px`);
  board.style.setProperty("--lab", `${L.lab}px`);
  board.style.setProperty("--fcols", String(L.fCols || 1));
  board.style.setProperty("--ccols", String(L.cCols || 1));

  const seen = new Map(); // code → occurrences (two packs in Double FreeCell)
  const keyFor = (code) => {
    const n = seen.get(code) || 0;
    seen.set(code, n + 1);
    return `${code}#${n}`;
  };

  const fBox = document.createElement("div");
  fBox.className = "foundations";
  g.foundations.forEach((f, i) => {
    const place = makePlace("foundation", i);
    place.innerHTML = placeholderSVG(f.suit, L.ratio);
    // the cards beneath stay in the DOM (hidden) so they can slide when retrieved
    for (let r = 1; r <= (foundationCode(f) ? f.top : 0); r++) {
      const c = RANKS[r] + f.suit;
      const el = makeCard(c, keyFor(c));
      if (r < f.top) {
        el.classList.add("under");
        el.setAttribute("aria-hidden", "true");
      }
      place.append(el);
    }
    fBox.append(withHeading(place, "foundation", i));
  });

  const cBox = document.createElement("div");
  cBox.className = "cells";
  g.cells.forEach((code, i) => {
    const place = makePlace("cell", i);
    place.innerHTML = placeholderSVG(null, L.ratio);
    if (code) place.append(makeCard(code, keyFor(code)));
    cBox.append(withHeading(place, "cell", i));
  });

  const tBox = document.createElement("div");
  tBox.className = "tableau";
  let tallest = L.ch;
  g.columns.forEach((col, i) => {
    const place = makePlace("column", i);
    place.innerHTML = placeholderSVG(null, L.ratio);
    const off = cardOffset(L, col.length);
    col.forEach((code, d) => {
      const el = makeCard(code, keyFor(code), { depth: d });
      el.style.top = `${Math.round(d * off)}px`;
      place.append(el);
    });
    const height = col.length ? Math.round((col.length - 1) * off) + L.ch : L.ch;
    tallest = Math.max(tallest, height);
    place.style.height = `${height}px`;
    tBox.append(withHeading(place, "column", i));
  });
  // columns reach down to the bottom of the table, so a drop anywhere below a column counts
  tBox.style.setProperty("--col-h", `${Math.max(tallest, columnRoom(L))}px`);
  board.replaceChildren(fBox, cBox, tBox);
  applyHighlights();
  if (before.size) slide(board, before, stagger);
}

/** A place in a slot with its heading above it. */
function withHeading(place, kind, index) {
  const slot = document.createElement("div");
  slot.className = "slot";
  slot.append(makeHeading(kind, index), place);
  return slot;
}

function slide(board, before, stagger) {
  for (const el of board.querySelectorAll(".card")) {
    const old = before.get(el.dataset.key);
    if (!old) continue;
    const now = el.getBoundingClientRect();
    const dx = old.left - now.left;
    const dy = old.top - now.top;
    if (Math.abs(dx) < 1 && Math.abs(dy) < 1) continue;
    el.classList.add("moving");
    // cards sent home by auto-move follow one another
    const delay = Math.min(1200, (stagger.get(el.dataset.code) || 0) * 70);
    const anim = el.animate(
      [{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "translate(0, 0)" }],
      { duration: Math.min(260, 140 + Math.hypot(dx, dy) / 8), delay, easing: "cubic-bezier(.2,.7,.3,1)", fill: "backwards" },
    );
    anim.onfinish = anim.oncancel = () => el.classList.remove("moving");
  }
}

/** The cards of a new deal fly in from the bottom of the table. */
export function dealAnimation() {
  if (reducedMotion) return;
  const cards = [...$("board").querySelectorAll(".tableau .card, .cells .card")];
  const frame = $("frame").getBoundingClientRect();
  cards.forEach((el, i) => {
    const r = el.getBoundingClientRect();
    const dx = frame.left + frame.width / 2 - r.left - r.width / 2;
    const dy = frame.top + frame.height - r.top;
    el.animate(
      [{ transform: `translate(${dx}px, ${dy}px) scale(.7)`, opacity: 0 }, { transform: "none", opacity: 1 }],
      { duration: 260, delay: Math.min(i * 7, 360), easing: "cubic-bezier(.2,.7,.3,1)", fill: "backwards" },
    );
  });
}

/**
 * A short celebration of a win: the foundations' Kings leap in a wave and the table glows.
 * Returns how long it lasts (0 under prefers-reduced-motion, where nothing moves).
 */
export function winAnimation() {
  if (reducedMotion) return 0;
  const board = $("board");
  // after the last cards have slid home
  const after = Math.max(
    0,
    ...board.getAnimations({ subtree: true }).map((a) => a.effect.getComputedTiming().endTime - (a.currentTime || 0)),
  );
  const tops = [...board.querySelectorAll(".foundation .card:not(.under)")];
  tops.forEach((el, i) => {
    const turn = i % 2 ? -10 : 10;
    el.animate(
      [
        { transform: "none" },
        { transform: `translateY(-28%) rotate(${turn}deg) scale(1.1)`, offset: 0.35 },
        { transform: "translateY(4%) scale(.98)", offset: 0.7 },
        { transform: "none" },
      ],
      { duration: 620, delay: after + i * 90, iterations: 2, easing: "ease-in-out" },
    );
  });
  board.animate(
    [{ filter: "none" }, { filter: "drop-shadow(0 0 14px rgba(255, 212, 77, .8))" }, { filter: "none" }],
    { duration: 1100, delay: after, easing: "ease-in-out" },
  );
  return Math.min(3000, after + 1240 + tops.length * 90);
}

// ----- marks on the board ---------------------------------------------------------------------
/** Selection, legal destinations and hint marks, drawn on the elements already there. */
export function applyHighlights() {
  const board = $("board");
  for (const el of board.querySelectorAll(".selected, .target, .hint, .hint-target")) {
    el.classList.remove("selected", "target", "hint", "hint-target");
  }
  if (!state.game) return;
  const sel = state.selection;
  if (sel) {
    const shown = sel.count ?? sel.shown ?? 1;
    topCards(sel, shown).forEach((el) => el.classList.add("selected"));
    for (const m of legalFrom(sel)) placeElement(m.target)?.classList.add("target");
  }
  if (state.hintMarks) {
    for (const key of state.hintMarks.cards) {
      board.querySelector(`.card[data-key="${CSS.escape(key)}"]`)?.classList.add("hint");
    }
    for (const p of state.hintMarks.places) placeElement(p)?.classList.add("hint-target");
  }
}

export function placeElement(p) {
  if (p.kind === "foundation" && (p.index === null || p.index === undefined)) return null;
  return $("board").querySelector(`.place[data-kind="${p.kind}"][data-index="${p.index}"]`);
}

/** The elements of the top n cards of a place, bottom first. */
function topCards(place, n) {
  const el = placeElement(place);
  const cards = el ? [...el.querySelectorAll(".card:not(.under)")] : [];
  return cards.slice(Math.max(0, cards.length - n));
}

/** The keys of the cards a move takes (the deepest first). */
export function movingCardKeys(m) {
  return topCards(m.source, m.count || 1).map((el) => el.dataset.key);
}

// ----- status line and panel ------------------------------------------------------------------
export function renderStatus() {
  const g = state.game;
  if (!g) return;
  const lesson = lessonOf(g);
  const deal = lesson
    ? t("status.lesson", { n: lesson.id })
    : g.deal !== null && g.deal !== undefined
      ? t("status.deal", { deal: g.deal })
      : t("status.custom_deal");
  $("st-deal").textContent = t("status.deal_and_variant", { deal, variant: g.variant_name || variantName(g.variant) });
  // the deal's rating (none for lessons and custom boards), and the date of a daily deal
  const rating = g.rating ? t("status.rating", { level: t(`level.${g.rating.level}`) }) : "";
  const daily = g.daily ? t("status.daily", { date: formatDate(g.daily) }) : "";
  $("st-rating").hidden = !rating && !daily;
  $("st-rating").textContent = [daily, rating].filter(Boolean).join(" · ");
  // player moves (README, "Two move counts"): the cards auto-move sends home are free
  $("st-moves").textContent = t("status.moves", { n: g.player_moves });
  $("st-moves").title = t("status.moves_title");
  const gl = g.group_limit || {};
  // no more than the cards still in play (the rule's 1280 at a FreeCell win said nothing)
  const inPlay = g.columns.reduce((n, col) => n + col.length, 0) + g.cells.filter(Boolean).length;
  const limit = Math.min(gl.cards ?? 1, Math.max(1, inPlay));
  $("st-limit").textContent = t("status.group_limit", { cards: plural(limit, "card"), formula: gl.formula || "" });
  // the house rules this game is played with (beyond its variant's own)
  const house = (g.house_rules || []).map((name) => t(name === "strict_single" ? "rules.house.strict" : "rules.house.retrieval"));
  $("st-house").hidden = !house.length;
  $("st-house").textContent = house.length ? t("status.house_rules", { rules: house.join(", ") }) : "";
  $("st-limit").title = gl.words || "";
  const over = Boolean(g.finished);
  // a focused button that goes (Undo at the start, Restart) hands the focus to the table
  setDisabled($("btn-undo"), over || !g.can_undo);
  setDisabled($("btn-redo"), over || !g.can_redo);
  setDisabled($("btn-restart"), over || !g.can_undo);
  setDisabled($("btn-hint"), over);
  setDisabled($("btn-solve"), over);
  // the server says when the win is certain (every column in order)
  setHidden($("btn-finish"), !(!over && g.can_auto_complete));
  const name = g.variant_name || variantName(g.variant);
  document.title = t("page.title_game", { deal, variant: name });
  $("brand-name").textContent = name; // the header names the variant being played
  const sel = $("variant");
  if (sel.value !== g.variant) sel.value = g.variant;
}

// The verdict takes its short words ("Not winnable · undo 1", its whole sentence the title)
// where the sentence would not fit on its line beside par: there it pushed "Par?" onto a
// line of its own, and the table down a line, at every change of the verdict (on a phone,
// and on a desktop of 1280 px), or ran over the group limit (a phone on its side).
function shortVerdict(st) {
  if (st.verdict === "not_winnable") {
    const n = st.undo_to_winnable;
    return n ? t("verdict.short.undo", { n }) : t("verdict.short.not_winnable");
  }
  return st.verdict === "unknown" ? t("verdict.unknown") : null;
}

export function setVerdict(st) {
  state.verdict = st;
  const el = $("st-verdict");
  el.dataset.verdict = st.verdict;
  const fallback = { won: "verdict.won", checking: "verdict.checking", winnable: "verdict.winnable", unknown: "verdict.unknown" }[st.verdict];
  const full = st.message || (fallback ? t(fallback) : "");
  el.textContent = full;
  el.removeAttribute("title");
  const short = shortVerdict(st);
  if (!short || short === full) return;
  // measured in place (one layout, before the frame is drawn): wrapped, the line is taller
  // than the verdict's own box
  const line = el.parentElement;
  if (line && line.getBoundingClientRect().height > el.getBoundingClientRect().height * 1.5) {
    el.textContent = short;
    el.title = full;
  }
}

let refit = 0;
window.addEventListener("resize", () => {
  cancelAnimationFrame(refit);
  refit = requestAnimationFrame(() => {
    if (state.verdict) setVerdict(state.verdict);
  });
});

/** Show the side panel with the lesson or the replay ("lesson" | "replay"). */
export function showPanel(which) {
  $("panel").hidden = false;
  setHidden($("lesson-panel"), which !== "lesson");
  setHidden($("replay-panel"), which !== "replay");
  document.body.classList.add("with-panel");
  if (state.game) renderBoard({ animate: false });
}

export function hidePanel() {
  setHidden($("panel"), true);
  document.body.classList.remove("with-panel");
  if (state.game) renderBoard({ animate: false });
}
