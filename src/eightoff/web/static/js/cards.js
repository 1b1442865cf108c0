// Cards: names, colours and inline SVG faces drawn here (no web fonts); the Jacks, Queens
// and Kings show the original artwork of static/cards/{code}.svg (scripts/court_cards.py).
//
// A card code is the server's text: rank letter (A 2-9 T J Q K) + suit letter
// (C S H D), e.g. "QH", "TD". What a card is called, and the index on its corner, are
// the player's language's (i18n.js: cardName, rankIndex; "D" for a Dame in German):
// cardSVG is given the index to print.

const SVG_NS = "http://www.w3.org/2000/svg";

export const RANKS = "_A23456789TJQK";
export const SUITS = "CSHD";

/** Parse "QH" / "TD" / "10D" into {rank, suit}. */
export function parseCard(code) {
  const text = String(code).trim().toUpperCase();
  const suit = text.slice(-1);
  let r = text.slice(0, -1);
  if (r === "10") r = "T";
  const rank = RANKS.indexOf(r);
  if (rank < 1 || !SUITS.includes(suit)) throw new Error(`not a card: ${code}`);
  return { rank, suit };
}

export function isRed(suit) {
  return suit === "H" || suit === "D";
}

// ----- suit shapes, drawn on a 100×100 box ------------------------------------
const SUIT_SHAPES = {
  H: `<path d="M50 94 C43 86 4 60 4 31 C4 15 16 5 29 5 C40 5 47 12 50 21 C53 12 60 5 71 5 C84 5 96 15 96 31 C96 60 57 86 50 94 Z"/>`,
  D: `<path d="M50 3 C62 21 75 36 90 50 C75 64 62 79 50 97 C38 79 25 64 10 50 C25 36 38 21 50 3 Z"/>`,
  S: `<path d="M50 4 C58 18 96 40 96 63 C96 77 86 85 74 85 C65 85 58 80 54 73 C55 84 60 91 68 96 L32 96 C40 91 45 84 46 73 C42 80 35 85 26 85 C14 85 4 77 4 63 C4 40 42 18 50 4 Z"/>`,
  C: `<circle cx="50" cy="27" r="21"/><circle cx="26" cy="58" r="21"/><circle cx="74" cy="58" r="21"/>` +
    `<path d="M42 40 L58 40 L58 62 L42 62 Z"/><path d="M47 60 C47 78 42 89 33 96 L67 96 C58 89 53 78 53 60 Z"/>`,
};

let spriteInstalled = false;

/** Put the four suit shapes into the page once, as <symbol>s cards <use>. */
export function installSprite(doc = document) {
  if (spriteInstalled) return;
  const holder = doc.createElementNS(SVG_NS, "svg");
  holder.setAttribute("aria-hidden", "true");
  holder.setAttribute("width", "0");
  holder.setAttribute("height", "0");
  holder.style.position = "absolute";
  holder.innerHTML = Object.entries(SUIT_SHAPES)
    .map(([s, shape]) => `<symbol id="suit-${s}" viewBox="0 0 100 100">${shape}</symbol>`)
    .join("");
  doc.body.prepend(holder);
  spriteInstalled = true;
}

export function suitIcon(suit, x, y, size, extra = "") {
  return `<use href="#suit-${suit}" x="${x}" y="${y}" width="${size}" height="${size}"${extra}/>`;
}

// Pip positions (centre x, centre y) on the 100×140 face for 2–10. Everything in the
// middle stays below y = 36, so a covered card's visible strip shows only its index.
const L = 31, M = 50, R = 69;
const T = 46, B = 104, C = 75;
const R4 = [46, 65.33, 84.67, 104];
const PIPS = {
  2: [[M, T], [M, B]],
  3: [[M, T], [M, C], [M, B]],
  4: [[L, T], [R, T], [L, B], [R, B]],
  5: [[L, T], [R, T], [M, C], [L, B], [R, B]],
  6: [[L, T], [R, T], [L, C], [R, C], [L, B], [R, B]],
  7: [[L, T], [R, T], [M, 60.5], [L, C], [R, C], [L, B], [R, B]],
  8: [[L, T], [R, T], [M, 60.5], [L, C], [R, C], [M, 89.5], [L, B], [R, B]],
  9: [...R4.flatMap((y) => [[L, y], [R, y]]), [M, C]],
  10: [...R4.flatMap((y) => [[L, y], [R, y]]), [M, 55.67], [M, 94.33]],
};

