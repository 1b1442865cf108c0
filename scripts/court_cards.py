"""Draw the court cards' pictures: src/eightoff/web/static/cards/{J,Q,K}{C,S,H,D}.svg.

One parametric design per rank (a Jack in a feathered cap, a Queen with a tiara and long
hair, a bearded King with a crown and sceptre), coloured by the suit's colour, with the
suit's pip on the chest. The pip shapes are read from static/js/cards.js, so the court
cards show the same pips as the rest of the pack. Each picture is 60 × 76 units: the
court frame of a card face (x 20…80, y 37…113 of the 100 × 140 face drawn by cards.js).

    uv run python scripts/court_cards.py          # write the twelve files
    uv run python scripts/court_cards.py --check  # exit 1 if a file differs (tests use it)
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

STATIC = Path(__file__).resolve().parents[1] / "src" / "eightoff" / "web" / "static"
OUT = STATIC / "cards"
RANKS = {"J": "Jack", "Q": "Queen", "K": "King"}
SUITS = {"C": "Clubs", "S": "Spades", "H": "Hearts", "D": "Diamonds"}

# the table's colours (style.css --red / --black) and the court palette
RED, BLACK = "#c8161d", "#1b1d22"
GOLD, GOLD_DARK = "#e2b43b", "#9c7414"
SKIN, SKIN_LINE = "#f6dcc0", "#b07a55"
CREAM = "#fffaf0"
BLUE = "#2d5fa8"


def suit_shapes() -> dict[str, str]:
    """The four pips as drawn by cards.js (SVG on a 100 × 100 box)."""
    text = (STATIC / "js" / "cards.js").read_text("utf-8")
    block = text[text.index("const SUIT_SHAPES") :]
    block = block[: block.index("};")]
    shapes: dict[str, str] = {}
    for suit in SUITS:
        m = re.search(rf"\b{suit}: ((?:`[^`]*`\s*\+?\s*)+),", block)
        if m is None:
            raise SystemExit(f"cards.js: no pip shape for suit {suit}")
        shapes[suit] = "".join(re.findall(r"`([^`]*)`", m.group(1)))
    return shapes


def pip(shape: str, x: float, y: float, size: float, fill: str, stroke: str = "") -> str:
    """A pip centred on (x, y), ``size`` units wide."""
    k = size / 100
    outline = f' stroke="{stroke}" stroke-width="{2.2 / k:.1f}"' if stroke else ""
    return (
        f'<g transform="translate({x - size / 2:g} {y - size / 2:g}) scale({k:g})"'
        f' fill="{fill}"{outline}>{shape}</g>'
    )


def face(cx: float, cy: float) -> str:
    """Eyes and a mouth, small enough to vanish at 40 px without leaving noise."""
    return (
        f'<circle cx="{cx - 3.2}" cy="{cy - 0.5}" r="0.95" fill="{BLACK}"/>'
        f'<circle cx="{cx + 3.2}" cy="{cy - 0.5}" r="0.95" fill="{BLACK}"/>'
        f'<path d="M{cx - 2} {cy + 4} q2 1.3 4 0" fill="none" stroke="{SKIN_LINE}"'
        ' stroke-width="0.9" stroke-linecap="round"/>'
    )


def robe(colour: str, trim: str) -> str:
    """Shoulders and robe with a trimmed collar, filling the bottom of the frame."""
    return (
        f'<path d="M6 76 C6 60 12 53 22 50 L30 56 L38 50 C48 53 54 60 54 76 Z" fill="{colour}"/>'
        f'<path d="M22 50 L30 56 L38 50 L35 48.5 L30 52 L25 48.5 Z" fill="{trim}"/>'
        f'<path d="M30 56 V58.5 M30 71.5 V76" stroke="{trim}" stroke-width="2.2"/>'
    )


def jack(colour: str, trim: str, shape: str) -> str:
    parts = [robe(colour, trim)]
    # neck, short hair, face
    parts.append(f'<rect x="26.5" y="40" width="7" height="10" fill="{SKIN}"/>')
    parts.append(f'<ellipse cx="30" cy="34" rx="10.5" ry="10" fill="{GOLD_DARK}"/>')
    parts.append(f'<ellipse cx="30" cy="35.5" rx="8.6" ry="9.4" fill="{SKIN}"/>')
    parts.append(face(30, 35.5))
    # a beret with a feather
    parts.append(f'<path d="M17 28 C18 18 42 16 44 26 C38 24 24 24 17 28 Z" fill="{colour}"/>')
    parts.append(f'<rect x="18" y="25.5" width="25" height="3.2" rx="1.2" fill="{trim}"/>')
    parts.append(
        f'<path d="M40 23 C46 14 52 12 55 9 C53 15 49 20 42 24 Z" fill="{GOLD}"'
        f' stroke="{GOLD_DARK}" stroke-width="0.6"/>'
    )
    parts.append(pip(shape, 30, 65, 12, CREAM))
    # a halberd's blade at the side
    parts.append(f'<path d="M49 76 L49 44" stroke="{GOLD_DARK}" stroke-width="1.6"/>')
    parts.append(f'<path d="M49 42 L53 47 L49 52 L47 47 Z" fill="{GOLD}"/>')
    return "".join(parts)


def queen(colour: str, trim: str, shape: str) -> str:
    parts = []
    # long hair behind the shoulders
    parts.append(
        f'<path d="M21 31 C15 41 13 53 16 62 L44 62 C47 53 45 41 39 31 Z" fill="{GOLD_DARK}"/>'
    )
    parts.append(robe(colour, trim))
    parts.append(f'<rect x="26.5" y="41" width="7" height="9" fill="{SKIN}"/>')
    parts.append(f'<ellipse cx="30" cy="35" rx="10.2" ry="10.5" fill="{GOLD_DARK}"/>')
    parts.append(f'<ellipse cx="30" cy="36.5" rx="8.4" ry="9.4" fill="{SKIN}"/>')
    parts.append(face(30, 36.5))
    # a tiara: a band with round-tipped points
    parts.append(
        f'<path d="M20 28 L21 19 L25.5 24 L30 16 L34.5 24 L39 19 L40 28 Z" fill="{GOLD}"'
        f' stroke="{GOLD_DARK}" stroke-width="0.7" stroke-linejoin="round"/>'
    )
    for x, y in ((21, 18.5), (30, 15.5), (39, 18.5)):
        parts.append(
            f'<circle cx="{x}" cy="{y}" r="1.9" fill="{CREAM}"'
            f' stroke="{GOLD_DARK}" stroke-width="0.6"/>'
        )
    parts.append(pip(shape, 30, 65, 12, CREAM))
    # a flower held at the side
    parts.append('<path d="M11 76 L13 50" stroke="#3d7a3a" stroke-width="1.4"/>')
    parts.append(
        f'<circle cx="13" cy="48" r="3.4" fill="{trim}" stroke="{GOLD_DARK}" stroke-width="0.6"/>'
    )
    return "".join(parts)


def king(colour: str, trim: str, shape: str) -> str:
    parts = [robe(colour, trim)]
    parts.append(f'<rect x="26.5" y="41" width="7" height="9" fill="{SKIN}"/>')
    parts.append('<ellipse cx="30" cy="35" rx="10.2" ry="10" fill="#8a8a8a"/>')
    parts.append(f'<ellipse cx="30" cy="35.5" rx="8.4" ry="9" fill="{SKIN}"/>')
    parts.append(face(30, 34.5))
    # a beard and moustache
    parts.append(
        '<path d="M21.8 37 C22 46 26 51 30 52 C34 51 38 46 38.2 37 C36 41 33 41.5 30 40.5'
        ' C27 41.5 24 41 21.8 37 Z" fill="#8a8a8a"/>'
    )
    # a crown: three points on a band
    parts.append(
        f'<path d="M19 28 L18.5 15 L24.5 21 L30 12 L35.5 21 L41.5 15 L41 28 Z" fill="{GOLD}"'
        f' stroke="{GOLD_DARK}" stroke-width="0.7" stroke-linejoin="round"/>'
    )
    parts.append(f'<rect x="19" y="25" width="22" height="3.4" fill="{GOLD_DARK}"/>')
    parts.append(f'<circle cx="30" cy="26.7" r="1.3" fill="{trim}"/>')
    parts.append(pip(shape, 30, 65, 12, CREAM))
    # a sceptre
    parts.append(f'<path d="M50 76 L50 42" stroke="{GOLD_DARK}" stroke-width="1.8"/>')
    parts.append(
        f'<circle cx="50" cy="40" r="3.2" fill="{GOLD}" stroke="{GOLD_DARK}" stroke-width="0.7"/>'
    )
    return "".join(parts)


DRAW = {"J": jack, "Q": queen, "K": king}


def court_svg(rank: str, suit: str, shape: str) -> str:
    red = suit in "HD"
    colour, trim = (RED, GOLD) if red else (BLACK, BLUE)
    frame = colour + "33"  # the suit's colour, faint
    body = DRAW[rank](colour, trim, shape)
    title = f"{RANKS[rank]} of {SUITS[suit]}"
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 60 76" width="60" height="76">'
        f"<title>{title}</title>"
        f'<clipPath id="frame-{rank}{suit}">'
        '<rect x="0.6" y="0.6" width="58.8" height="74.8" rx="5"/></clipPath>'
        f'<rect x="0.6" y="0.6" width="58.8" height="74.8" rx="5" fill="{CREAM}"/>'
        f'<g clip-path="url(#frame-{rank}{suit})">{body}</g>'
        f'<rect x="0.6" y="0.6" width="58.8" height="74.8" rx="5" fill="none"'
        f' stroke="{frame}" stroke-width="1.2"/>'
        "</svg>\n"
    )


def files() -> dict[Path, str]:
    shapes = suit_shapes()
    return {
        OUT / f"{rank}{suit}.svg": court_svg(rank, suit, shapes[suit])
        for rank in RANKS
        for suit in SUITS
    }


def main(argv: list[str]) -> int:
    wanted = files()
    if "--check" in argv:
        stale = [
            p.name for p, text in wanted.items() if not p.exists() or p.read_text("utf-8") != text
        ]
        if stale:
            print(f"out of date: {', '.join(stale)} (run scripts/court_cards.py)", file=sys.stderr)
            return 1
        return 0
    OUT.mkdir(exist_ok=True)
    for path, text in wanted.items():
        path.write_text(text, "utf-8")
    print(f"wrote {len(wanted)} files to {OUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
