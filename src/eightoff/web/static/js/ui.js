// The message area, the screen reader's live region and the phone menu.

import { speakable } from "./i18n.js";
import { $ } from "./state.js";

let messageTimer = null;
let messageSticky = false;
/** How long a message stays (it goes sooner with the player's next action). */
export const MESSAGE_MS = 4000;

/**
 * Show a message over the status line (never over the table). It goes after the player's
 * next action or after MESSAGE_MS; sticky: it stays while a request is under way, until
 * the next message or hideMessage().
 */
export function showMessage(text, kind = "info", { sticky = false } = {}) {
  const box = $("message");
  const span = document.createElement("span");
  span.textContent = text;
  box.replaceChildren(span);
  box.title = text;
  box.dataset.kind = kind;
  box.hidden = false;
  messageSticky = sticky;
  clearTimeout(messageTimer);
  if (!sticky) messageTimer = setTimeout(hideMessage, MESSAGE_MS);
}

export function hideMessage() {
  clearTimeout(messageTimer);
  messageSticky = false;
  $("message").hidden = true;
}

/** The player's next action (a key, a click or tap anywhere) takes a message away. */
export function wireMessages() {
  const next = (e) => {
    if (messageSticky || $("message").hidden) return;
    if (e.type === "keydown" && ["Shift", "Control", "Alt", "Meta", "Tab"].includes(e.key)) return;
    hideMessage();
  };
  document.addEventListener("pointerdown", next, true);
  document.addEventListener("keydown", next, true);
}

// the texts said since the live region was last written: one write a frame says them all
let unsaid = [];

/**
 * Say text in the live region (read out by screen readers), its cards by their names
 * ("2 of Hearts", not "2♥", which screen readers read in different ways). Texts said
 * in the same frame are read out together, in the order said (a move and the win it
 * made, a lesson's "Well done"): the region once kept only the last.
 */
export function say(text) {
  if (!text) return;
  const region = $("announce");
  if (!unsaid.length) {
    region.textContent = "";
    // a fresh text node each time so that repeated words are announced again
    requestAnimationFrame(() => {
      region.textContent = unsaid.map((s, i) => (i < unsaid.length - 1 && !/[.!?…:]$/.test(s) ? `${s}.` : s)).join(" ");
      unsaid = [];
    });
  }
  const spoken = speakable(text);
  if (!unsaid.includes(spoken)) unsaid.push(spoken);
}

/**
 * Before a control is disabled or hidden (or a panel that holds it): when it has the
 * keyboard's focus, the focus goes to the table, where the keys play, instead of
 * falling to the page's body (from where Tab starts again at the top).
 */
export function releaseFocus(el, to = $("frame")) {
  if (el && el.contains(document.activeElement)) to.focus({ preventScroll: true });
}

/** el.disabled = disabled, the focus released first (see releaseFocus). */
export function setDisabled(el, disabled) {
  if (disabled) releaseFocus(el);
  el.disabled = disabled;
}

/** el.hidden = hidden, the focus released first (see releaseFocus). */
export function setHidden(el, hidden) {
  if (hidden) releaseFocus(el);
  el.hidden = hidden;
}

/** The keyboard help, opened at its top (its Close button, focused first, is at the foot). */
export function openKeys() {
  const dlg = $("dlg-keys");
  dlg.showModal();
  dlg.focus();
  dlg.scrollTop = 0;
}

export function toggleMenu() {
  const open = document.body.classList.toggle("menu-open");
  $("btn-menu").setAttribute("aria-expanded", String(open));
}

export function closeMenu() {
  document.body.classList.remove("menu-open");
  $("btn-menu").setAttribute("aria-expanded", "false");
}
