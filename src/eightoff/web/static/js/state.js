// The page's state: the game as the server last sent it, and what the player is doing
// with it (a picked-up card, hint marks, a replay). Nothing here judges a move.

import { RANKS } from "./cards.js";
import { count, placeTitle as localPlaceTitle, t } from "./i18n.js";

export const state = {
  game: null,
  starting: false, // a new game is on its way (play.js startGame: one at a time)
  variants: [],
  lessons: [],
  settings: { auto_move: true, winnable_only: false, language: null },
  difficulty: null, // the level chosen last in the new-game dialog (null: any deal)
  houseRules: [], // options the next deal is played with ("foundation_retrieval", "strict_single")
  cells: null, // the number of free cells the next deal is played with (null: the variant's own)
  selection: null, // {kind, index, count (null: keyboard, "whatever fits"), shown}
  hintLevel: 0,
  hintMarks: null, // {cards: Set(cardKey), places: [place]}
  statusToken: 0,
  verdict: null,
  replay: null, // {moves, index, playing, loading, stepping, total, gameId}
  layout: null,
  flipFrom: null, // Map(cardKey → DOMRect) overriding the previous positions for the next render
  stagger: null, // Map(card code → order) of the cards a turn moved
  lastTap: null,
  wonShownFor: null,
  openedByNumber: null, // the game opened by its number (Deal #, a link), until its verdict
  dragging: false,
};

export const $ = (id) => document.getElementById(id);
export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
export const reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)").matches;

// ----- who wants to know when the game changes ------------------------------------------------
const gameListeners = [];

/** fn(game, previous, options) runs after every new game object is shown. */
export function onGameChange(fn) {
  gameListeners.push(fn);
}

export function notifyGameChange(game, previous, options) {
  for (const fn of gameListeners) fn(game, previous, options);
}

// ----- places and cards -----------------------------------------------------------------------
export function placeKey(p) {
  return `${p.kind}:${p.index ?? "home"}`;
}

export function samePlace(a, b) {
  return Boolean(a && b) && a.kind === b.kind && (a.index ?? null) === (b.index ?? null);
}

export function placeTitle(p) {
  return localPlaceTitle(p);
}

export function foundationCode(f) {
  return f.top ? RANKS[f.top] + f.suit : null;
}

/** The cards of a place, bottom first. */
export function cardsOf(place, g = state.game) {
  if (place.kind === "column") return g.columns[place.index];
  if (place.kind === "cell") return g.cells[place.index] ? [g.cells[place.index]] : [];
  const code = foundationCode(g.foundations[place.index]);
  return code ? [code] : [];
}

/** The legal moves (as the server listed them) that start from the selection. */
export function legalFrom(sel, g = state.game) {
  return g.legal_moves.filter(
    (m) => samePlace(m.source, sel) && (sel.count === null || sel.count === undefined || m.count === sel.count),
  );
}

// ----- words ----------------------------------------------------------------------------------
/** "3 moves" / "3 Züge" (word: card, move, step). */
export function plural(n, word) {
  return count(n, word);
}

export function variantName(id) {
  const v = state.variants.find((x) => x.id === id);
  return v ? v.name : id;
}

/** The cards a turn sends home after its move that are still named one by one; more
 * are counted ("…; then 13 cards went home"): a screen reader read 21 clauses once. */
export const NAMED_AFTER_MOVE = 3;

/** A turn in words: its move, then what auto-move did after it. */
export function describeTurn(moves) {
  if (!moves || !moves.length) return "";
  const [first, ...auto] = moves;
  const text = first.text || first.notation;
  if (!auto.length) return text;
  if (auto.length > NAMED_AFTER_MOVE && auto.every((m) => m.target && m.target.kind === "foundation")) {
    return t("turn.then_home", { first: text, cards: plural(auto.length, "card") });
  }
  return t("turn.then", { first: text, rest: auto.map((m) => m.text || m.notation).join(t("list.separator")) });
}

// ----- the game -------------------------------------------------------------------------------
export function inProgress() {
  const g = state.game;
  return Boolean(g && !g.finished && !g.won && g.turns > 0);
}

/** The lesson of a game (the server sends the lesson object), or null. */
export function lessonOf(g) {
  if (!g || g.lesson === null || g.lesson === undefined) return null;
  const info =
    typeof g.lesson === "object"
      ? g.lesson
      : g.lesson_info || state.lessons.find((l) => l.id === g.lesson) || { id: g.lesson, title: t("lesson.fallback_title", { n: g.lesson }), goal: "", guidance: [] };
  const complete = typeof g.lesson_done === "boolean" ? g.lesson_done : info.complete ?? g.won;
  return { ...info, complete };
}
