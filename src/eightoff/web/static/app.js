// The Eight Off table: draws the game the server sends, sends the player's moves back.
// The rules live on the server (eightoff.position); this file never judges a move:
// legal destinations come from the game's legal_moves, refusals from the server's reason.

import { api } from "./api.js";
import { cardName, cardSVG, installSprite, parseCard, placeholderSVG, RANKS } from "./cards.js";

const COLUMN_KEYS = "1234567890";
const CELL_KEYS = "abcdefgi";
const DOUBLE_TAP_MS = 400;
const DRAG_THRESHOLD = 6;
const MIN_CARD_WIDTH = 40;
const MAX_CARD_WIDTH = 112;

const $ = (id) => document.getElementById(id);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)").matches;

const state = {
  game: null,
  variants: [],
  lessons: [],
  settings: { auto_move: true, winnable_only: false },
  selection: null, // {kind, index, count (null: keyboard, "whatever fits"), shown}
  hintLevel: 0,
  hintMarks: null, // {cards: Set(key), places: Set(placeKey)}
  statusToken: 0,
  verdict: null,
  replay: null, // {moves, index, playing, gameId}
  layout: null,
  flipFrom: null, // Map(cardKey → DOMRect) overriding the previous positions for the next render
  lastTap: null,
  wonShownFor: null,
};

// ----- small helpers ---------------------------------------------------------------
function placeKey(p) {
  return `${p.kind}:${p.index ?? "home"}`;
}
function samePlace(a, b) {
  return Boolean(a && b) && a.kind === b.kind && (a.index ?? null) === (b.index ?? null);
}
function placeTitle(p) {
  if (p.kind === "foundation" && (p.index === null || p.index === undefined)) return "the foundations";
  return `${p.kind[0].toUpperCase()}${p.kind.slice(1)} ${p.index + 1}`;
}
function plural(n, word) {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}
function variantName(id) {
  const v = state.variants.find((x) => x.id === id);
  return v ? v.name : id;
}
function inProgress() {
  const g = state.game;
  return Boolean(g && !g.finished && !g.won && g.moves_made > 0);
}
/** The lesson of a game (the server sends the lesson object), or null. */
function lessonOf(g) {
  if (!g || g.lesson === null || g.lesson === undefined) return null;
  const info =
    typeof g.lesson === "object"
      ? g.lesson
      : g.lesson_info || state.lessons.find((l) => l.id === g.lesson) || { id: g.lesson, title: `Lesson ${g.lesson}`, goal: "", guidance: [] };
  const complete = typeof g.lesson_done === "boolean" ? g.lesson_done : info.complete ?? g.won;
  return { ...info, complete };
}
function foundationCode(f) {
  return f.top ? RANKS[f.top] + f.suit : null;
}
/** The cards of a place, bottom first. */
function cardsOf(place, g = state.game) {
  if (place.kind === "column") return g.columns[place.index];
  if (place.kind === "cell") return g.cells[place.index] ? [g.cells[place.index]] : [];
  const code = foundationCode(g.foundations[place.index]);
  return code ? [code] : [];
}

// ----- one request at a time, in order ----------------------------------------------
let queue = Promise.resolve();
let pending = 0;
function enqueue(task) {
  pending += 1;
  document.body.dataset.busy = "true";
  const run = queue.then(task, task);
  queue = run.catch(() => {});
  queue.then(() => {
    pending -= 1;
    if (pending === 0) document.body.dataset.busy = "false";
  });
  return run;
}

// ----- messages and the live region ---------------------------------------------------
let messageTimer = null;
function showMessage(text, kind = "info", { sticky = false } = {}) {
  const box = $("message");
  box.textContent = text;
  box.dataset.kind = kind;
  box.hidden = false;
  box.classList.remove("fade");
  clearTimeout(messageTimer);
  if (!sticky) messageTimer = setTimeout(() => box.classList.add("fade"), kind === "error" ? 9000 : 7000);
}
function hideMessage() {
  clearTimeout(messageTimer);
  $("message").hidden = true;
}
function say(text) {
  const region = $("announce");
  region.textContent = "";
  // a fresh text node each time so that repeated words are announced again
  requestAnimationFrame(() => {
    region.textContent = text;
  });
}
function describeTurn(moves) {
  if (!moves || !moves.length) return "";
  const [first, ...auto] = moves;
  let text = first.text || first.notation;
  if (auto.length) text += `; then ${auto.map((m) => m.text || m.notation).join("; ")}`;
  return text;
}

// ----- layout -----------------------------------------------------------------------
function frameSize() {
  const frame = $("frame");
  return { w: frame.clientWidth, h: frame.clientHeight };
}

function computeLayout(g) {
  const { w, h } = frameSize();
  const nCol = g.columns.length;
  const nCell = g.cells.length;
  const nF = g.foundations.length;
  const gapR = 0.14; // gap as a share of the card width
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
      unitsY: Math.max(fRows + (fRows - 1) * gapR / 1.4, 1 + 0.2 + tableauUnits),
      fCols,
    });
    candidates.push({ mode: "stack", slotsX: Math.max(nCol, nCell, nF), unitsY: 2 + 0.4 + tableauUnits });
  }
  let best = null;
  for (const c of candidates) {
    const byW = (w - 2 * pad) / (c.slotsX * (1 + gapR) - gapR);
    const byH = (h - 2 * pad) / (c.unitsY * 1.4);
    c.cw = Math.min(byW, byH, MAX_CARD_WIDTH);
    if (!best || c.cw > best.cw + 0.5) best = c;
  }
  const cw = Math.max(MIN_CARD_WIDTH, Math.floor(best.cw));
  const ch = Math.round(cw * 1.4);
  const gap = Math.max(4, Math.round(cw * gapR));
  const compact = cw < 66;
  return { ...best, cw, ch, gap, pad, compact, frameH: h, frameW: w };
}

