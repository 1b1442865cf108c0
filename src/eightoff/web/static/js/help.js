// Help: hints (first press: the cards the server says can move; second: the solver's move
// and why) and the solver's solution replayed step by step through the table.

import { enqueue, gameCall } from "./api.js";
import { applyHighlights, hidePanel, movingCardKeys, showPanel } from "./draw.js";
import { t } from "./i18n.js";
import { setGame, showFailure } from "./play.js";
import { $, describeTurn, lessonOf, onGameChange, plural, reducedMotion, sleep, state } from "./state.js";
import { releaseFocus, say, showMessage } from "./ui.js";

// ----- hints ------------------------------------------------------------------------------------
/** A hint: level 1 lights every card that can move, level 2 shows the solver's move.
 * Without a level, the first press gives the options and the next the solver's move (with
 * the setting "solver's move first" the other way round); Shift+T asks for level 2. */
export function hint(asked = null) {
  return enqueue(async () => {
    const g = state.game;
    if (!g || g.won) return;
    state.selection = null;
    const first = state.settings.hint_solver_first ? 2 : 1;
    const level = asked ?? (state.hintLevel === first ? 3 - first : first);
    if (level === 2) showMessage(t("hint.asking"), "info", { sticky: true });
    let h;
    try {
      h = await gameCall(g, "hint", { level });
    } catch (e) {
      showFailure(e);
      return;
    }
    if (state.game !== g) return;
    if (Number.isInteger(h.hints)) g.hints = h.hints;
    state.hintLevel = level;
    if (level === 1) showOptions(h.moves || []);
    else showSolverMove(h);
  });
}

/** Level 1: light up every card that has a useful move (the server leaves out cell to cell). */
function showOptions(moves) {
  const cards = new Set();
  for (const m of moves) {
    const [key] = movingCardKeys(m);
    if (key) cards.add(key);
  }
  state.hintMarks = { cards, places: [] };
  applyHighlights();
  // with no move at the deal's start there is nothing to undo: say so without undo
  const g = state.game;
  const text = moves.length
    ? t("hint.can_move", { n: cards.size })
    : t(g && !g.can_undo ? "hint.no_move_from_start" : "hint.no_move");
  showMessage(text, "hint");
  say(text);
}

/** Level 2: the solver's next move, its cards and target lit, and the reason in words. */
function showSolverMove(h) {
  const m = h.move;
  if (!m) {
    const text = h.reason || h.message || t("hint.no_suggestion");
    showMessage(text, "hint");
    say(text);
    return;
  }
  state.hintMarks = { cards: new Set(movingCardKeys(m)), places: [m.target] };
  applyHighlights();
  // the reason usually starts with the move itself
  const why = h.reason || "";
  const text = t("hint.prefix", { text: why.startsWith(m.text) ? why : `${m.text}${why ? `. ${why}` : ""}` });
  showMessage(text, "hint");
  say(text);
}

// ----- solution replay --------------------------------------------------------------------------
export async function openReplay() {
  const g = state.game;
  if (!g) return;
  if (g.won) {
    showMessage(t("replay.already_won"), "info");
    return;
  }
  state.replay = { moves: [], index: 0, playing: false, loading: true, gameId: g.id };
  showPanel("replay");
  $("replay-heading").textContent = t("replay.heading");
  $("replay-info").textContent = t("replay.asking");
  $("replay-next").textContent = "";
  renderReplay();
  let sol;
  let asked = g; // the game as it is when the request goes (after any queued before it)
  try {
    sol = await enqueue(() => {
      asked = state.game;
      return gameCall(asked, "solution");
    });
  } catch (e) {
    if (state.replay) state.replay.loading = false;
    $("replay-info").textContent = e.message;
    renderReplay();
    if (e.stale) showFailure(e);
    return;
  }
  if (!state.replay || state.game !== asked) return;
  loadReplay(sol);
}

/**
 * Step through a solution the server sent (the solver's, or a par solution: heading and
 * found say which) from the position on the table.
 */
export function loadReplay(sol, { heading = null, found = "replay.found" } = {}) {
  const g = state.game;
  if (!g) return;
  if (!state.replay) state.replay = { moves: [], index: 0, playing: false, loading: false, gameId: g.id };
  showPanel("replay");
  $("replay-heading").textContent = heading || t("replay.heading");
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
      t(sol.verdict === "not_winnable" ? "replay.not_winnable" : "replay.no_solution");
    renderReplay();
    return;
  }
  state.replay.moves = turns;
  // player moves, counted by the server in the table's auto-move setting (README: "Two move counts")
  state.replay.total = Number.isInteger(sol.player_moves) ? sol.player_moves : turns.length;
  renderReplay();
  say(t(found, { moves: plural(state.replay.total, "move"), steps: plural(turns.length, "step_dative") }));
}

/** The game on the table is over (won, or finished elsewhere). */
function over() {
  return Boolean(state.game && (state.game.won || state.game.finished));
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
  $("replay-info").textContent =
    r.index >= n ? t("replay.done", { steps: plural(n, "step") }) : t("replay.progress", { i: r.index, n, moves: plural(r.total, "move") });
  $("replay-next").textContent = r.index < n ? t("replay.next", { turn: describeTurn(r.moves[r.index]) }) : "";
  stepBtn.disabled = r.index >= n;
  // a won game is over: nothing is taken back (the server refuses an undo then)
  backBtn.disabled = r.index <= 0 || over();
  playBtn.disabled = r.index >= n;
  playBtn.textContent = t(r.playing ? "replay.pause" : "replay.play");
}

/** One step: the turn's first move, exactly as the solver made it; the server adds the rest. */
export function replayStep() {
  return replayRequest(1, (r) => {
    const turn = r.moves[r.index];
    const m = turn[0];
    // (a one-move step never sets off auto-moves the solver did not make next)
    return ["move", { source: m.source, target: m.target, count: m.count, auto: turn.length > 1 }];
  });
}

export function replayBack() {
  return replayRequest(-1, () => ["undo", {}]);
}

function replayRequest(step, request) {
  return enqueue(async () => {
    const r = state.replay;
    if (!r || r.loading || (step > 0 && r.index >= r.moves.length) || (step < 0 && (r.index <= 0 || over()))) return;
    const [action, body] = request(r);
    r.stepping = true;
    try {
      const next = await gameCall(state.game, action, body);
      r.index += step;
      setGame(next, { announce: step > 0 ? describeTurn(next.last_turn) : t("announce.step_back"), fromReplay: true });
    } catch (e) {
      r.playing = false;
      r.stepping = false;
      showFailure(e, t("replay.stopped", { error: "" }));
    } finally {
      r.stepping = false;
      renderReplay();
    }
  });
}

export async function replayPlay() {
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
    await sleep(reducedMotion ? 20 : 180);
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

export function closeReplayPanel() {
  if (state.replay) state.replay.playing = false;
  state.replay = null;
  if (!$("replay-panel").hidden) {
    releaseFocus($("replay-panel")); // Close replay, or a step's button, had the focus
    if (lessonOf(state.game)) showPanel("lesson");
    else hidePanel();
  }
}

// a new game closes the replay; a change made elsewhere ends it
onGameChange((game, previous, { fromReplay }) => {
  if (!previous || previous.id !== game.id) {
    if (!$("replay-panel").hidden || state.replay) closeReplayPanel();
  } else if (!fromReplay && state.replay && !state.replay.stepping) {
    stopReplay(t("replay.position_changed"));
  }
});
