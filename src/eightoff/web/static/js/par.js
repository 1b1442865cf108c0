// Par: the proven fewest moves that win the deal (player moves). Asked after every win and
// on request (the Par button, or Shift+P: see parKey), searched by the server in the
// background: the page polls GET /api/games/{id}/par outside the request queue, so moves
// and hints never wait for it.
// The server says it in words ("Par 34 — you took 37", "Par is 31 to 33 …", "Par unknown
// …"). "Show a par solution" starts a game on the deal (never counted) and steps through
// the par solution with the solution replay.

import { api, enqueue } from "./api.js";
import { t } from "./i18n.js";
import { loadReplay } from "./help.js";
import { confirmLeave, setGame, showFailure } from "./play.js";
import { $, inProgress, lessonOf, onGameChange, sleep, state } from "./state.js";
import { closeMenu, hideMessage, say, showMessage } from "./ui.js";

const par = { gameId: null, token: 0, answer: null };

/** Show the state of par for the game on the table: the Par button, or what is known. */
function render() {
  const g = state.game;
  const a = par.gameId === (g && g.id) ? par.answer : null;
  const asking = par.gameId === (g && g.id) && !a;
  const text = a ? a.text : asking ? t("par.working") : "";
  $("btn-par").hidden = Boolean(!g || lessonOf(g) || text);
  // the status line says it short ("Par 14"), the win dialog and the tooltip in full
  $("st-par").hidden = !text;
  $("st-par").textContent = a ? a.short || a.text : text;
  $("st-par").title = text;
  $("st-par").dataset.state = a ? a.state : asking ? "pending" : "";
  const canShow = Boolean(a && a.solution);
  $("btn-par-replay").hidden = !canShow;
  $("won-par").textContent = g && g.won ? text : "";
  $("won-par").hidden = !(g && g.won && text);
  $("btn-won-par-replay").hidden = !(g && g.won && canShow);
}

/** Ask for the par of the game on the table and keep asking while the server works. */
export async function askPar() {
  const g = state.game;
  if (!g || lessonOf(g)) return;
  if (par.gameId === g.id && par.answer && par.answer.state !== "pending") {
    render();
    return;
  }
  const token = ++par.token;
  par.gameId = g.id;
  par.answer = null;
  render();
  let delay = 200;
  for (;;) {
    let a;
    try {
      a = await api("GET", `/api/games/${g.id}/par?wait=2`);
    } catch (e) {
      if (token !== par.token) return;
      par.answer = { state: "unknown", text: t("par.unavailable", { error: e.message }), short: t("par.unavailable_short"), solution: false };
      render();
      return;
    }
    if (token !== par.token) return;
    if (a.state !== "pending") {
      par.answer = a;
      render();
      say(a.text);
      return;
    }
    await sleep(delay);
    if (token !== par.token) return;
    delay = Math.min(delay * 1.5, 1500);
  }
}

/** The par key (Shift+P): what the Par button does, and said aloud and shown in full
 * whatever the state: the par once known (the button is gone by then), "Working out par…"
 * while the server works (the answer is said when it comes), or why a lesson has none. */
export function parKey() {
  const g = state.game;
  if (!g) return;
  if (lessonOf(g)) {
    const text = t("par.lesson");
    showMessage(text, "info");
    say(text);
    return;
  }
  const known = par.gameId === g.id && par.answer && par.answer.state !== "pending";
  if (known) {
    showMessage(par.answer.text, "info");
    say(par.answer.text);
    return;
  }
  const asking = par.gameId === g.id && !par.answer;
  say(t("par.working"));
  if (!asking) askPar();
}

/** Replay the par solution on a game of its own (asks first when that leaves a game in
 * progress: it counts as played). */
export async function showParSolution() {
  const g = state.game;
  if (!g) return;
  if (inProgress() && !(await confirmLeave({ parReplay: true }))) return;
  if ($("dlg-won").open) $("dlg-won").close();
  await enqueue(async () => {
    let next;
    try {
      next = await api("POST", `/api/games/${g.id}/par/replay`, {});
    } catch (e) {
      showFailure(e);
      return;
    }
    hideMessage();
    closeMenu();
    state.wonShownFor = null;
    const answer = par.answer;
    setGame(next, { animate: false, announce: t("par.replay_heading") });
    // the replay game's par is the deal's: already known
    if (answer) {
      par.gameId = next.id;
      par.answer = { ...answer, text: answer.short || answer.text, player_moves: null };
      render();
    }
    loadReplay(next.par_replay, { heading: t("par.replay_heading"), found: "par.replay_found" });
  });
}

// a new game forgets the par shown; a win asks for it
onGameChange((game, previous) => {
  const same = Boolean(previous && previous.id === game.id);
  if (!same && par.gameId !== game.id) {
    par.token += 1;
    par.gameId = null;
    par.answer = null;
  }
  if (game.won && !lessonOf(game) && (!same || !previous.won)) {
    // a won game says its moves beside par: ask again if par was asked during play
    if (par.gameId === game.id && par.answer && par.answer.player_moves === null && !game.replay) par.answer = null;
    askPar();
  }
  render();
});
