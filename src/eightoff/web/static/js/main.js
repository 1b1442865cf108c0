// The Eight Off table: draws the game the server sends and sends the player's moves back.
// The rules live on the server (eightoff.position): the page lights up the moves the game
// lists as legal and shows the server's reason for any other. Modules by concern:
//   api      fetch wrapper, errors, revisions, the request queue
//   state    the page's state and small helpers      ui      messages, live region, menu
//   layout   card size and arrangement               draw    board, marks, status line, panel
//   input    pointer and keyboard                    play    moves, undo/redo, new games, settings
//   help     hints and solution replay               par     par, and its solution replayed
//   lessons, stats
// This module wires the buttons and starts the table.

import { api, lockedOut, takePendingLink } from "./api.js";
import { installSprite } from "./cards.js";
import { renderBoard } from "./draw.js";
import { closeReplayPanel, hint, openReplay, replayBack, replayPlay, replayStep } from "./help.js";
import { dragging, wireInput } from "./input.js";
import { frameSize } from "./layout.js";
import { nextLesson, openLessons } from "./lessons.js";
import { initWords, rememberChoice, t } from "./i18n.js";
import { LINK_KEYS, applySettings, catchUp, wireVariantChoice, copyLink, lastWonGame, linkRequest, showsLink, finish, newGame, openDeal, openNewGame, redo, restart, saveSettings, setGame, showFailure, startGame, undo, watchOtherWindows } from "./play.js";
import { $, plural, state } from "./state.js";
import { askPar, searchLonger, showParSolution } from "./par.js";
import { openStats } from "./stats.js";
import { closeMenu, hideMessage, openKeys, say, showMessage, toggleMenu, wireMessages } from "./ui.js";

function on(id, fn) {
  $(id).addEventListener("click", () => fn());
}

function wire() {
  wireInput();
  wireMessages();
  on("btn-undo", undo);
  on("btn-redo", redo);
  on("btn-restart", restart);
  on("btn-hint", hint);
  on("btn-solve", openReplay);
  on("btn-finish", finish);
  on("btn-copy-link", copyLink);
  // the skip link moves the focus to the table (the keys play there), the address unchanged
  $("skip-link").addEventListener("click", (e) => {
    e.preventDefault();
    $("frame").focus();
  });
  on("btn-par", askPar);
  on("btn-par-retry", askPar);
  on("btn-par-replay", showParSolution);
  on("btn-won-par-replay", showParSolution);
  on("btn-par-longer", searchLonger);
  on("btn-won-par-longer", searchLonger);
  on("btn-new", openNewGame);
  $("language").addEventListener("change", changeLanguage);
  $("deal-form").addEventListener("submit", openDeal);
  wireVariantChoice($("variant"));
  $("opt-auto").addEventListener("change", saveSettings);
  $("opt-winnable").addEventListener("change", saveSettings);
  on("btn-lessons", () => {
    closeMenu();
    openLessons();
  });
  on("btn-stats", () => {
    closeMenu();
    openStats();
  });
  on("btn-settings", () => {
    closeMenu();
    $("dlg-settings").showModal();
  });
  for (const id of ["opt-hint-solver", "opt-large", "opt-four-colour"]) $(id).addEventListener("change", saveSettings);
  on("btn-keys", openKeys);
  on("btn-replay-step", replayStep);
  on("btn-replay-back", replayBack);
  on("btn-replay-play", replayPlay);
  on("btn-replay-close", closeReplayPanel);
  on("btn-next-lesson", nextLesson);
  on("btn-won-close", () => $("dlg-won").close());
  on("btn-won-new", () => {
    $("dlg-won").close();
    newGame({ confirm: false });
  });
  for (const b of document.querySelectorAll(".close-dialog")) {
    b.addEventListener("click", () => b.closest("dialog").close());
  }
  on("btn-menu", toggleMenu);
  on("message", hideMessage);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") catchUp();
  });
  // the frame changes size with the window, the panel and the status line's wrapping
  let resizeTimer = null;
  let lastSize = "";
  new ResizeObserver(() => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(() => {
      const { w, h } = frameSize();
      const size = `${w}x${h}`;
      if (size === lastSize || !state.game || dragging()) return;
      lastSize = size;
      renderBoard({ animate: false });
    }, 40);
  }).observe($("frame"));
  // printed: the board laid out again for a page (style.css, "paper"), and back after
  const drawnFor = (printing) => {
    document.body.classList.toggle("printing", printing);
    if (state.game && !dragging()) renderBoard({ animate: false });
  };
  window.addEventListener("beforeprint", () => drawnFor(true));
  window.addEventListener("afterprint", () => drawnFor(false));
}

