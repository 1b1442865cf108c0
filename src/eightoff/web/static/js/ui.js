// The message area, the screen reader's live region and the phone menu.

import { $ } from "./state.js";

let messageTimer = null;

export function showMessage(text, kind = "info", { sticky = false } = {}) {
  const box = $("message");
  box.textContent = text;
  box.dataset.kind = kind;
  box.hidden = false;
  box.classList.remove("fade");
  clearTimeout(messageTimer);
  if (!sticky) messageTimer = setTimeout(() => box.classList.add("fade"), kind === "error" ? 9000 : 7000);
}

export function hideMessage() {
  clearTimeout(messageTimer);
  $("message").hidden = true;
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
