// The Eight Off table: draws the game the server sends and sends the player's moves back.
// The rules live on the server (eightoff.position): the page lights up the moves the game
// lists as legal and shows the server's reason for any other. Modules by concern:
//   api      fetch wrapper, errors, revisions, the request queue
//   state    the page's state and small helpers      ui      messages, live region, menu
//   layout   card size and arrangement               draw    board, marks, status line, panel
//   input    pointer and keyboard                    play    moves, undo/redo, new games, settings
//   help     hints and solution replay               lessons, stats
// This module wires the buttons and starts the table.

import { api } from "./api.js";
import { installSprite } from "./cards.js";
import { renderBoard } from "./draw.js";
import { closeReplayPanel, hint, openReplay, replayBack, replayPlay, replayStep } from "./help.js";
import { dragging, wireInput } from "./input.js";
import { frameSize } from "./layout.js";
import { nextLesson, openLessons } from "./lessons.js";
import { initWords, rememberChoice, t } from "./i18n.js";
import { catchUp, changeVariant, finish, newGame, openDeal, openNewGame, redo, restart, saveSettings, setGame, showFailure, startGame, undo } from "./play.js";
import { $, plural, state } from "./state.js";
import { openStats } from "./stats.js";
import { closeMenu, hideMessage, say, toggleMenu } from "./ui.js";

function on(id, fn) {
  $(id).addEventListener("click", () => fn());
}

function wire() {
  wireInput();
  on("btn-undo", undo);
  on("btn-redo", redo);
  on("btn-restart", restart);
  on("btn-hint", hint);
  on("btn-solve", openReplay);
  on("btn-finish", finish);
  on("btn-new", openNewGame);
  $("language").addEventListener("change", changeLanguage);
  $("deal-form").addEventListener("submit", openDeal);
  $("variant").addEventListener("change", changeVariant);
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
  on("btn-keys", () => $("dlg-keys").showModal());
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
  const settings = await api("GET", "/api/settings").catch(() => null);
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
  $("opt-auto").checked = state.settings.auto_move;
  $("opt-winnable").checked = state.settings.winnable_only;
  fillVariants(variants);
  let game = null;
  try {
    // null when no game is in progress (a first visit): then a new deal
    game = await api("GET", "/api/games/current?optional=true");
  } catch (e) {
    showFailure(e);
  }
  if (game) {
    state.houseRules = game.house_rules || [];
    setGame(game, { animate: false });
    say(t("announce.resumed", { variant: game.variant_name, moves: plural(game.player_moves, "move") }));
  } else {
    $("variant").value = "eightoff";
    await startGame({ variant: "eightoff", deal: null, winnable_only: state.settings.winnable_only, lesson: null }, { confirm: false });
  }
  document.body.dataset.ready = "true";
}

boot();
