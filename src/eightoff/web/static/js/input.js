// Input: pick up cards and put them down by pointer (click, tap, double-tap, drag) or by
// keyboard. A picked-up card shows the places the server lists as legal for it; where it
// is put down is sent to the server as it is, and the server plays it or says why not.

import { cardName, t } from "./i18n.js";
import { applyHighlights, placeElement, renderBoard } from "./draw.js";
import { closeReplayPanel, hint, openReplay, replayBack, replayPlay, replayStep } from "./help.js";
import { CELL_KEYS, COLUMN_KEYS, HOME_KEY, placeNotation } from "./notation.js";
import { parKey } from "./par.js";
import { autoHome, openNewGame, redo, sendMove, undo } from "./play.js";
import { $, cardsOf, legalFrom, placeKey, placeTitle, plural, samePlace, state } from "./state.js";
import { hideMessage, openKeys, releaseFocus, say, showMessage } from "./ui.js";

const DOUBLE_TAP_MS = 400;
const DRAG_THRESHOLD = 6;

/** A place in move notation, as the keys type it: "3", "a", "h" (home) or "h2". */
function notation(p) {
  return placeNotation(p.kind, p.index);
}

// ----- picking up and putting down --------------------------------------------------------------
/** Pick up count cards of a place; keyboard: the longest run the server lists as movable. */
function select(place, count, { keyboard = false } = {}) {
  const cards = cardsOf(place);
  if (!cards.length) return;
  if (keyboard) {
    const counts = legalFrom({ ...place, count: null }).map((m) => m.count);
    state.selection = { kind: place.kind, index: place.index, count: null, shown: counts.length ? Math.max(...counts) : 1 };
  } else {
    const g = state.game;
    const run = place.kind === "column" && g.runs ? g.runs[place.index] : count;
    if (count > run) {
      // the cards on this one are not in sequence: nothing can move them together
      state.selection = null;
      state.hintMarks = null;
      applyHighlights();
      const text = t("pickup.not_a_run", {
        cards: plural(count, "card"),
        card: cardName(cards[cards.length - count]),
        top: run === 1 ? t("pickup.top_card", { card: cardName(cards[cards.length - 1]) }) : t("pickup.top_run", { cards: plural(run, "card") }),
      });
      showMessage(text, "error");
      say(text);
      return;
    }
    state.selection = { kind: place.kind, index: place.index, count };
  }
  state.hintMarks = null;
  hideMessage();
  applyHighlights();
  const shown = state.selection.count ?? state.selection.shown;
  const top = cards[cards.length - shown];
  const what = shown > 1 ? t("announce.cards_from", { n: shown, card: cardName(top) }) : cardName(top);
  const picked = t("announce.picked_up", { what, place: placeTitle(place) });
  const nowhere = !legalFrom(state.selection).length;
  const limit = state.game.group_limit || {};
  if (shown > 1 || nowhere) {
    // a run picked up: how many cards may move together now (SuperMove FreeCell shows it
    // before each move); nowhere to go: say so at once
    const parts = [`${picked}.`];
    if (shown > 1 && limit.words) parts.push(t("pickup.limit", { words: limit.words }));
    if (nowhere) parts.push(t("pickup.nowhere"));
    const text = parts.join(" ");
    showMessage(text, nowhere ? "error" : "info");
    say(text);
    return;
  }
  say(picked);
}

function clearSelection() {
  if (!state.selection) return;
  state.selection = null;
  applyHighlights();
  say(t("announce.put_back"));
}

/**
 * Put the picked-up cards on a place (clicked, dropped or typed). Typed: the notation
 * ("37", "3h"), for which the server moves the run that fits; picked up by pointer: the
 * cards picked up.
 */