// ----- drawing ----------------------------------------------------------------------
function makeCard(code, key, { depth = 0, label = null } = {}) {
  const el = document.createElement("div");
  el.className = "card";
  el.setAttribute("role", "button");
  el.setAttribute("aria-label", label || cardName(code));
  el.tabIndex = -1;
  el.dataset.code = code;
  el.dataset.key = key;
  el.dataset.depth = String(depth);
  el.innerHTML = cardSVG(code, { compact: state.layout.compact });
  return el;
}

function makePlace(kind, index, extraClass = "") {
  const el = document.createElement("div");
  el.className = `place ${kind} ${extraClass}`.trim();
  el.setAttribute("role", "group");
  el.setAttribute("aria-label", placeTitle({ kind, index }));
  el.dataset.kind = kind;
  el.dataset.index = String(index);
  return el;
}

function renderBoard({ animate = true } = {}) {
  const g = state.game;
  const board = $("board");
  if (!g) {
    board.replaceChildren();
    return;
  }
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
  board.className = `board layout-${L.mode}${L.compact ? " compact" : ""}`;
  board.style.setProperty("--cw", `${L.cw}px`);
  board.style.setProperty("--ch", `${L.ch}px`);
  board.style.setProperty("--gap", `${L.gap}px`);
  board.style.setProperty("--pad", `${L.pad}px`);
  board.style.setProperty("--fcols", String(L.fCols || 1));

  const seen = new Map(); // code → occurrences (two packs in Double FreeCell)
  const keyFor = (code) => {
    const n = seen.get(code) || 0;
    seen.set(code, n + 1);
    return `${code}#${n}`;
  };

  // foundations
  const fBox = document.createElement("div");
  fBox.className = "foundations";
  g.foundations.forEach((f, i) => {
    const place = makePlace("foundation", i);
    place.innerHTML = placeholderSVG(f.suit);
    const code = foundationCode(f);
    if (code) {
      // the cards beneath stay in the DOM (hidden) so they can slide when retrieved
      for (let r = 1; r <= f.top; r++) {
        const c = RANKS[r] + f.suit;
        const el = makeCard(c, keyFor(c));
        if (r < f.top) {
          el.classList.add("under");
          el.setAttribute("aria-hidden", "true");
        }
        place.append(el);
      }
    }
    fBox.append(place);
  });

  // cells
  const cBox = document.createElement("div");
  cBox.className = "cells";
  g.cells.forEach((code, i) => {
    const place = makePlace("cell", i);
    place.innerHTML = placeholderSVG(null);
    if (code) place.append(makeCard(code, keyFor(code)));
    cBox.append(place);
  });

  // columns
  const tBox = document.createElement("div");
  tBox.className = "tableau";
  const topRows = L.mode === "stack" ? 2 : 1;
  const avail = L.frameH - 2 * L.pad - topRows * (L.ch + L.gap * 1.4);
  const defOff = L.ch * (L.compact ? 0.38 : 0.25);
  const minOff = L.ch * (L.compact ? 0.27 : 0.2);
  let tallest = L.ch;
  g.columns.forEach((col, i) => {
    const place = makePlace("column", i);
    place.innerHTML = placeholderSVG(null);
    const n = col.length;
    let off = defOff;
    if (n > 1) off = Math.max(minOff, Math.min(defOff, (avail - L.ch) / (n - 1)));
    col.forEach((code, d) => {
      const el = makeCard(code, keyFor(code), { depth: d });
      el.style.top = `${Math.round(d * off)}px`;
      place.append(el);
    });
    const height = n ? Math.round((n - 1) * off) + L.ch : L.ch;
    tallest = Math.max(tallest, height);
    place.style.height = `${height}px`;
    tBox.append(place);
  });
  // columns reach down to the bottom of the table, so a drop anywhere below a column counts
  tBox.style.setProperty("--col-h", `${Math.max(tallest, avail)}px`);
  board.replaceChildren(fBox, cBox, tBox);
  applyHighlights();

  if (before.size) {
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
}

/** Selection, legal destinations and hint marks, drawn on the elements already there. */
function applyHighlights() {
  const g = state.game;
  const board = $("board");
  for (const el of board.querySelectorAll(".selected, .target, .hint, .hint-target")) {
    el.classList.remove("selected", "target", "hint", "hint-target");
  }
  if (!g) return;
  const sel = state.selection;
  if (sel) {
    const placeEl = placeElement(sel);
    const cards = placeEl ? [...placeEl.querySelectorAll(".card:not(.under)")] : [];
    const shown = sel.count ?? sel.shown ?? 1;
    cards.slice(cards.length - shown).forEach((el) => el.classList.add("selected"));
    for (const t of legalTargetPlaces(sel)) {
      const el = placeElement(t);
      if (el) el.classList.add("target");
    }
  }
  if (state.hintMarks) {
    for (const key of state.hintMarks.cards) {
      const el = board.querySelector(`.card[data-key="${CSS.escape(key)}"]`);
      if (el) el.classList.add("hint");
    }
    for (const p of state.hintMarks.places) {
      const el = placeElement(p);
      if (el) el.classList.add("hint-target");
    }
  }
}

function placeElement(p) {
  if (p.kind === "foundation" && (p.index === null || p.index === undefined)) return null;
  return $("board").querySelector(`.place[data-kind="${p.kind}"][data-index="${p.index}"]`);
}

/** The legal moves that start from the selection. */
function legalFrom(sel) {
  const g = state.game;
  return g.legal_moves.filter(
    (m) => samePlace(m.source, sel) && (sel.count === null || sel.count === undefined || m.count === sel.count),
  );
}
/** Concrete places to light up; "home" lights the foundations of the card's suit. */
function legalTargetPlaces(sel) {
  const g = state.game;
  const out = [];
  for (const m of legalFrom(sel)) {
    if (m.target.kind === "foundation" && (m.target.index === null || m.target.index === undefined)) {
      const suit = parseCard(m.card || movingCode(sel, 1)).suit;
      g.foundations.forEach((f, i) => {
        if (f.suit === suit) out.push({ kind: "foundation", index: i });
      });
    } else {
      out.push(m.target);
    }
  }
  return out;
}
function movingCode(place, count) {
  const cards = cardsOf(place);
  return cards[cards.length - count];
}

// ----- status line ------------------------------------------------------------------
function renderStatus() {
  const g = state.game;
  if (!g) return;
  const lesson = lessonOf(g);
  const deal = lesson ? `Lesson ${lesson.id}` : g.deal !== null && g.deal !== undefined ? `Deal ${g.deal}` : "Custom deal";
  $("st-deal").textContent = `${deal} · ${g.variant_name || variantName(g.variant)}`;
  $("st-moves").textContent = `Moves: ${g.moves_made}`;
  const gl = g.group_limit || {};
  $("st-limit").textContent = `Group limit: ${plural(gl.cards ?? 1, "card")} · ${gl.formula || ""}`;
  $("st-limit").title = gl.words || "";
  const over = Boolean(g.finished);
  $("btn-undo").disabled = over || !g.can_undo;
  $("btn-redo").disabled = over || !g.can_redo;
  $("btn-restart").disabled = over || !g.can_undo;
  $("btn-hint").disabled = over;
  $("btn-solve").disabled = over;
  document.title = `${deal} · ${g.variant_name || "Eight Off"}`;
  const sel = $("variant");
  if (sel.value !== g.variant) sel.value = g.variant;
}

function setVerdict(st) {
  state.verdict = st;
  const el = $("st-verdict");
  el.dataset.verdict = st.verdict;
  el.textContent = st.message || { won: "Won", checking: "Checking…", winnable: "Winnable", unknown: "Unknown" }[st.verdict] || "";
  renderFinishButton();
}

function renderFinishButton() {
  const g = state.game;
  // the server says when the win is certain (every column in order)
  $("btn-finish").hidden = !(g && !g.finished && g.can_auto_complete);
}

async function refreshStatus() {
  const g = state.game;
  if (!g) return;
  const token = ++state.statusToken;
  if (g.won) {
    setVerdict({ verdict: "won", message: "Won" });
    return;
  }
  setVerdict({ verdict: "checking", message: "Checking…" });
  let delay = 250;
  for (;;) {
    let st;
    try {
      st = await api("GET", `/api/games/${g.id}/status`);
    } catch (e) {
      if (token === state.statusToken) setVerdict({ verdict: "unknown", message: "Status unavailable" });
      return;
    }
    if (token !== state.statusToken) return;
    setVerdict(st);
    if (st.verdict !== "checking" && !st.pending) return;
    await sleep(delay);
    if (token !== state.statusToken) return;
    delay = Math.min(delay * 1.5, 1500);
  }
}

// ----- game updates -----------------------------------------------------------------
function setGame(game, { announce = null, animate = true, fromReplay = false } = {}) {
  const previous = state.game;
  state.game = game;
  state.selection = null;
  state.hintLevel = 0;
  state.hintMarks = null;
  if (!fromReplay && state.replay && !state.replay.stepping) {
    stopReplay("The position changed. Press Solution to replay from here.");
  }
  const sameGame = previous && previous.id === game.id;
  const turn = game.last_turn || (game.undone_turn ? [...game.undone_turn].reverse() : null);
  state.stagger = turn ? new Map(turn.map((m, i) => [m.card, i])) : null;
  renderBoard({ animate: animate && sameGame });
  renderStatus();
  renderLesson();
  renderFinishButton();
  if (announce) say(announce);
  refreshStatus();
  if (game.won && state.wonShownFor !== game.id) {
    state.wonShownFor = game.id;
    onWon(game);
  }
}

function onWon(game) {
  if (lessonOf(game)) return; // the lesson panel says it
  $("won-text").textContent = `${game.variant_name} ${game.deal !== null && game.deal !== undefined ? `deal ${game.deal}` : ""} won in ${plural(game.moves_made, "move")}.`;
  say(`You won in ${plural(game.moves_made, "move")}.`);
  setTimeout(() => {
    const dlg = $("dlg-won");
    if (!dlg.open) dlg.showModal();
  }, reducedMotion ? 0 : 350);
}

// ----- moves ------------------------------------------------------------------------
function moveBody(source, target, count) {
  return {
    source: { kind: source.kind, index: source.index },
    target: { kind: target.kind, index: target.index ?? null },
    count: count || 1,
  };
}

/** A move known to be legal that goes home is sent as "home" (h): the server picks the foundation. */
function homeward(target) {
  return target.kind === "foundation" ? { kind: "foundation", index: null } : target;
}

function tryMove(source, target, count) {
  return enqueue(async () => {
    const g = state.game;
    try {
      const next = await api("POST", `/api/games/${g.id}/move`, moveBody(source, target, count));
      hideMessage();
      setGame(next, { announce: describeTurn(next.last_turn) });
    } catch (e) {
      state.selection = null;
      // cards dragged away slide back where they were
      renderBoard({ animate: true });
      showMessage(e.message, "error");
      say(e.message);
    }
  });
}

function select(place, count, { keyboard = false } = {}) {
  const cards = cardsOf(place);
  if (!cards.length) return;
  if (keyboard) {
    // the longest run that can go somewhere, or the top card
    const counts = state.game.legal_moves.filter((m) => samePlace(m.source, place)).map((m) => m.count);
    state.selection = { kind: place.kind, index: place.index, count: null, shown: counts.length ? Math.max(...counts) : 1 };
  } else {
    state.selection = { kind: place.kind, index: place.index, count };
  }
  state.hintMarks = null;
  hideMessage();
  applyHighlights();
  const shown = state.selection.count ?? state.selection.shown;
  const top = cards[cards.length - shown];
  say(`${shown > 1 ? `${shown} cards from ${cardName(top)}` : cardName(top)} picked up from ${placeTitle(place)}`);
}

function clearSelection() {
  if (!state.selection) return;
  state.selection = null;
  applyHighlights();
}

/** Put the selected card(s) on a place (clicked, dropped or typed). */
function moveSelectionTo(place) {
  const sel = state.selection;
  if (!sel) return;
  let target = place;
  const options = legalFrom(sel);
  if (place.kind === "foundation") {
    const home = options.find(
      (m) => m.target.kind === "foundation" && (m.target.index === null || m.target.index === undefined || m.target.index === place.index),
    );
    if (home) target = homeward(home.target);
  }
  let count = sel.count;
  if (target.kind === "foundation") count = 1; // only single cards go home
  if (count === null || count === undefined) {
    const fits = options.filter((m) => samePlace(m.target, target)).map((m) => m.count);
    count = fits.length ? Math.max(...fits) : sel.shown || 1;
  }
  const source = { kind: sel.kind, index: sel.index };
  state.selection = null;
  applyHighlights();
  return tryMove(source, target, count);
}

function sendHome(place) {
  state.selection = null;
  return tryMove(place, { kind: "foundation", index: null }, 1);
}

// ----- pointer: tap, double-tap, drag and drop --------------------------------------
let drag = null;

function placeOfElement(el) {
  const p = el && el.closest(".place");
  if (!p) return null;
  return { kind: p.dataset.kind, index: Number(p.dataset.index) };
}

function onPointerDown(e) {
  if (!state.game || (e.button !== undefined && e.button > 0)) return;
  if (e.target.closest("button, input, select, a, dialog")) return;
  const cardEl = e.target.closest(".card");
  const place = placeOfElement(e.target);
  if (!place) {
    if (e.target.closest("#board")) clearSelection();
    return;
  }
  e.preventDefault();
  $("frame").focus({ preventScroll: true });
  drag = {
    id: e.pointerId,
    x: e.clientX,
    y: e.clientY,
    place,
    cardEl,
    depth: cardEl ? Number(cardEl.dataset.depth) : null,
    started: false,
  };
  if (cardEl) {
    try {
      cardEl.setPointerCapture(e.pointerId);
    } catch {
      /* capture is a nicety */
    }
  }
}

function onPointerMove(e) {
  if (!drag || e.pointerId !== drag.id) return;
  if (!drag.started) {
    if (!drag.cardEl || Math.hypot(e.clientX - drag.x, e.clientY - drag.y) < DRAG_THRESHOLD) return;
    if (!startDrag()) return;
  }
  e.preventDefault();
  drag.ghost.style.transform = `translate(${e.clientX - drag.x}px, ${e.clientY - drag.y}px)`;
  const over = dropPlaceAt(e.clientX, e.clientY);
  const key = over ? placeKey(over) : null;
  if (key !== drag.overKey) {
    for (const el of $("board").querySelectorAll(".drop-over")) el.classList.remove("drop-over");
    drag.overKey = key;
    const el = over && placeElement(over);
    if (el && !samePlace(over, drag.place)) el.classList.add("drop-over");
  }
}

function startDrag() {
  const { place, cardEl } = drag;
  const placeEl = cardEl.closest(".place");
  const cards = [...placeEl.querySelectorAll(".card:not(.under)")];
  const from = cards.indexOf(cardEl);
  if (from < 0) return false;
  const moving = cards.slice(from);
  drag.count = place.kind === "column" ? moving.length : 1;
  drag.started = true;
  state.selection = { kind: place.kind, index: place.index, count: drag.count };
  applyHighlights();
  const ghost = document.createElement("div");
  ghost.className = "drag-ghost";
  const base = cardEl.getBoundingClientRect();
  ghost.style.left = `${base.left}px`;
  ghost.style.top = `${base.top}px`;
  ghost.style.setProperty("--cw", `${state.layout.cw}px`);
  ghost.style.setProperty("--ch", `${state.layout.ch}px`);
  drag.rects = new Map();
  for (const el of moving) {
    const r = el.getBoundingClientRect();
    const clone = el.cloneNode(true);
    clone.removeAttribute("role");
    clone.removeAttribute("aria-label");
    clone.setAttribute("aria-hidden", "true");
    clone.classList.remove("selected", "hint");
    clone.style.left = `${r.left - base.left}px`;
    clone.style.top = `${r.top - base.top}px`;
    ghost.append(clone);
    el.classList.add("lifted");
    drag.rects.set(el.dataset.key, { el: clone });
  }
  document.body.append(ghost);
  drag.ghost = ghost;
  document.body.classList.add("dragging");
  return true;
}

function dropPlaceAt(x, y) {
  const hit = document.elementFromPoint(x, y);
  return hit && hit.closest("#board") ? placeOfElement(hit) : null;
}

function endDrag() {
  if (!drag) return;
  if (drag.ghost) {
    // the next render slides the cards from where the ghost left them
    const from = new Map();
    for (const [key, { el }] of drag.rects) from.set(key, el.getBoundingClientRect());
    state.flipFrom = from;
    drag.ghost.remove();
  }
  document.body.classList.remove("dragging");
  for (const el of $("board").querySelectorAll(".lifted, .drop-over")) el.classList.remove("lifted", "drop-over");
  drag = null;
}

function onPointerUp(e) {
  if (!drag || e.pointerId !== drag.id) return;
  const d = drag;
  if (!d.started) {
    drag = null;
    onTap(d.place, d.cardEl, d.depth);
    return;
  }
  const target = dropPlaceAt(e.clientX, e.clientY);
  endDrag();
  if (!target || samePlace(target, d.place)) {
    state.selection = null;
    renderBoard({ animate: true }); // slide back
    return;
  }
  moveSelectionTo(target);
}

function onPointerCancel(e) {
  if (!drag || e.pointerId !== drag.id) return;
  const started = drag.started;
  endDrag();
  state.selection = null;
  if (started) renderBoard({ animate: true });
}

function onTap(place, cardEl, depth) {
  const g = state.game;
  const now = performance.now();
  const key = cardEl ? cardEl.dataset.key : null;
  const last = state.lastTap;
  state.lastTap = key ? { key, at: now } : null;
  const cards = cardsOf(place);
  const sel = state.selection;
  // double-tap / double-click: the card goes home
  if (key && last && last.key === key && now - last.at < DOUBLE_TAP_MS && place.kind !== "foundation") {
    state.lastTap = null;
    const isTop = place.kind !== "column" || depth === cards.length - 1;
    if (isTop) {
      sendHome(place);
      return;
    }
  }
  if (sel) {
    if (samePlace(sel, place)) {
      const count = place.kind === "column" && cardEl ? cards.length - depth : 1;
      if (cardEl && place.kind === "column" && count !== (sel.count ?? sel.shown)) select(place, count);
      else clearSelection();
      return;
    }
    moveSelectionTo(place);
    return;
  }
  if (!cardEl) return; // an empty place with nothing selected
  if (place.kind === "foundation" && !g.legal_moves.some((m) => samePlace(m.source, place))) return;
  const count = place.kind === "column" ? cards.length - depth : 1;
  select(place, count);
}

// ----- keyboard ---------------------------------------------------------------------
function onKey(e) {
  if (document.querySelector("dialog[open]")) return;
  const tag = e.target && e.target.tagName;
  if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") {
    if (e.key === "Escape") e.target.blur();
    return;
  }
  const k = e.key;
  const ctrl = e.ctrlKey || e.metaKey;
  if (ctrl && !e.altKey && (k === "z" || k === "Z")) {
    e.preventDefault();
    if (e.shiftKey) redo();
    else undo();
    return;
  }
  if (ctrl && !e.altKey && (k === "y" || k === "Y")) {
    e.preventDefault();
    redo();
    return;
  }
  if (ctrl || e.altKey) return;
  const g = state.game;
  if (k === "Escape") {
    clearSelection();
    hideMessage();
    state.hintMarks = null;
    applyHighlights();
    return;
  }
  if (k === "?") {
    e.preventDefault();
    $("dlg-keys").showModal();
    return;
  }
  if (!g) return;
  if (state.replay && !state.replay.loading) {
    if (k === "ArrowRight") {
      e.preventDefault();
      replayStep();
      return;
    }
    if (k === "ArrowLeft") {
      e.preventDefault();
      replayBack();
      return;
    }
    if (k === "p") {
      replayPlay();
      return;
    }
  }
  const col = COLUMN_KEYS.indexOf(k);
  if (col >= 0 && col < g.columns.length && k !== " ") {
    e.preventDefault();
    keyPlace({ kind: "column", index: col });
    return;
  }
  const lower = k.length === 1 ? k.toLowerCase() : k;
  const cell = CELL_KEYS.indexOf(lower);
  if (k.length === 1 && cell >= 0 && cell < g.cells.length) {
    e.preventDefault();
    keyPlace({ kind: "cell", index: cell });
    return;
  }
  switch (lower) {
    case "h":
      e.preventDefault();
      if (state.selection) moveSelectionTo({ kind: "foundation", index: null });
      else autoHome();
      return;
    case "t":
      hint();
      return;
    case "s":
      openReplay();
      return;
    case "n":
      newGame();
      return;
    case "u":
      undo();
      return;
    case "r":
      redo();
      return;
    default:
  }
}

