// The table's words in the player's language: the catalogues beside this file
// (en.json, de.json) and one renderer, the same as the engine's (eightoff/i18n.py):
//
//   const words = await loadWords(pickLanguage());
//   words.t("status.moves", { n: 12 })            // "Moves: 12" / "Züge: 12"
//   words.t("noun.card", { n: 3 })                // "3 cards" / "3 Karten"
//   words.cardName("QS")                          // "Queen of Spades" / "Pik-Dame"
//   words.placeTitle({ kind: "cell", index: 1 })  // "Cell 2" / "Zelle 2"
//
// A template is text with {name} parameters, or a choice {"$": "n", "one": …, "other": …}
// that picks by a parameter: "=value" first, then the number's plural category, then
// "other". The browser's languages choose; a choice made with rememberLanguage() wins.

export const LANGUAGES = ["en", "de"];
/** The locale each language writes its numbers and dates in (British English). */
const LOCALES = { en: "en-GB", de: "de-DE" };
export const DEFAULT_LANGUAGE = "en";
const STORE_KEY = "eightoff.language";
const RANKS = "_A23456789TJQK";
const SUITS = "CSHD";
const SUIT_SYMBOLS = "♣♠♥♦";

function saved(storage) {
  try {
    return storage ? storage.getItem(STORE_KEY) : null;
  } catch {
    return null; // storage refused (private mode, sandboxed frame)
  }
}

/** The language to show: a remembered choice, else the first browser language we have. */
export function pickLanguage(
  preferred = globalThis.navigator ? navigator.languages : [],
  storage = globalThis.localStorage,
) {
  const chosen = saved(storage);
  if (LANGUAGES.includes(chosen)) return chosen;
  for (const tag of preferred || []) {
    const base = String(tag).split("-")[0].toLowerCase();
    if (LANGUAGES.includes(base)) return base;
  }
  return DEFAULT_LANGUAGE;
}

/** Remember the player's choice (the switch overrides the browser's languages). */
export function rememberLanguage(lang, storage = globalThis.localStorage) {
  if (!LANGUAGES.includes(lang)) throw new Error(`unknown language ${lang}`);
  try {
    storage.setItem(STORE_KEY, lang);
  } catch {
    // not remembered, still shown
  }
}

/** Fetch a language's catalogue and return its renderer. */
export async function loadWords(lang, base = "/static/locales/") {
  const code = LANGUAGES.includes(lang) ? lang : DEFAULT_LANGUAGE;
  const response = await fetch(`${base}${code}.json`);
  if (!response.ok) throw new Error(`no words for ${code}: ${response.status}`);
  const data = await response.json();
  return new Words(code, data.messages);
}

export class Words {
  constructor(lang, messages) {
    this.lang = lang;
    this.messages = messages;
    this.plurals = new Intl.PluralRules(lang);
    // numbers as the language writes them ("33.3" / "33,3"), never grouped: a deal's
    // number is a name ("Deal 11982", not "11,982")
    this.numbers = new Intl.NumberFormat(LOCALES[lang] || lang, { useGrouping: false, maximumFractionDigits: 20 });
    this.dates = new Intl.DateTimeFormat(LOCALES[lang] || lang, { dateStyle: "long", timeZone: "UTC" });
  }

  /** A number in this language's digits: "33.3" / "33,3" (the one place the table formats them). */
  number(n) {
    return this.numbers.format(n);
  }

  /** A calendar date ("2026-12-07") as this language writes it: "7 December 2026" / "7. Dezember 2026". */
  date(iso) {
    const day = new Date(`${iso}T00:00:00Z`);
    return Number.isNaN(day.getTime()) ? String(iso) : this.dates.format(day);
  }

  template(key) {
    const t = this.messages[key];
    if (t === undefined) throw new Error(`no message ${key} in ${this.lang}`);
    return t;
  }

  choose(template, params) {
    let t = template;
    while (t !== null && typeof t === "object" && !Array.isArray(t)) {
      const value = params[t.$];
      const exact = `=${value}`;
      if (exact in t) t = t[exact];
      else if (typeof value === "number" && this.plurals.select(value) in t) t = t[this.plurals.select(value)];
      else if (typeof value === "string" && value in t) t = t[value];
      else t = t.other;
    }
    if (typeof t !== "string") throw new Error("a template is text or a choice");
    return t;
  }

  /** A message with its parameters ({name} or {name:spec}; numbers, in this language's
   * digits, and text). */
  t(key, params = {}) {
    return this.choose(this.template(key), params).replace(/\{([a-z_]+)(?::[a-z]+)?\}/g, (whole, name) => {
      if (!(name in params)) throw new Error(`message ${key}: no parameter ${name}`);
      const value = params[name];
      return typeof value === "number" ? this.number(value) : String(value);
    });
  }

  /** "Queen of Spades" / "Pik-Dame" for a card code such as "QS" or "TD". */
  cardName(code) {
    const { rank, suit } = parse(code);
    return this.t("card.name", {
      rank: this.template("card.rank_names")[rank],
      suit: this.template("card.suit_names")[suit],
    });
  }

  /** "Q♠" / "D♠": the card's index as this language writes it. */
  cardSymbol(code) {
    const { rank, suit } = parse(code);
    return this.template("card.ranks")[rank] + SUIT_SYMBOLS[suit];
  }

  /** The rank letter on a card's face: "Q" / "D". */
  rankLetter(code) {
    return this.template("card.ranks")[parse(code).rank];
  }

  /** "Column 3", "Cell 2", "Foundation 1", "the foundations" (index 0-based). */
  placeTitle(place) {
    if (place.index === null || place.index === undefined) return this.t("place.home");
    return this.t(`place.${place.kind}`, { n: place.index + 1 });
  }
}

function parse(code) {
  const text = String(code).trim().toUpperCase();
  const r = text.slice(0, -1) === "10" ? "T" : text.slice(0, -1);
  const rank = RANKS.indexOf(r);
  const suit = SUITS.indexOf(text.slice(-1));
  if (rank < 1 || suit < 0) throw new Error(`not a card: ${code}`);
  return { rank, suit };
}