function moveSelectionTo(place) {
  const sel = state.selection;
  if (!sel) return undefined;
  state.selection = null;
  applyHighlights();
  if (sel.count === null || sel.count === undefined) return sendMove({ move: notation(sel) + notation(place) });
  return sendMove({
    source: { kind: sel.kind, index: sel.index },
    target: { kind: place.kind, index: place.index ?? null },
    count: sel.count,
  });
}

function sendHome(place) {
  state.selection = null;
  return sendMove({ source: { kind: place.kind, index: place.index }, target: { kind: "foundation", index: null }, count: 1 });
}

// ----- pointer: tap, double-tap, drag and drop --------------------------------------------------
let drag = null;

export const dragging = () => drag !== null;

function placeOfElement(el) {
  // a place's heading stands for the place (a drop on a column's heading lands there)
  const p = el && (el.closest(".place") || el.closest(".slot")?.querySelector(".place"));
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
  drag = { id: e.pointerId, x: e.clientX, y: e.clientY, place, cardEl, depth: cardEl ? Number(cardEl.dataset.depth) : null, started: false };
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
  const cards = [...cardEl.closest(".place").querySelectorAll(".card:not(.under)")];
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
  drag.clones = new Map();
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
    drag.clones.set(el.dataset.key, clone);
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
    for (const [key, clone] of drag.clones) from.set(key, clone.getBoundingClientRect());
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
  const now = performance.now();
  const key = cardEl ? cardEl.dataset.key : null;
  const last = state.lastTap;
  state.lastTap = key ? { key, at: now } : null;
  const cards = cardsOf(place);
  const sel = state.selection;
  // double-tap / double-click on a top card: it goes home
  if (key && last && last.key === key && now - last.at < DOUBLE_TAP_MS && place.kind !== "foundation") {
    state.lastTap = null;
    if (place.kind !== "column" || depth === cards.length - 1) {
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
  if (!cardEl) return; // an empty place with nothing picked up
  // a foundation's card is picked up only when the server lists a move for it (retrieval)
  if (place.kind === "foundation" && !legalFrom({ ...place, count: null }).length) return;
  select(place, place.kind === "column" ? cards.length - depth : 1);
}

// ----- keyboard ---------------------------------------------------------------------------------
function onKey(e) {
  if (document.querySelector("dialog[open]")) return;
  if (document.body.dataset.ready !== "true") return; // still loading: no game to act on
  const tag = e.target && e.target.tagName;
  if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") {
    // Esc leaves a field for the table (not for the page's body)
    if (e.key === "Escape") releaseFocus(e.target);
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
  const picking = pickingFoundation;
  pickingFoundation = false; // a foundation's number, or any other key, ends the question
  if (k === "Escape") {
    if (state.selection || picking) say(t("announce.put_back"));
    else if (!$("replay-panel").hidden) {
      // with nothing picked up, Esc closes the solution replay
      closeReplayPanel();
      say(t("announce.replay_closed"));
    }
    state.selection = null;
    state.hintMarks = null;
    hideMessage();
    applyHighlights();
    return;
  }
  if (k === "?") {
    e.preventDefault();
    openKeys();
    return;
  }
  const g = state.game;
  if (!g) return;
  // a letter's key by its lower case, and Shift by the Shift key itself: with Caps Lock
  // on, p arrives as "P" without Shift (it plays a replay to its end, as p does); Shift+P
  // is par with Caps Lock on or off (then it arrives as "p" with Shift)
  const lower = k.length === 1 ? k.toLowerCase() : k;
  const shift = e.shiftKey;
  if (replayKey(lower, shift, e)) return;
  const col = COLUMN_KEYS.indexOf(k);
  if (picking && k.length === 1 && col >= 0 && col < g.foundations.length) {
    e.preventDefault();
    keyPlace({ kind: "foundation", index: col });
    return;
  }
  if (lower === RETRIEVE_KEY && shift && !state.selection) {
    e.preventDefault();
    askFoundation();
    return;
  }
  if (k.length === 1 && col >= 0 && col < g.columns.length) {
    e.preventDefault();
    keyPlace({ kind: "column", index: col });
    return;
  }
  const cell = CELL_KEYS.indexOf(lower);
  if (k.length === 1 && cell >= 0 && cell < g.cells.length) {
    e.preventDefault();
    keyPlace({ kind: "cell", index: cell });
    return;
  }
  if (lower === "t" && shift) {
    e.preventDefault();
    hint(2); // the solver's move at once
    return;
  }
  if (lower === PAR_KEY && shift) {
    e.preventDefault();
    parKey(); // Shift+P: p alone plays a replay to its end
    return;
  }
  const actions = {
    [HOME_KEY]: () => (state.selection ? moveSelectionTo({ kind: "foundation", index: null }) : autoHome()),
    t: hint,
    s: openReplay,
    n: openNewGame,
    u: undo,
    r: redo,
  };
  if (actions[lower]) {
    e.preventDefault();
    actions[lower]();
  }
}

/** ←, → and p (without Shift, whatever Caps Lock says) step, step back and play a replay. */
function replayKey(key, shift, e) {
  if (!state.replay || state.replay.loading) return false;
  const keys = { ArrowRight: replayStep, ArrowLeft: replayBack, p: replayPlay };
  const action = keys[key];
  if (!action || (key === "p" && shift)) return false;
  e.preventDefault();
  action();
  return true;
}

function keyPlace(place) {
  const sel = state.selection;
  if (sel) {
    if (samePlace(sel, place)) clearSelection();
    else moveSelectionTo(place);
    return;
  }
  if (place.kind === "foundation" && !retrievalOn()) {
    refuse(t("retrieve.off"));
    return;
  }
  if (!cardsOf(place).length) {
    const text = t("message.place_empty", { place: placeTitle(place) });
    showMessage(text, "info");
    say(text);
    return;
  }
  select(place, null, { keyboard: true });
}

function refuse(text) {
  showMessage(text, "error");
  say(text);
}

// ----- keyboard: a card back from a foundation (the house rule foundation retrieval) ----------
// Shift+H asks which foundation; its number (1-8) picks up its top card, which then goes
// where a column's or cell's key puts it, as any picked-up card does: "h2" then "3" is
// the move h23. Without the house rule the table says so.
const RETRIEVE_KEY = "h"; // with Shift
/** Par, as the terminal game's p; with Shift because p plays a replay to its end. */
const PAR_KEY = "p";
let pickingFoundation = false;

/** Does this game let a foundation's top card come back (the house rule)? */
function retrievalOn(g = state.game) {
  return Boolean(g && g.options && g.options.foundation_retrieval);
}

function askFoundation() {
  const g = state.game;
  if (!retrievalOn(g)) return refuse(t("retrieve.off"));
  if (!g.foundations.some((f) => f.top)) return refuse(t("retrieve.empty"));
  pickingFoundation = true;
  const text = t("retrieve.which", { last: Math.min(g.foundations.length, COLUMN_KEYS.length) });
  showMessage(text, "info");
  say(text);
}

// ----- wiring -----------------------------------------------------------------------------------
export function wireInput() {
  const frame = $("frame");
  frame.addEventListener("pointerdown", onPointerDown);
  window.addEventListener("pointermove", onPointerMove, { passive: false });
  window.addEventListener("pointerup", onPointerUp);
  window.addEventListener("pointercancel", onPointerCancel);
  // a column's or cell's heading acts as its key: pick up, or put the picked-up cards there
  frame.addEventListener("click", (e) => {
    const heading = e.target.closest("button.heading");
    if (!heading || !state.game) return;
    e.preventDefault();
    keyPlace({ kind: heading.dataset.kind, index: Number(heading.dataset.index) });
  });
  frame.addEventListener("contextmenu", (e) => {
    if (e.target.closest(".card")) e.preventDefault();
  });
  document.addEventListener("keydown", onKey);
}