function keyPlace(place) {
  const sel = state.selection;
  if (sel) {
    if (samePlace(sel, place)) clearSelection();
    else moveSelectionTo(place);
    return;
  }
  if (!cardsOf(place).length) {
    showMessage(`${placeTitle(place)} is empty`, "info");
    return;
  }
  select(place, null, { keyboard: true });
}

// ----- controls ---------------------------------------------------------------------
function gameAction(path, words) {
  return enqueue(async () => {
    const g = state.game;
    if (!g) return;
    try {
      const next = await api("POST", `/api/games/${g.id}/${path}`);
      hideMessage();
      setGame(next, { announce: words(next) });
    } catch (e) {
      showMessage(e.message, "error");
    }
  });
}
const undo = () => gameAction("undo", (g) => `Move undone. ${plural(g.moves_made, "move")} made.`);
const redo = () => gameAction("redo", (g) => `Redone: ${describeTurn(g.last_turn)}`);
const restart = () => gameAction("restart", () => "Back to the start of the deal. Redo plays the moves again.");
const autoHome = () => gameAction("auto", (g) => describeTurn(g.last_turn) || "No card can go home safely now.");

async function finish() {
  // Auto-complete: the server plays the rest (safe moves home, then the solver's line)
  await gameAction("auto", (g) => (g.won ? "Completed." : describeTurn(g.last_turn)));
}