/** The court card's picture (60×76 artwork), placed in the box x, y, w, h of the face. */
function courtImage(code, x, y, w, h) {
  const { rank, suit } = parseCard(code);
  return `<image href="/static/cards/${RANKS[rank]}${suit}.svg" x="${x}" y="${y}" width="${w}" height="${h}"/>`;
}

/**
 * The SVG markup of a card face, 100 units wide and 100 × ratio high (140 for a poker card's
 * shape; a taller card keeps its corners and centres its middle).
 * index: the rank as the corner shows it ("Q" in English, "D" in German: i18n.rankIndex).
 * compact: a big index and one big pip, for small cards (phones).
 */
export function cardSVG(code, { index, compact = false, ratio = 1.4 } = {}) {
  const { rank, suit } = parseCard(code);
  const short = index ?? (rank === 10 ? "10" : RANKS[rank]);
  const colour = isRed(suit) ? "red" : "black";
  const height = Math.round(100 * ratio);
  const parts = [];
  parts.push(`<rect class="face" x="1" y="1" width="98" height="${height - 2}" rx="8" ry="8"/>`);
  // the middle (pips, picture) is drawn on the 100×140 face, moved down to the card's centre
  const middle = [];
  if (compact) {
    // Index legible even when only the top fifth shows: rank left, suit right.
    const fs = short.length > 1 ? 34 : 38;
    parts.push(`<text class="idx" x="6" y="33" font-size="${fs}" ${short.length > 1 ? 'textLength="44" lengthAdjust="spacingAndGlyphs"' : ""}>${short}</text>`);
    parts.push(suitIcon(suit, 58, 6, 34));
    if (rank >= 11) {
      middle.push(courtImage(code, 16, 50, 68, 86.1));
    } else {
      middle.push(suitIcon(suit, 24, 56, 52));
    }
  } else {
    const fs = short.length > 1 ? 24 : 27;
    const fit = short.length > 1 ? ' textLength="28" lengthAdjust="spacingAndGlyphs"' : "";
    const index = `<text class="idx" x="6" y="25" font-size="${fs}"${fit}>${short}</text>${suitIcon(suit, 76, 6, 19)}`;
    parts.push(index);
    parts.push(`<g transform="rotate(180 50 ${height / 2})">${index}</g>`);
    if (rank === 1) {
      middle.push(suitIcon(suit, 22, 47, 56));
    } else if (rank >= 11) {
      middle.push(courtImage(code, 20, 37, 60, 76));
      middle.push(`<rect class="court" x="20" y="37" width="60" height="76" rx="5"/>`);
    } else {
      const size = rank >= 9 ? 16 : 18;
      for (const [x, y] of PIPS[rank]) {
        const flip = y > C + 1 ? ` transform="rotate(180 ${x} ${y})"` : "";
        middle.push(suitIcon(suit, x - size / 2, y - size / 2, size, flip));
      }
    }
  }
  const shift = (height - 140) / 2;
  parts.push(shift ? `<g transform="translate(0 ${shift})">${middle.join("")}</g>` : middle.join(""));
  return `<svg class="card-svg ${colour} suit-${suit}" viewBox="0 0 100 ${height}" aria-hidden="true" focusable="false">${parts.join("")}</svg>`;
}

/** An empty place's mark (a card's shape, 100 × 100·ratio): a faint suit for a foundation. */
export function placeholderSVG(suit, ratio = 1.4) {
  const height = Math.round(100 * ratio);
  const icon = suit ? suitIcon(suit, 25, height / 2 - 25, 50) : "";
  return `<svg class="slot-svg" viewBox="0 0 100 ${height}" aria-hidden="true" focusable="false"><rect x="2" y="2" width="96" height="${height - 4}" rx="8" ry="8"/>${icon}</svg>`;
}
