// Playing: every change of the game goes to the server, and the page shows the game the
// server sends back. A refusal shows the server's reason; a "stale" answer (another window
// changed the game) shows the game as it is now and says so.

import { api, enqueue, gameCall, staleMessage } from "./api.js";
import { dealAnimation, renderBoard, renderStatus, setVerdict, winAnimation } from "./draw.js";
import { t } from "./i18n.js";
import { $, describeTurn, inProgress, lessonOf, notifyGameChange, plural, reducedMotion, sleep, state, variantName } from "./state.js";
import { closeMenu, hideMessage, releaseFocus, say, showMessage } from "./ui.js";

// The game this tab showed last (its id, for this tab's life: sessionStorage), so that a
// reload after a win shows the won game again instead of dealing a new one at once.
const SHOWN_KEY = "eightoff.shown";

/** The game this tab showed last, if it is won (else null): a reload's table after a win. */
export async function lastWonGame() {
  let id = null;
  try {
    id = window.sessionStorage.getItem(SHOWN_KEY);
  } catch {
    return null; // no storage (a private window may refuse it)
  }
  if (!id || !/^[0-9]+$/.test(id)) return null;
  try {
    const g = await api("GET", `/api/games/${id}`);
    return g && g.won ? g : null;
  } catch {
    return null; // gone (another database), or the server is away: a new deal then
  }
}

/** Show a game the server sent. fromReplay: a replay step (the replay goes on). */
export function setGame(game, { announce = null, animate = true, fromReplay = false } = {}) {
  const previous = state.game;
  state.game = game;
  try {
    window.sessionStorage.setItem(SHOWN_KEY, String(game.id));
  } catch {
    /* no storage: a reload after a win deals a new game */
  }
  state.selection = null;
  state.hintLevel = 0;
  state.hintMarks = null;
  const sameGame = Boolean(previous && previous.id === game.id);
  if (!sameGame) {
    // the Deal # box shows this deal's number as its hint, not a number typed for another
    $("deal-number").value = "";
    $("deal-number").placeholder = game.deal !== null && game.deal !== undefined ? String(game.deal) : "1";
  }
  const turn = game.last_turn || (game.undone_turn ? [...game.undone_turn].reverse() : null);
  state.stagger = turn ? new Map(turn.map((m, i) => [m.card, i])) : null;
  renderBoard({ animate: animate && sameGame });
  renderStatus();
  showLink(game);
  // the move first, then what it led to (a lesson done, a win: said by the listeners)
  if (announce) say(announce);
  notifyGameChange(game, previous, { fromReplay });
  refreshStatus();
  if (game.won && state.wonShownFor !== game.id) {
    state.wonShownFor = game.id;
    onWon(game);
  }
}

// ----- a link for every deal ------------------------------------------------------------------
// The link's parameters: the deal, its variant and every house rule that differs from the
// variant's own (the same options as POST /api/games: foundation_retrieval, strict_single,
// cells), e.g. /?variant=freecell&deal=617&cells=2&retrieval=1&strict=1.
const LINK_RULES = { foundation_retrieval: "retrieval", strict_single: "strict" };
export const LINK_KEYS = ["variant", "deal", "cells", "lesson", ...Object.values(LINK_RULES)];
const LINK_YES = ["1", "true", "yes", "on"];
const LINK_NO = ["0", "false", "no", "off", ""];
const MAX_CELLS = 8;
const MAX_DEAL_DIGITS = 20; // deal numbers 1 to 10^20 − 1, as the server takes them

/** A link's value as the page quotes it: one line, at most 40 characters. */
function quoted(raw) {
  const one = String(raw).replace(/\s+/g, " ");
  return one.length > 40 ? `${one.slice(0, 40)}…` : one;
}

/** The number of free cells a game is played with when not its variant's own, else null. */
function changedCells(g) {
  return g && g.cells_changed && g.options ? g.options.cells : null;
}

/** The link that opens a game's deal with its house rules ("/?variant=freecell&deal=617"),
 * or a lesson's ("/?lesson=2"), or null (a board of one's own). */
export function dealLink(g) {
  const lesson = lessonOf(g);
  if (lesson) return `/?lesson=${lesson.id}`;
  if (!g || g.deal === null || g.deal === undefined) return null;
  const q = new URLSearchParams({ variant: g.variant, deal: String(g.deal) });
  const cells = changedCells(g);
  if (cells !== null) q.set("cells", String(cells));
  for (const name of g.house_rules || []) if (LINK_RULES[name]) q.set(LINK_RULES[name], "1");
  return `/?${q}`;
}

