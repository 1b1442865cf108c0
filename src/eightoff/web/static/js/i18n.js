// The table's words in the player's language. The language: the player's choice stored on
// the server (PUT /api/settings {"language"}), else one remembered in this browser, else the
// browser's languages (navigator.languages); English otherwise. Every API request carries
// it as Accept-Language, so the server's words (moves, reasons, hints, status) match.
// The page's fixed texts carry data-i18n="id" (text), data-i18n-title, data-i18n-aria
// (aria-label) and data-i18n-placeholder; translatePage() fills them.

import { LANGUAGES, loadWords, pickLanguage, rememberLanguage } from "../locales/words.js";

let words = null;
let current = "en";

/** The language the table speaks now ("en" | "de"). */
export function language() {
  return current;
}

/** Load the words of the language to show (see the top of this file). */
export async function initWords(chosen = null) {
  current = LANGUAGES.includes(chosen) ? chosen : pickLanguage();
  words = await loadWords(current);
  document.documentElement.lang = current;
  translatePage();
  return current;
}

/** Remember a choice in this browser too (the store keeps it for every browser). */
export function rememberChoice(lang) {
  rememberLanguage(lang);
}

export { LANGUAGES };

/** A message of static/locales/<lang>.json with its parameters. */
export function t(key, params = {}) {
  if (!words) return key;
  return words.t(key, params);
}

/** "Queen of Spades" / "Pik-Dame". */
export function cardName(code) {
  return words ? words.cardName(code) : code;
}

const SUIT_SYMBOLS = { "♣": "C", "♠": "S", "♥": "H", "♦": "D" };
const RANK_CODES = "_A23456789TJQK";

/** Text to read out: each card written with its symbol ("2♥", "D♠") named in words
 * ("2 of Hearts", "Pik-Dame"), as the cards' own names are. */
export function speakable(text) {
  if (!words) return text;
  const ranks = words.template("card.ranks");
  const letters = ranks.filter(Boolean).sort((a, b) => b.length - a.length).join("|");
  const symbol = new RegExp(`(?<![\\p{L}\\p{N}])(${letters})([♣♠♥♦])`, "gu");
  return String(text).replace(symbol, (whole, rank, suit) => cardName(RANK_CODES[ranks.indexOf(rank)] + SUIT_SYMBOLS[suit]));
}

/** The rank on a card's corner: "Q" / "D" (Dame), "J" / "B" (Bube); "A", "10" in both. */
export function rankIndex(code) {
  return words ? words.rankLetter(code) : String(code).slice(0, -1).replace("T", "10");
}

/** "Column 3" / "Spalte 3"; the foundations as a target: "the foundations" / "die Ablagen". */
export function placeTitle(place) {
  return words ? words.placeTitle(place) : `${place.kind} ${(place.index ?? 0) + 1}`;
}

/** A calendar date ("2026-12-07") in the page's language: "7 December 2026". */
export function formatDate(iso) {
  return words ? words.date(iso) : String(iso);
}

/** "3 cards" / "3 Karten" (noun: card, move, step). */
export function count(n, noun) {
  return t(`noun.${noun}`, { n });
}

/** Fill the page's fixed texts (elements with data-i18n*) under root. */
export function translatePage(root = document) {
  for (const el of root.querySelectorAll("[data-i18n]")) {
    el.textContent = t(el.dataset.i18n, el.dataset.i18nParams ? JSON.parse(el.dataset.i18nParams) : {});
  }
  for (const el of root.querySelectorAll("[data-i18n-title]")) el.title = t(el.dataset.i18nTitle);
  for (const el of root.querySelectorAll("[data-i18n-aria]")) el.setAttribute("aria-label", t(el.dataset.i18nAria));
  for (const el of root.querySelectorAll("[data-i18n-placeholder]")) el.placeholder = t(el.dataset.i18nPlaceholder);
}
