// Par: the proven fewest moves that win the deal (player moves). Asked after every win and
// on request (the Par button, or Shift+P: see parKey), searched by the server in the
// background: the page polls GET /api/games/{id}/par outside the request queue, so moves
// and hints never wait for it.
// The server says it in words ("Par 34 — you took 37", "Par is 31 to 33 …", "Par unknown
// …"). "Show a par solution" starts a game on the deal (never counted) and steps through
// the par solution with the solution replay. Where the table's time left bounds, the
// server offers a longer search (longer_seconds): the bounds in the status line, and a
// button in the win dialog, start it ("Search longer").

import { api, enqueue } from "./api.js";
import { t } from "./i18n.js";
import { loadReplay } from "./help.js";
import { confirmLeave, setGame, showFailure } from "./play.js";
import { $, inProgress, lessonOf, onGameChange, sleep, state } from "./state.js";
import { closeMenu, hideMessage, say, setHidden, showMessage } from "./ui.js";

const par = { gameId: null, token: 0, answer: null };

/** An answer that may be asked for again ("Try par again", Shift+P): the request failed
 * (the network, a server error or a busy server) or the search learnt nothing (it failed,
 * or gave up at its limit before any bound). A par proven or bounded, or a lost deal, is
 * final. */
function retriable(a) {
  return Boolean(a && (a.failed || a.state === "unknown"));
}

/** An answer's words without their full stop, for a sentence to follow them. */
function unstopped(a) {
  return a.text.replace(/[.!]$/, "");
}

/** "Par is not available now: the server answered 503. Try again (Shift+P)": one line. */
function retryTitle(a) {
  return t("par.retry_title", { reason: unstopped(a) });
}

/** Show the state of par for the game on the table: the Par button, or what is known. */
function render() {
  const g = state.game;
  const a = par.gameId === (g && g.id) ? par.answer : null;
  const asking = par.gameId === (g && g.id) && !a;
  const again = retriable(a);
  const longer = Boolean(a && a.longer_seconds);
  const text = a ? a.text : asking ? t("par.working") : "";
  const none = !g || lessonOf(g);
  $("par-slot").hidden = Boolean(none);
  setHidden($("btn-par"), Boolean(none || text)); // Par? said: the focus goes to the table
  // the status line says it short ("Par 14"), the win dialog and the tooltip in full
  $("st-par").hidden = !text || again || longer;
  $("st-par").textContent = a ? a.short || a.text : text;
  $("st-par").title = text;
  $("st-par").dataset.state = a ? a.state : asking ? "pending" : "";
  const retry = $("btn-par-retry");
  retry.hidden = !again;
  const why = again ? retryTitle(a) : "";
  retry.title = why;
  if (again) retry.setAttribute("aria-label", why);
  // the bounds themselves start the longer search (the slot has no room for more)
  const more = $("btn-par-longer");
  more.hidden = !longer;
  const offer = longer ? t("par.longer_title", { seconds: a.longer_seconds }) : "";
  more.textContent = longer ? a.short || a.text : "";
  more.title = longer ? `${unstopped(a)}. ${offer}` : "";
  if (longer) more.setAttribute("aria-label", more.title);
  const canShow = Boolean(a && a.solution);
  $("btn-par-replay").hidden = !canShow;
  $("won-par").textContent = g && g.won ? text : "";
  $("won-par").hidden = !(g && g.won && text);
  // not on the win of a par replay: the player has just watched that solution
  $("btn-won-par-replay").hidden = !(g && g.won && canShow && !g.replay);
  $("btn-won-par-longer").hidden = !(g && g.won && longer);
  $("btn-won-par-longer").title = offer;
}

/** Ask for the par of the game on the table and keep asking while the server works;
 * asked again after an answer that may be retried (see retriable), the server searches
 * anew; with `longer`, where the answer offered it, longer (searchLonger). */
export async function askPar({ longer = false } = {}) {
  const g = state.game;
  if (!g || lessonOf(g)) return;
  const known = par.gameId === g.id ? par.answer : null;
  let more = longer && Boolean(known && known.longer_seconds);
  if (known && known.state !== "pending" && !retriable(known) && !more) {
    render();
    return;
  }
  const token = ++par.token;
  par.gameId = g.id;
  par.answer = null;
  render();
  let retry = retriable(known);
  let delay = 200;
  for (;;) {
    let a;
    try {
      const ask = retry ? "&retry=true" : more ? "&longer=true" : "";
      a = await api("GET", `/api/games/${g.id}/par?wait=2${ask}`);
    } catch (e) {
      if (token !== par.token) return;
      const error = e.status === 0 ? t("par.no_contact") : e.message;
      par.answer = { state: "unknown", failed: true, text: t("par.unavailable", { error }), short: t("par.unavailable_short"), solution: false };
      render();
      const why = retryTitle(par.answer);
      showMessage(why, "error");
      say(why);
      return;
    }
    if (token !== par.token) return;
    // the search asked for again (or longer) is running: the next requests wait for it
    retry = false;
    more = false;
    if (a.state !== "pending") {
      par.answer = a;
      render();
      say(retriable(a) ? retryTitle(a) : a.text);
      return;
    }
    await sleep(delay);
    if (token !== par.token) return;
    delay = Math.min(delay * 1.5, 1500);
  }
}

/** "Search longer": par searched again for longer where the table's time left bounds
 * (the server's longer_seconds); the bounds stay kept if it finds no better. */
export function searchLonger() {
  askPar({ longer: true });
}

/** The par key (Shift+P): what the Par button (or "Try par again") does, and said aloud
 * and shown in full whatever the state: the par once known (the button is gone by then),
 * "Working out par…" while the server works (the answer is said when it comes), or why a
 * lesson has none. */
export function parKey() {
  const g = state.game;
  if (!g) return;
  if (lessonOf(g)) {
    const text = t("par.lesson");
    showMessage(text, "info");
    say(text);
    return;
  }
  const a = par.gameId === g.id ? par.answer : null;
  if (a && a.state !== "pending" && !retriable(a)) {
    showMessage(a.text, "info");
    say(a.text);
    return;
  }
  const asking = par.gameId === g.id && !a;
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