/** Show the dialog and resolve true for Replace, false for Cancel/Escape. */
function confirmReplace() {
  const dlg = $("dlg-confirm");
  return new Promise((resolve) => {
    const done = (answer) => {
      dlg.removeEventListener("close", onClose);
      $("btn-confirm-ok").onclick = null;
      $("btn-confirm-cancel").onclick = null;
      if (dlg.open) dlg.close();
      resolve(answer);
    };
    const onClose = () => done(false);
    $("btn-confirm-ok").onclick = () => done(true);
    $("btn-confirm-cancel").onclick = () => done(false);
    dlg.addEventListener("close", onClose);
    dlg.showModal();
    $("btn-confirm-ok").focus();
  });
}

async function startGame(body, { confirm = true } = {}) {
  if (confirm && inProgress() && !(await confirmReplace())) return false;
  return enqueue(async () => {
    showMessage(body.winnable_only && (body.deal === null || body.deal === undefined) ? "Dealing a winnable deal…" : "Dealing…", "info", { sticky: true });
    try {
      const next = await api("POST", "/api/games", body);
      hideMessage();
      closeReplayPanel();
      closeMenu();
      state.wonShownFor = null;
      setGame(next, {
        animate: false,
        announce: lessonOf(next) ? `Lesson ${lessonOf(next).id}: ${lessonOf(next).title}` : `New game: ${next.variant_name} deal ${next.deal}`,
      });
      dealAnimation();
      return true;
    } catch (e) {
      showMessage(e.message, "error");
      renderStatus(); // puts the variant menu back
      return false;
    }
  });
}

