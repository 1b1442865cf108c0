// The message area, the screen reader's live region and the phone menu.

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

/** Say text in the live region (read out by screen readers). */
export function say(text) {
  const region = $("announce");
  region.textContent = "";
  // a fresh text node each time so that repeated words are announced again
  requestAnimationFrame(() => {
    region.textContent = text;
  });
}

export function toggleMenu() {
  const open = document.body.classList.toggle("menu-open");
  $("btn-menu").setAttribute("aria-expanded", String(open));
}

export function closeMenu() {
  document.body.classList.remove("menu-open");
  $("btn-menu").setAttribute("aria-expanded", "false");
}
