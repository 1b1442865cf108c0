// Playing: every change of the game goes to the server, and the page shows the game the
// server sends back. A refusal shows the server's reason; a "stale" answer (another window
// changed the game) shows the game as it is now and says so.

import { api, enqueue, gameCall, staleMessage } from "./api.js";
import { dealAnimation, renderBoard, renderStatus, setVerdict, winAnimation } from "./draw.js";
import { t } from "./i18n.js";
import { $, describeTurn, inProgress, lessonOf, notifyGameChange, plural, reducedMotion, sleep, state } from "./state.js";
import { closeMenu, hideMessage, say, showMessage } from "./ui.js";

/** Show a game the server sent. fromReplay: a replay step (the replay goes on). */
export function setGame(game, { announce = null, animate = true, fromReplay = false } = {}) {
  const previous = state.game;
  state.game = game;
  state.selection = null;
  state.hintLevel = 0;
  state.hintMarks = null;
  const sameGame = Boolean(previous && previous.id === game.id);
  const turn = game.last_turn || (game.undone_turn ? [...game.undone_turn].reverse() : null);
  state.stagger = turn ? new Map(turn.map((m, i) => [m.card, i])) : null;
  renderBoard({ animate: animate && sameGame });
  renderStatus();
  notifyGameChange(game, previous, { fromReplay });
  if (announce) say(announce);
  refreshStatus();
  if (game.won && state.wonShownFor !== game.id) {
    state.wonShownFor = game.id;
    onWon(game);
  }
}

/**
 * Show why a request failed. A stale game is replaced by the game as stored, so that the
 * player sees what the other window did; nothing the player had is lost (it is stored).
 */
export function showFailure(e, prefix = "") {
  if (e.stale) {
    setGame(e.game, { animate: true });
    const text = e.message || staleMessage();
    showMessage(text, "error");
    say(text);
    return;
  }
  showMessage(`${prefix}${e.message}`, "error");
}

/** Back in this tab: show the game as stored if another window changed it meanwhile. */
export function catchUp() {
  return enqueue(async () => {
    const g = state.game;
    if (!g || !Number.isInteger(g.revision)) return;
    let now;
    try {
      now = await api("GET", `/api/games/${g.id}`);
    } catch {
      return; // the next request says what is wrong
    }
    if (state.game !== g || now.revision === g.revision) return;
    setGame(now, { animate: true });
    showMessage(staleMessage(), "info");
  });
}

function onWon(game) {
  if (lessonOf(game)) return; // the lesson panel says it
  const moves = plural(game.player_moves, "move");
  const hasDeal = game.deal !== null && game.deal !== undefined;
  $("won-text").textContent = hasDeal
    ? t("won.text", { variant: game.variant_name, deal: game.deal, moves })
    : t("won.text_no_deal", { variant: game.variant_name, moves });
  // a game the solver's solution was shown for is finished with help, not won (stats: assisted)
  $("won-title").textContent = t(game.assisted ? "won.title_assisted" : "won.title");
  say(game.assisted ? t("won.title_assisted") : t("won.announce", { moves }));
  const celebration = winAnimation();
  setTimeout(() => {
    const dlg = $("dlg-won");
    if (!dlg.open) dlg.showModal();
  }, reducedMotion ? 0 : Math.max(350, celebration));
}