function dealAnimation() {
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

function newGame() {
  const variant = state.game ? state.game.variant : "eightoff";
  return startGame({ variant: $("variant").value || variant, deal: null, winnable_only: state.settings.winnable_only, lesson: null });
}

async function openDeal(ev) {
  ev.preventDefault();
  const raw = $("deal-number").value.trim();
  if (!/^\d+$/.test(raw)) {
    showMessage("Type a deal number (1 or more), then Open deal.", "error");
    return;
  }
  const ok = await startGame({ variant: $("variant").value, deal: Number(raw), winnable_only: false, lesson: null });
  if (ok) $("deal-number").blur();
}

async function changeVariant() {
  const variant = $("variant").value;
  const ok = await startGame({ variant, deal: null, winnable_only: state.settings.winnable_only, lesson: null });
  if (!ok && state.game) $("variant").value = state.game.variant;
}

function saveSettings() {
  return enqueue(async () => {
    const body = { auto_move: $("opt-auto").checked, winnable_only: $("opt-winnable").checked };
    try {
      state.settings = await api("PUT", "/api/settings", body);
      say(`Auto-move ${state.settings.auto_move ? "on" : "off"}; ${state.settings.winnable_only ? "winnable deals only" : "any deal"}.`);
    } catch (e) {
      showMessage(e.message, "error");
    }
    $("opt-auto").checked = state.settings.auto_move;
    $("opt-winnable").checked = state.settings.winnable_only;
    if (state.game) {
      // the game follows the table's auto-move setting from now on
      try {
        const g = await api("GET", `/api/games/${state.game.id}`);
        setGame(g, { animate: true, fromReplay: true });
      } catch {
        /* keep what we have */
      }
    }
  });
}

// ----- hints ------------------------------------------------------------------------
function hint() {
  return enqueue(async () => {
    const g = state.game;
    if (!g || g.won) return;
    state.selection = null;
    const level = state.hintLevel >= 1 ? 2 : 1;
    if (level === 2) showMessage("Asking the solver…", "info", { sticky: true });
    let h;
    try {
      h = await api("GET", `/api/games/${g.id}/hint?level=${level}`);
    } catch (e) {
      showMessage(e.message, "error");
      return;
    }
    if (state.game !== g) return;
    state.hintLevel = level;
    if (level === 1) {
      const moves = (h.moves || []).filter((m) => !(m.source.kind === "cell" && m.target.kind === "cell"));
      const cards = new Set();
      for (const m of moves) {
        const key = sourceCardKey(m);
        if (key) cards.add(key);
      }
      state.hintMarks = { cards, places: [] };
      applyHighlights();
      const text = moves.length
        ? `${plural(cards.size, "card")} can move (highlighted). Press Hint again for the solver's move.`
        : "No card can move: the game is lost. Undo to go back.";
      showMessage(text, "hint");
      say(text);
    } else {
      const m = h.move;
      if (!m) {
        const text = h.reason || h.message || "The solver has no move to suggest from here.";
        showMessage(text, "hint");
        say(text);
        return;
      }
      const key = sourceCardKey(m);
      const places = m.target.index === null || m.target.index === undefined ? legalTargetPlaces({ ...m.source, count: m.count }) : [m.target];
      state.hintMarks = { cards: new Set(key ? sourceRunKeys(m) : []), places };
      applyHighlights();
      // the reason usually starts with the move itself
      const why = h.reason || "";
      const text = why.startsWith(m.text) ? `Hint: ${why}` : `Hint: ${m.text}${why ? `. ${why}` : ""}`;
      showMessage(text, "hint", { sticky: true });
      say(text);
    }
  });
}

function cardKeyAt(place, fromTop) {
  const el = placeElement(place);
  if (!el) return null;
  const cards = [...el.querySelectorAll(".card:not(.under)")];
  const c = cards[cards.length - fromTop];
  return c ? c.dataset.key : null;
}
function sourceCardKey(m) {
  return cardKeyAt(m.source, m.count || 1);
}
function sourceRunKeys(m) {
  const keys = [];
  for (let i = 1; i <= (m.count || 1); i++) {
    const k = cardKeyAt(m.source, i);
    if (k) keys.push(k);
  }
  return keys;
}

// ----- solution replay --------------------------------------------------------------
function showPanel(which) {
  $("panel").hidden = false;
  $("lesson-panel").hidden = which !== "lesson";
  $("replay-panel").hidden = which !== "replay";
  document.body.classList.add("with-panel");
  if (state.game) renderBoard({ animate: false });
}
function hidePanel() {
  $("panel").hidden = true;
  document.body.classList.remove("with-panel");
  if (state.game) renderBoard({ animate: false });
}

async function openReplay() {
  const g = state.game;
  if (!g) return;
  if (g.won) {
    showMessage("This game is already won.", "info");
    return;
  }
  state.replay = { moves: [], index: 0, playing: false, loading: true, gameId: g.id };
  showPanel("replay");
  $("replay-info").textContent = "Asking the solver for a solution from this position…";
  $("replay-next").textContent = "";
  renderReplay();
  let sol;
  try {
    sol = await enqueue(() => api("GET", `/api/games/${g.id}/solution`));
  } catch (e) {
    if (state.replay) state.replay.loading = false;
    $("replay-info").textContent = e.message;
    renderReplay();
    return;
  }
  if (!state.replay || state.game !== g) return;
  state.replay.loading = false;
  // Steps are turns: a move plus the cards the solver sends home right after it, exactly
  // what auto-move would send; a move whose follow-up differs is played without auto-move.
  // With auto-move off every move is a step of its own.
  const stepwise = !state.settings.auto_move || !(sol.turns && sol.turns.length);
  const turns = stepwise ? (sol.moves || []).map((m) => [m]) : sol.turns;
  if (!turns.length) {
    state.replay = null;
    $("replay-info").textContent =
      sol.reason ||
      sol.message ||
      (sol.verdict === "not_winnable"
        ? "No solution from here: this position cannot be won. Undo to go back."
        : "The solver found no solution within its limits.");
    renderReplay();
    return;
  }
  state.replay.moves = turns;
  state.replay.total = turns.reduce((n, t) => n + t.length, 0);
  renderReplay();
  say(`Solution found: ${plural(state.replay.total, "move")} in ${plural(turns.length, "step")}. Step forward with the right arrow.`);
}

function renderReplay() {
  const r = state.replay;
  const stepBtn = $("btn-replay-step");
  const backBtn = $("btn-replay-back");
  const playBtn = $("btn-replay-play");
  if (!r || r.loading) {
    stepBtn.disabled = backBtn.disabled = playBtn.disabled = true;
    return;
  }
  const n = r.moves.length;
  $("replay-info").textContent = r.index >= n ? `Done: all ${plural(n, "step")} played.` : `Step ${r.index} of ${n} (${plural(r.total, "move")} in all)`;
  $("replay-next").textContent = r.index < n ? `Next: ${describeTurn(r.moves[r.index])}` : "";
  stepBtn.disabled = r.index >= n;
  backBtn.disabled = r.index <= 0;
  playBtn.disabled = r.index >= n;
  playBtn.textContent = r.playing ? "Pause" : "Play to end";
}

function replayStep() {
  return enqueue(async () => {
    const r = state.replay;
    if (!r || r.loading || r.index >= r.moves.length) return;
    const turn = r.moves[r.index];
    const m = turn[0];
    const g = state.game;
    r.stepping = true;
    try {
      const body = { ...moveBody(m.source, homeward(m.target), m.count), auto: turn.length > 1 };
      // (a one-move step never sets off auto-moves the solver did not make next)
      const next = await api("POST", `/api/games/${g.id}/move`, body);
      r.index += 1;
      setGame(next, { announce: describeTurn(next.last_turn), fromReplay: true });
    } catch (e) {
      r.playing = false;
      showMessage(`The replay stopped: ${e.message}`, "error");
    } finally {
      r.stepping = false;
      renderReplay();
    }
  });
}

function replayBack() {
  return enqueue(async () => {
    const r = state.replay;
    if (!r || r.loading || r.index <= 0) return;
    const g = state.game;
    r.stepping = true;
    try {
      const next = await api("POST", `/api/games/${g.id}/undo`);
      r.index -= 1;
      setGame(next, { announce: "Step back", fromReplay: true });
    } catch (e) {
      showMessage(e.message, "error");
    } finally {
      r.stepping = false;
      renderReplay();
    }
  });
}

async function replayPlay() {
  const r = state.replay;
  if (!r || r.loading) return;
  if (r.playing) {
    r.playing = false;
    renderReplay();
    return;
  }
  r.playing = true;
  renderReplay();
  while (state.replay === r && r.playing && r.index < r.moves.length) {
    await replayStep();
    if (reducedMotion) await sleep(20);
    else await sleep(180);
  }
  r.playing = false;
  if (state.replay === r) renderReplay();
}

function stopReplay(text) {
  if (!state.replay) return;
  state.replay.playing = false;
  state.replay = null;
  $("replay-info").textContent = text;
  $("replay-next").textContent = "";
  renderReplay();
}

function closeReplayPanel() {
  if (state.replay) state.replay.playing = false;
  state.replay = null;
  if (!$("replay-panel").hidden) {
    if (lessonOf(state.game)) showPanel("lesson");
    else hidePanel();
  }
}

// ----- lessons ----------------------------------------------------------------------
function renderLesson() {
  const g = state.game;
  const lesson = lessonOf(g);
  if (!lesson) {
    if (!$("lesson-panel").hidden) hidePanel();
    return;
  }
  if ($("panel").hidden || $("lesson-panel").hidden) {
    if (!state.replay) showPanel("lesson");
  }
  $("lesson-kicker").textContent = `Lesson ${lesson.id} of ${state.lessons.length || 4}`;
  $("lesson-title").textContent = lesson.title;
  $("lesson-goal").textContent = lesson.goal;
  $("lesson-guidance").replaceChildren(
    ...(lesson.guidance || []).map((line) => {
      const li = document.createElement("li");
      li.textContent = line;
      return li;
    }),
  );
  const done = Boolean(lesson.complete);
  const wasDone = !$("lesson-success").hidden;
  $("lesson-success").hidden = !done;
  if (done) {
    const last = lesson.next === null || lesson.id >= (state.lessons.length || 4);
    const text = last
      ? "Well done: lesson complete! You know the rules of Eight Off. Next comes a full shuffled deal."
      : `Well done: lesson complete! Next: ${nextLessonTitle(lesson)}.`;
    $("lesson-success-text").textContent = text;
    $("btn-next-lesson").textContent = last ? "Play a full deal" : "Next lesson";
    if (!wasDone) say(text);
  }
}

function nextLessonTitle(lesson) {
  const next = state.lessons.find((l) => l.id === (lesson.next ?? lesson.id + 1));
  return next ? next.title : `lesson ${lesson.id + 1}`;
}

async function nextLesson() {
  const lesson = lessonOf(state.game);
  if (!lesson) return;
  const next = lesson.next === undefined ? (lesson.id < (state.lessons.length || 4) ? lesson.id + 1 : null) : lesson.next;
  if (next === null) {
    hidePanel();
    await startGame({ variant: "eightoff", deal: null, winnable_only: state.settings.winnable_only, lesson: null }, { confirm: false });
  } else {
    await startGame({ lesson: next }, { confirm: false });
  }
}

function openLessons() {
  const list = $("lessons-list");
  list.replaceChildren(
    ...state.lessons.map((l) => {
      const li = document.createElement("li");
      const b = document.createElement("button");
      b.type = "button";
      b.className = "lesson-start";
      b.textContent = l.title;
      b.addEventListener("click", async () => {
        $("dlg-lessons").close();
        await startGame({ lesson: l.id });
      });
      const goal = document.createElement("span");
      goal.className = "lesson-goal";
      goal.textContent = l.goal;
      li.append(b, goal);
      return li;
    }),
  );
  $("dlg-lessons").showModal();
}

// ----- stats ------------------------------------------------------------------------
async function openStats() {
  const body = $("stats-body");
  body.textContent = "Loading…";
  $("dlg-stats").showModal();
  let stats;
  try {
    stats = await api("GET", "/api/stats");
  } catch (e) {
    body.textContent = e.message;
    return;
  }
  const rows = Object.entries(stats || {}).filter(([, s]) => s.played > 0);
  if (!rows.length) {
    body.textContent = "No games played yet.";
    return;
  }
  const table = document.createElement("table");
  table.className = "stats";
  table.innerHTML =
    "<thead><tr><th scope=col>Variant</th><th scope=col>Played</th><th scope=col>Won</th><th scope=col>Win %</th>" +
    "<th scope=col>Streak</th><th scope=col>Best streak</th><th scope=col>Fewest moves</th><th scope=col>Hints used</th></tr></thead>";
  const tbody = document.createElement("tbody");
  for (const [variant, s] of rows) {
    const tr = document.createElement("tr");
    const rate = s.win_rate === null || s.win_rate === undefined ? "–" : `${Math.round((s.win_rate <= 1 ? s.win_rate * 100 : s.win_rate) * 10) / 10}%`;
    const cells = [s.name || variantName(variant), s.played, s.won, rate, s.streak, s.best_streak, s.fewest_moves ?? "–", s.hints ?? 0];
    cells.forEach((v, i) => {
      const td = document.createElement(i === 0 ? "th" : "td");
      if (i === 0) td.scope = "row";
      td.textContent = String(v);
      tr.append(td);
    });
    tbody.append(tr);
  }
  table.append(tbody);
  body.replaceChildren(table);
}

function closeMenu() {
  document.body.classList.remove("menu-open");
  $("btn-menu").setAttribute("aria-expanded", "false");
}

// ----- start-up ---------------------------------------------------------------------
function wire() {
  const frame = $("frame");
  frame.addEventListener("pointerdown", onPointerDown);
  window.addEventListener("pointermove", onPointerMove, { passive: false });
  window.addEventListener("pointerup", onPointerUp);
  window.addEventListener("pointercancel", onPointerCancel);
  frame.addEventListener("contextmenu", (e) => {
    if (e.target.closest(".card")) e.preventDefault();
  });
  document.addEventListener("keydown", onKey);
  $("btn-undo").addEventListener("click", undo);
  $("btn-redo").addEventListener("click", redo);
  $("btn-restart").addEventListener("click", restart);
  $("btn-hint").addEventListener("click", hint);
  $("btn-solve").addEventListener("click", openReplay);
  $("btn-finish").addEventListener("click", finish);
  $("btn-new").addEventListener("click", newGame);
  $("deal-form").addEventListener("submit", openDeal);
  $("variant").addEventListener("change", changeVariant);
  $("opt-auto").addEventListener("change", saveSettings);
  $("opt-winnable").addEventListener("change", saveSettings);
  $("btn-lessons").addEventListener("click", () => {
    closeMenu();
    openLessons();
  });
  $("btn-stats").addEventListener("click", () => {
    closeMenu();
    openStats();
  });
  $("btn-keys").addEventListener("click", () => $("dlg-keys").showModal());
  $("btn-replay-step").addEventListener("click", replayStep);
  $("btn-replay-back").addEventListener("click", replayBack);
  $("btn-replay-play").addEventListener("click", replayPlay);
  $("btn-replay-close").addEventListener("click", closeReplayPanel);
  $("btn-next-lesson").addEventListener("click", nextLesson);
  $("btn-won-close").addEventListener("click", () => $("dlg-won").close());
  $("btn-won-new").addEventListener("click", () => {
    $("dlg-won").close();
    startGame({ variant: state.game.variant, deal: null, winnable_only: state.settings.winnable_only, lesson: null }, { confirm: false });
  });
  for (const b of document.querySelectorAll(".close-dialog")) {
    b.addEventListener("click", () => b.closest("dialog").close());
  }
  $("btn-menu").addEventListener("click", () => {
    const open = document.body.classList.toggle("menu-open");
    $("btn-menu").setAttribute("aria-expanded", String(open));
  });
  $("message").addEventListener("click", hideMessage);
  // the frame changes size with the window, the panel and the status line's wrapping
  let resizeTimer = null;
  let lastSize = "";
  new ResizeObserver(() => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(() => {
      const { w, h } = frameSize();
      const size = `${w}x${h}`;
      if (size === lastSize || !state.game || drag) return;
      lastSize = size;
      renderBoard({ animate: false });
    }, 40);
  }).observe($("frame"));
}

async function boot() {
  installSprite();
  wire();
  const [variants, lessons, settings] = await Promise.all([
    api("GET", "/api/variants").catch(() => []),
    api("GET", "/api/lessons").catch(() => []),
    api("GET", "/api/settings").catch(() => null),
  ]);
  state.variants = variants;
  state.lessons = lessons;
  if (settings) state.settings = settings;
  $("opt-auto").checked = state.settings.auto_move;
  $("opt-winnable").checked = state.settings.winnable_only;
  $("variant").replaceChildren(
    ...variants.map((v) => {
      const o = document.createElement("option");
      o.value = v.id;
      o.textContent = v.name;
      o.title = v.rules || v.summary || "";
      return o;
    }),
  );
  let game = null;
  try {
    game = await api("GET", "/api/games/current");
  } catch (e) {
    if (e.status !== 404) showMessage(e.message, "error");
  }
  if (game) {
    setGame(game, { animate: false });
    say(`Game resumed: ${game.variant_name}, ${plural(game.moves_made, "move")} made.`);
  } else {
    await startGame({ variant: "eightoff", deal: null, winnable_only: state.settings.winnable_only, lesson: null }, { confirm: false });
  }
  document.body.dataset.ready = "true";
}

boot();