function fillVariants(variants) {
  $("variant").replaceChildren(
    ...variants.map((v) => {
      const o = document.createElement("option");
      o.value = v.id;
      o.textContent = v.name;
      o.title = v.rules || v.summary || "";
      return o;
    }),
  );
}

/** The language switch: remembered in the store (every browser) and here; the page reloads
 * so that every word, the server's included, is in the new language. */
async function changeLanguage() {
  const lang = $("language").value;
  rememberChoice(lang);
  try {
    await api("PUT", "/api/settings", { language: lang });
  } catch (e) {
    showFailure(e);
  }
  window.location.reload();
}

async function boot() {
  installSprite();
  wire();
  let refused = false;
  const settings = await api("GET", "/api/settings").catch((e) => {
    refused = e.status === 403; // this browser's token is not the table's
    return null;
  });
  if (refused) {
    lockedOut();
    return;
  }
  if (settings) state.settings = { ...state.settings, ...settings };
  // the player's choice, else the browser's languages; the server speaks it from here on
  const lang = await initWords(state.settings.language);
  $("language").value = lang;
  $("link-rules").href = `/rules?lang=${lang}`;
  const [variants, lessons] = await Promise.all([
    api("GET", "/api/variants").catch(() => []),
    api("GET", "/api/lessons").catch(() => []),
  ]);
  state.variants = variants;
  state.lessons = lessons;
  applySettings(state.settings);
  fillVariants(variants);
  let game = null;
  try {
    // null when no game is in progress (a first visit): then a new deal
    game = await api("GET", "/api/games/current?optional=true");
  } catch (e) {
    showFailure(e);
  }
  // a link's deal (/?variant=freecell&deal=617&strict=1), else the game in progress
  // (or the link followed before the token came: gate.js kept it for this page)
  const pending = takePendingLink();
  const link = linkRequest() || (pending ? linkRequest(pending) : null);
  // the address goes back to the table's own: a reload resumes the game in progress (which
  // another window may have changed since), it does not open the link's deal again
  if (link) {
    const rest = new URLSearchParams(window.location.search);
    for (const key of LINK_KEYS) rest.delete(key);
    history.replaceState(null, "", `${window.location.pathname}${rest.size ? `?${rest}` : ""}`);
  }
  if (game) {
    state.houseRules = game.house_rules || [];
    state.cells = game.cells_changed ? game.options.cells : null;
    setGame(game, { animate: false });
    if (!link || link.error || showsLink(game, link)) {
      say(t("announce.resumed", { variant: game.variant_name, moves: plural(game.player_moves, "move") }));
    }
  }
  if (link && link.error) {
    showMessage(link.error, "error");
    say(link.error);
    // nothing to undo, hint or solve until a game is started (New game, a deal's number)
    if (!state.game) for (const id of ["btn-undo", "btn-redo", "btn-restart", "btn-hint", "btn-solve"]) $(id).disabled = true;
  }
  if (state.game) document.body.dataset.ready = "true"; // the table shows a game and plays
  if (link && !link.error && !showsLink(game, link)) {
    // asks first when it would leave a game in progress
    if (link.lesson) await startGame(link); // the house rules chosen stay for the next deal
    else if (await startGame(link)) {
      state.openedByNumber = state.game.id;
      // the link's house rules are the ones chosen last (the next New game keeps them)
      state.houseRules = Object.keys(link).filter((k) => link[k] === true && k !== "winnable_only");
      state.cells = link.cells ?? null;
    } else if (state.game) $("variant").value = state.game.variant;
  }
  // a reload after a win shows the won game again (with its win message): New game deals on
  if (!state.game && !link) {
    const won = await lastWonGame();
    if (won) setGame(won, { animate: false });
  }
  // a link the table cannot open starts nothing (its message says why)
  if (!state.game && !link) {
    $("variant").value = "eightoff";
    await startGame({ variant: "eightoff", deal: null, winnable_only: state.settings.winnable_only, lesson: null }, { confirm: false });
  }
  watchOtherWindows({ dragging, onSettings: applySettings });
  // until here the page said "Loading…" and took no action (index.html starts them
  // disabled): a slow answer left a blank table whose buttons did nothing, and a New
  // game that offered another variant than the game in progress
  $("board").querySelector(".board-loading")?.remove();
  $("btn-new").disabled = $("btn-open").disabled = false;
  document.body.dataset.ready = "true";
}

boot();