/** The solver's verdict on the position, polled while the server is still working it out. */
async function refreshStatus() {
  const g = state.game;
  if (!g) return;
  const token = ++state.statusToken;
  if (g.won) {
    setVerdict({ verdict: "won", message: t("verdict.won") });
    return;
  }
  setVerdict({ verdict: "checking", message: t("verdict.checking") });
  let delay = 250;
  for (;;) {
    let st;
    try {
      st = await api("GET", `/api/games/${g.id}/status`);
    } catch {
      if (token === state.statusToken) setVerdict({ verdict: "unknown", message: t("verdict.unavailable") });
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

// ----- moves and the play buttons ---------------------------------------------------------------
/**
 * Ask the server to play a move: {"move": "37"} (typed: the run that fits) or
 * {"source", "target", "count"}. The server judges it.
 */
export function sendMove(body) {
  return enqueue(async () => {
    const g = state.game;
    if (!g) return;
    try {
      const next = await gameCall(g, "move", body);
      hideMessage();
      setGame(next, { announce: describeTurn(next.last_turn) });
    } catch (e) {
      state.selection = null;
      // cards dragged away slide back where they were
      renderBoard({ animate: true });
      showFailure(e);
      if (!e.stale) say(e.message);
    }
  });
}

function gameAction(action, words, body = {}) {
  return enqueue(async () => {
    const g = state.game;
    if (!g) return;
    try {
      const next = await gameCall(g, action, body);
      hideMessage();
      setGame(next, { announce: words(next) });
    } catch (e) {
      showFailure(e);
    }
  });
}

export const undo = () => gameAction("undo", (g) => t("message.undone", { moves: plural(g.player_moves, "move") }));
export const redo = () => gameAction("redo", (g) => t("message.redone", { turn: describeTurn(g.last_turn) }));
export const restart = () => gameAction("restart", () => t("message.restarted"));
/** Send the safe cards home (or, once the win is certain, every card: the server's default). */
export const autoHome = () => gameAction("auto", (g) => describeTurn(g.last_turn) || t("message.nothing_home"));
/** Auto-complete: the server plays the rest once the win is certain. */
export const finish = () => gameAction("auto", (g) => (g.won ? t("message.completed") : describeTurn(g.last_turn)), { complete: true });

// ----- new games --------------------------------------------------------------------------------
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

/** POST /api/games with body; asks first when it would replace a game in progress. */
export async function startGame(body, { confirm = true } = {}) {
  if (confirm && inProgress() && !(await confirmReplace())) return false;
  return enqueue(async () => {
    const random = body.winnable_only && (body.deal === null || body.deal === undefined);
    const dealing = body.difficulty
      ? t("message.dealing_difficulty", { level: t(`level.${body.difficulty}`) })
      : t(random ? "message.dealing_winnable" : "message.dealing");
    showMessage(dealing, "info", { sticky: true });
    try {
      const next = await api("POST", "/api/games", body);
      hideMessage();
      closeMenu();
      state.wonShownFor = null;
      const lesson = lessonOf(next);
      setGame(next, {
        animate: false,
        announce: lesson
          ? t("announce.new_lesson", { n: lesson.id, title: lesson.title })
          : t("announce.new_game", { variant: next.variant_name, deal: next.deal ?? "" }),
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

/** The house rules of the next deal as request fields (only those switched on: an option
 * left out is the variant's own, so Eight Off Easy stays itself). */
export function houseRulesBody(rules = state.houseRules) {
  const body = {};
  for (const name of rules) body[name] = true;
  return body;
}

/** A random deal of the chosen variant, with the house rules chosen last. */
export function newGame({ confirm = true } = {}) {
  const variant = $("variant").value || (state.game ? state.game.variant : "eightoff");
  const body = { variant, deal: null, winnable_only: state.settings.winnable_only, lesson: null, ...houseRulesBody() };
  if (state.difficulty) body.difficulty = state.difficulty; // the level chosen last
  return startGame(body, { confirm });
}

// ----- the new-game dialog: variant, house rules, winnable deals ---------------------------------
function variantOptions(id) {
  const v = state.variants.find((x) => x.id === id);
  return (v && v.options) || {};
}

/** Tick and lock the house rules a variant has of its own (Eight Off Easy's retrieval). */
function showVariantRules() {
  const own = variantOptions($("new-variant").value);
  for (const [name, id] of [["foundation_retrieval", "new-retrieval"], ["strict_single", "new-strict"]]) {
    const box = $(id);
    box.disabled = Boolean(own[name]);
    if (own[name]) box.checked = true;
    else box.checked = state.houseRules.includes(name);
  }
}

/** Open the new-game dialog (the New game button and the n key). */
export function openNewGame() {
  const select = $("new-variant");
  select.replaceChildren(...[...$("variant").options].map((o) => new Option(o.textContent, o.value)));
  select.value = $("variant").value || (state.game ? state.game.variant : "eightoff");
  select.onchange = showVariantRules;
  $("new-difficulty").value = state.difficulty || "";
  showVariantRules();
  const dlg = $("dlg-new");
  $("btn-new-cancel").onclick = () => dlg.close();
  const chosenRules = () => {
    const own = variantOptions(select.value);
    const rules = [];
    if ($("new-retrieval").checked && !own.foundation_retrieval) rules.push("foundation_retrieval");
    if ($("new-strict").checked && !own.strict_single) rules.push("strict_single");
    state.houseRules = rules;
    dlg.close();
    $("variant").value = select.value;
    return houseRulesBody(rules);
  };
  $("new-form").onsubmit = (ev) => {
    ev.preventDefault();
    // a difficulty: a random deal rated so (the server draws and rates deals); else any deal
    state.difficulty = $("new-difficulty").value || null;
    const rules = chosenRules();
    const body = { variant: select.value, deal: null, lesson: null, ...rules };
    if (state.difficulty) body.difficulty = state.difficulty;
    else body.winnable_only = state.settings.winnable_only;
    startGame(body);
  };
  // today's deal of the variant (the server picks it by the UTC date), with the house rules
  $("btn-new-daily").onclick = () => startGame({ variant: select.value, daily: true, lesson: null, ...chosenRules() });
  dlg.showModal();
  $("btn-new-deal").focus();
}

export async function openDeal(ev) {
  ev.preventDefault();
  const raw = $("deal-number").value.trim();
  if (!/^\d+$/.test(raw)) {
    showMessage(t("message.deal_number_needed"), "error");
    return;
  }
  const ok = await startGame({ variant: $("variant").value, deal: Number(raw), winnable_only: false, lesson: null, ...houseRulesBody() });
  if (ok) $("deal-number").blur();
}

export async function changeVariant() {
  const variant = $("variant").value;
  const ok = await startGame({ variant, deal: null, winnable_only: state.settings.winnable_only, lesson: null, ...houseRulesBody() });
  if (!ok && state.game) $("variant").value = state.game.variant;
}

export function saveSettings() {
  return enqueue(async () => {
    const body = { auto_move: $("opt-auto").checked, winnable_only: $("opt-winnable").checked };
    try {
      state.settings = await api("PUT", "/api/settings", body);
      say(
        t("announce.settings", {
          auto: t(state.settings.auto_move ? "announce.auto_on" : "announce.auto_off"),
          deals: t(state.settings.winnable_only ? "announce.winnable_only" : "announce.any_deal"),
        }),
      );
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