/** What a link asks for: {variant, deal, cells?, ...house rules}, or {lesson} for a
 * lesson's link (/?lesson=2: the other keys are then not read), or null (no deal in the
 * address); {error} (one line) when a value is not one the table takes: nothing starts then. */
export function linkRequest(search = window.location.search) {
  const q = new URLSearchParams(search);
  if (!LINK_KEYS.some((key) => q.has(key))) return null;
  if (q.has("lesson")) {
    const raw = (q.get("lesson") || "").trim();
    const lesson = state.lessons.find((l) => /^[0-9]{1,3}$/.test(raw) && l.id === Number(raw));
    if (!lesson) return { error: t("link.bad_lesson", { lesson: quoted(raw), count: state.lessons.length }) };
    return { lesson: lesson.id };
  }
  const variant = q.get("variant") || "eightoff";
  const v = state.variants.find((x) => x.id === variant);
  if (!v) return { error: t("link.bad_variant", { variant: quoted(variant) }) };
  // no deal named (/?variant=freecell, /?strict=1): a new deal of that variant and rules
  const named = q.has("deal");
  const raw = (q.get("deal") || "").trim();
  if (named && (!/^[0-9]+$/.test(raw) || /^0+$/.test(raw) || raw.replace(/^0+/, "").length > MAX_DEAL_DIGITS)) {
    return { error: t("link.bad_deal", { deal: quoted(raw) }) };
  }
  const body = named
    ? { variant, deal: dealValue(raw), winnable_only: false, lesson: null }
    : { variant, deal: null, winnable_only: Boolean(state.settings.winnable_only), lesson: null };
  for (const [name, key] of Object.entries(LINK_RULES)) {
    if (!q.has(key)) continue;
    const value = q.get(key).trim().toLowerCase();
    if (LINK_YES.includes(value)) body[name] = true;
    else if (!LINK_NO.includes(value)) return { error: t("link.bad_rule", { key, value: quoted(q.get(key)) }) };
  }
  if (q.has("cells")) {
    const cells = q.get("cells").trim();
    const least = v.least_cells ?? 0;
    if (!/^[0-9]{1,2}$/.test(cells) || Number(cells) < least || Number(cells) > MAX_CELLS) {
      return { error: t("link.bad_cells", { cells: quoted(cells), variant: v.name, least, most: MAX_CELLS }) };
    }
    if (Number(cells) !== v.cells) body.cells = Number(cells);
  }
  return body;
}

/** Does game g already show what a link asks for? (A link with no deal asks for the
 * variant and rules: a game in progress of those is kept.) */
export function showsLink(g, body) {
  if (body.lesson) return Boolean(g && !g.finished && lessonOf(g) && lessonOf(g).id === body.lesson);
  if (!g || g.finished || g.variant !== body.variant) return false;
  if (body.deal !== null && String(g.deal) !== String(body.deal)) return false;
  if (body.deal === null && lessonOf(g)) return false;
  if (changedCells(g) !== (body.cells ?? null)) return false;
  const rules = new Set(g.house_rules || []);
  return Object.keys(LINK_RULES).every((name) => rules.has(name) === Boolean(body[name]));
}

/** The Copy link button shows for a game with a deal number. */
function showLink(g) {
  $("btn-copy-link").hidden = !dealLink(g);
}

export async function copyLink() {
  const link = dealLink(state.game);
  if (!link) return;
  const url = new URL(link, window.location.origin).href;
  let text;
  try {
    await navigator.clipboard.writeText(url);
    text = t("link.copied", { url });
  } catch {
    text = t("link.copy_by_hand", { url });
  }
  showMessage(text, "info");
  say(text);
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
    // another window may have started a new game: show that one
    if (e.game.finished) catchUp();
    return;
  }
  showMessage(`${prefix}${e.message}`, "error");
  say(`${prefix}${e.message}`); // every refusal is read out too
}

/**
 * Show the game as stored when another window changed it: the same game at a newer
 * revision, or the game another window started since (the newest in progress). Runs in
 * the request queue, so it never overtakes the player's own requests.
 */
export function catchUp() {
  return enqueue(async () => {
    const g = state.game; // null: no game shown yet (a link that opened nothing)
    let now;
    try {
      now = await api("GET", "/api/games/current?optional=true");
      // this game was finished here or elsewhere and nothing newer is in progress
      if (!now && g && g.finished === false) now = await api("GET", `/api/games/${g.id}`);
    } catch {
      return; // the next request says what is wrong
    }
    if (!now || state.game !== g) return;
    if (g && now.id === g.id && now.revision === g.revision) return;
    const other = !g || now.id !== g.id;
    state.houseRules = now.house_rules || [];
    setGame(now, { animate: !other });
    if (other) state.wonShownFor = null;
    const text = t(other ? "message.other_window_game" : "message.stale");
    showMessage(text, "info");
    say(text);
  });
}

/** Every 2 s while the page is seen and idle: the other windows' changes reach this one
 * (GET requests through api.js, so the table's token and timeouts apply as to any). */
export const WATCH_MS = 2000;

export function watchOtherWindows({ dragging, onSettings }) {
  const tick = async () => {
    if (document.visibilityState !== "visible" || dragging() || document.body.dataset.busy === "true") return;
    if (document.querySelector("dialog[open]") || state.replay) return;
    await catchUp();
    try {
      onSettings(await api("GET", "/api/settings"));
    } catch {
      /* the next request says what is wrong */
    }
  };
  setInterval(tick, WATCH_MS);
}

function onWon(game) {
  if (lessonOf(game)) return; // the lesson panel says it
  const moves = plural(game.player_moves, "move");
  const movesIn = plural(game.player_moves, "move_dative"); // "in 66 Zügen"
  const hasDeal = game.deal !== null && game.deal !== undefined;
  $("won-text").textContent = game.replay
    ? t("par.replay_won", { moves })
    : hasDeal
      ? t("won.text", { variant: game.variant_name, deal: game.deal, moves_in: movesIn })
      : t("won.text_no_deal", { variant: game.variant_name, moves_in: movesIn });
  // a game the solver's solution was shown for is finished with help, not won (stats: assisted)
  $("won-title").textContent = t(game.assisted ? "won.title_assisted" : "won.title");
  say(game.assisted ? t("won.title_assisted") : t("won.announce", { moves_in: movesIn }));
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
    if (st.verdict === "not_winnable" && state.openedByNumber === g.id && state.settings.winnable_only) {
      // "Winnable deals only" picks random deals: a deal asked for by number opens as it is
      state.openedByNumber = null;
      const text = t("message.asked_deal_lost", { deal: g.deal });
      showMessage(text, "info");
      say(text);
    }
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
/**
 * What starting `body` does to the game in progress, in words: the dialog's title, what
 * becomes of the game, and the button that goes ahead ("Deal a new game", "Play FreeCell",
 * "Open deal 617", ...).
 */
function leaveWords(body) {
  const g = state.game;
  const title = t(lessonOf(g) ? "confirm.title_lesson" : "confirm.title");
  const text = t(g.deal !== null && g.deal !== undefined && !lessonOf(g) ? "confirm.counted" : "confirm.not_counted");
  let go;
  if (body.parReplay) go = t("par.confirm_replay");
  else if (body.lesson !== null && body.lesson !== undefined) go = t("confirm.lesson");
  else if (body.daily) go = t("confirm.daily");
  else if (body.deal !== null && body.deal !== undefined) go = t("confirm.deal", { deal: body.deal, variant: variantName(body.variant) });
  else if (body.variant && body.variant !== g.variant) go = t("confirm.variant", { variant: variantName(body.variant) });
  else go = t("confirm.new");
  return { title, text, go };
}

/** Ask before leaving the game in progress: resolves true to go ahead, false to keep
 * playing (the button, Escape). */
export function confirmLeave(body) {
  const dlg = $("dlg-confirm");
  const words = leaveWords(body);
  $("confirm-title").textContent = words.title;
  $("confirm-text").textContent = words.text;
  $("btn-confirm-ok").textContent = words.go;
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
  // a second click (a double-click on Open deal or Deal) while the first is on its way
  // would store a second game: one start at a time
  if (state.starting) return false;
  state.starting = true;
  try {
    return await startNow(body, confirm);
  } finally {
    state.starting = false;
  }
}

async function startNow(body, confirm) {
  // another window may have moved in this game since the last look (every 2 s, never
  // while a dialog is open): look again before deciding whether there is a game to leave
  if (confirm && !inProgress()) await catchUp();
  if (confirm && inProgress() && !(await confirmLeave(body))) return false;
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
export function houseRulesBody(rules = state.houseRules, cells = state.cells) {
  const body = {};
  for (const name of rules) body[name] = true;
  if (cells !== null && cells !== undefined) body.cells = cells;
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
  // the number of free cells: from the cards the variant deals to cells up to 8
  const v = state.variants.find((x) => x.id === $("new-variant").value);
  const cells = $("new-cells");
  if (v) {
    cells.min = String(v.least_cells ?? 0);
    cells.value = String(state.cells ?? v.cells);
    if (Number(cells.value) < v.least_cells) cells.value = String(v.least_cells);
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
    const v = state.variants.find((x) => x.id === select.value);
    const cells = Number($("new-cells").value);
    state.cells = v && Number.isInteger(cells) && cells !== v.cells ? cells : null;
    dlg.close();
    $("variant").value = select.value;
    return houseRulesBody(rules, state.cells);
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

// A deal number's digits as a request sends them: a number, or beyond 2^53 the text (a
// JavaScript number would round it; the server reads the text exactly, and answers it so).
function dealValue(raw) {
  const digits = raw.replace(/^0+/, "") || "0";
  return Number.isSafeInteger(Number(digits)) ? Number(digits) : digits;
}

export async function openDeal(ev) {
  ev.preventDefault();
  const raw = $("deal-number").value.trim();
  if (!/^\d+$/.test(raw)) {
    showMessage(t("message.deal_number_needed"), "error");
    return;
  }
  const ok = await startGame({ variant: $("variant").value, deal: dealValue(raw), winnable_only: false, lesson: null, ...houseRulesBody() });
  if (ok) {
    releaseFocus($("deal-number")); // the deal is open: the keys play on the table
    state.openedByNumber = state.game.id;
  }
}

async function changeVariant() {
  const variant = $("variant").value;
  const ok = await startGame({ variant, deal: null, winnable_only: state.settings.winnable_only, lesson: null, ...houseRulesBody() });
  if (!ok && state.game) $("variant").value = state.game.variant;
}

/**
 * The Variant menu deals its variant when the choice is made, not at each step towards
 * it: browsers fire "change" at every arrow key on a closed menu (ArrowDown asked at once
 * whether to leave the game, and Esc put the menu back, so FreeCell was out of the keys'
 * reach). A choice by pointer or from the open list deals at once; one stepped to with
 * the keys deals on Enter, or when the focus leaves the menu; Esc puts the menu back.
 */
export function wireVariantChoice(select) {
  let stepping = false; // the value changed by keys on the closed menu, not yet chosen
  let choosing = false; // the choice is being dealt (the confirm dialog takes the focus)
  const shown = () => (state.game ? state.game.variant : select.value);
  const choose = async () => {
    stepping = false;
    if (choosing || select.value === shown()) return;
    choosing = true;
    try {
      await changeVariant();
    } finally {
      choosing = false;
    }
  };
  select.addEventListener("keydown", (e) => {
    if (e.key === "Enter") {
      e.preventDefault();
      choose();
    } else if (e.key === "Escape") {
      stepping = false;
      select.value = shown();
    } else if ((/^Arrow(Up|Down|Left|Right)$|^(Home|End|PageUp|PageDown)$/.test(e.key) && !e.altKey) || (e.key.length === 1 && e.key !== " ")) {
      stepping = true; // a step on the closed menu (Space, Alt+↓ and F4 open its list)
    }
  });
  select.addEventListener("pointerdown", () => {
    stepping = false;
  });
  select.addEventListener("change", () => {
    if (!stepping) choose();
  });
  select.addEventListener("blur", () => {
    if (stepping) choose();
  });
}

/** Show the stored settings (at the start, after a change here or in another window). */
export function applySettings(settings) {
  const before = state.settings;
  state.settings = { ...state.settings, ...settings };
  const s = state.settings;
  $("opt-auto").checked = s.auto_move;
  $("opt-winnable").checked = s.winnable_only;
  $("opt-hint-solver").checked = Boolean(s.hint_solver_first);
  $("opt-large").checked = Boolean(s.large_cards);
  $("opt-four-colour").checked = Boolean(s.four_colour);
  document.body.classList.toggle("four-colour", Boolean(s.four_colour));
  if (state.game && Boolean(before.large_cards) !== Boolean(s.large_cards)) renderBoard({ animate: false });
}

/** The setting a checkbox changed, in words: "Four-colour suits: …: on". */
function settingWords(box) {
  const label = box.closest("label");
  const setting = (label ? label.textContent : box.id).replace(/\s+/g, " ").trim();
  return t("announce.setting", { setting, state: t(box.checked ? "announce.on" : "announce.off") });
}

/** Store the settings; a change of one checkbox (event) says which and how it is now. */
export function saveSettings(event = null) {
  const changed = event && event.target && event.target.type === "checkbox" ? event.target : null;
  return enqueue(async () => {
    const body = {
      auto_move: $("opt-auto").checked,
      winnable_only: $("opt-winnable").checked,
      hint_solver_first: $("opt-hint-solver").checked,
      large_cards: $("opt-large").checked,
      four_colour: $("opt-four-colour").checked,
    };
    try {
      applySettings(await api("PUT", "/api/settings", body));
      say(changed ? settingWords(changed) : t("announce.settings_saved"));
    } catch (e) {
      showMessage(e.message, "error");
    }
    applySettings(state.settings); // a refused change goes back
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
