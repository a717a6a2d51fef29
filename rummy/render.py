"""SVG pictures of cards, hands, melds, arrangements and tables.

Pure functions returning SVG strings (no Jupyter import): ``Card``, ``Meld``
and ``Arrangement`` show themselves in a notebook through ``_repr_svg_``,
and the widgets draw every card with these functions.  Every card carries a
``<title>`` with its name in words for screen readers, every piece of text
is escaped, and the drawing stays readable at small sizes (big rank and suit
glyphs, no thin lines).

>>> from rummy.cards import Card
>>> svg = card_svg(Card.parse("Th"))
>>> svg.startswith("<svg") and "<title>ten of hearts</title>" in svg
True
>>> "#1d6b2f" in card_svg(Card.parse("5c"), four_colour=True)  # clubs green
True
"""

from __future__ import annotations

import html
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from rummy.cards import RANKS, SUIT_SYMBOLS, Card

__all__ = [
    "SIZES",
    "card_svg",
    "hand_svg",
    "meld_svg",
    "arrangement_svg",
    "back_svg",
    "table_svg",
    "suit_colour",
    "big_table_layout_svg",
    "gin_roles_svg",
]

Size = Literal["small", "normal", "large"]


@dataclass(frozen=True, slots=True)
class _Dims:
    width: int
    height: int
    corner: int  # font size of the corner index (rank + suit)
    pip: int  # font size of the big centre suit
    gap: int  # space between cards in a hand
    tag: int  # height of the strip under a card holding a label


#: Card dimensions (pixels) for each ``size`` option.
SIZES: dict[str, _Dims] = {
    "small": _Dims(44, 62, 15, 22, 4, 14),
    "normal": _Dims(60, 84, 19, 30, 5, 16),
    "large": _Dims(84, 118, 26, 44, 7, 20),
}

_TWO_COLOUR = {"c": "#111111", "s": "#111111", "h": "#c0182a", "d": "#c0182a"}
_FOUR_COLOUR = {"c": "#1d6b2f", "s": "#111111", "h": "#c0182a", "d": "#1f4fb8"}
_JOKER_COLOUR = "#6a1b9a"
_SELECTED = "#1565c0"
_WILD = "#e0a000"
_FONT = "font-family='DejaVu Sans, Arial, Helvetica, sans-serif'"


def suit_colour(suit: str, four_colour: bool = False) -> str:
    """The ink colour of a suit (``""`` is the joker).

    >>> suit_colour("d"), suit_colour("d", four_colour=True)
    ('#c0182a', '#1f4fb8')
    """
    if not suit:
        return _JOKER_COLOUR
    return (_FOUR_COLOUR if four_colour else _TWO_COLOUR)[suit]


def _dims(size: str) -> _Dims:
    try:
        return SIZES[size]
    except KeyError:
        raise ValueError(
            f"size {size!r} is not a card size; the sizes are: " + ", ".join(SIZES)
        ) from None


def _esc(text: Any) -> str:
    return html.escape(str(text), quote=True)


def _svg(width: float, height: float, body: str, title: str, cls: str) -> str:
    return (
        f"<svg xmlns='http://www.w3.org/2000/svg' class='{cls}' role='img' "
        f"width='{width:g}' height='{height:g}' viewBox='0 0 {width:g} {height:g}'>"
        f"<title>{_esc(title)}</title>{body}</svg>"
    )


def _rank_text(card: Card) -> str:
    return "10" if card.rank == 10 else RANKS[card.rank]


def _card_group(
    card: Card | None,
    x: float,
    y: float,
    d: _Dims,
    *,
    four_colour: bool = False,
    selected: bool = False,
    wild: bool = False,
    label: str | None = None,
) -> str:
    """One card as an SVG ``<g>`` at (x, y); ``card=None`` draws its back."""
    w, h = d.width, d.height
    r = max(3, w // 12)
    parts = [f"<g transform='translate({x:g},{y:g})'>"]
    if card is None:
        parts.append("<title>face-down card</title>")
        parts.append(
            f"<rect x='1' y='1' width='{w - 2}' height='{h - 2}' rx='{r}' fill='#ffffff' "
            f"stroke='#444444' stroke-width='1.5'/>"
            f"<rect x='5' y='5' width='{w - 10}' height='{h - 10}' rx='{max(2, r - 2)}' "
            f"fill='#2e5c8a'/>"
            f"<path d='M5 {h / 2:g} L{w / 2:g} 5 L{w - 5} {h / 2:g} L{w / 2:g} {h - 5} Z' "
            f"fill='#4a7fb5'/>"
        )
        parts.append("</g>")
        return "".join(parts)
    title = card.name + (" (wild)" if wild else "") + (f", {label}" if label else "")
    parts.append(f"<title>{_esc(title)}</title>")
    stroke, sw = ("#444444", 1.5)
    if selected:
        stroke, sw = (_SELECTED, 4)
    fill = "#fff8e1" if wild else "#ffffff"
    parts.append(
        f"<rect x='{sw / 2:g}' y='{sw / 2:g}' width='{w - sw:g}' height='{h - sw:g}' rx='{r}' "
        f"fill='{fill}' stroke='{stroke}' stroke-width='{sw:g}'/>"
    )
    ink = suit_colour(card.suit, four_colour)
    if card.is_joker:
        pad = max(3, w // 14)
        parts.append(
            f"<text x='{pad}' y='{d.corner}' {_FONT} font-size='{d.corner * 0.85:g}' "
            f"font-weight='bold' fill='{ink}' letter-spacing='-1'>JK</text>"
            f"<text x='{w / 2:g}' y='{h - pad - 2:g}' text-anchor='middle' {_FONT} "
            f"font-size='{d.pip * 1.1:g}' fill='{ink}'>★</text>"
        )
    else:
        rank, sym = _rank_text(card), SUIT_SYMBOLS[card.suit]
        pad = max(3, w // 14)
        parts.append(
            f"<text x='{pad}' y='{d.corner}' {_FONT} font-size='{d.corner}' "
            f"font-weight='bold' fill='{ink}' letter-spacing='-1'>{_esc(rank)}</text>"
            f"<text x='{pad}' y='{d.corner * 2 - 1}' {_FONT} font-size='{d.corner}' "
            f"fill='{ink}'>{sym}</text>"
            f"<text x='{w / 2 + pad / 2:g}' y='{h - pad - 2:g}' text-anchor='middle' {_FONT} "
            f"font-size='{d.pip}' fill='{ink}'>{sym}</text>"
        )
    if wild:
        # a gold corner badge: readable without colour as a star
        s = d.corner * 0.8
        parts.append(
            f"<circle cx='{w - s * 0.75:g}' cy='{s * 0.75:g}' r='{s * 0.62:g}' fill='{_WILD}'/>"
            f"<text x='{w - s * 0.75:g}' y='{s * 1.1:g}' text-anchor='middle' {_FONT} "
            f"font-size='{s:g}' fill='#ffffff'>★</text>"
        )
    if label:
        parts.append(
            f"<text x='{w / 2:g}' y='{h + d.tag - 3}' text-anchor='middle' {_FONT} "
            f"font-size='{d.tag - 3}' font-weight='bold' fill='#333333'>{_esc(label)}</text>"
        )
    parts.append("</g>")
    return "".join(parts)


def card_svg(
    card: Card,
    *,
    four_colour: bool = False,
    size: Size | str = "normal",
    selected: bool = False,
    wild: bool = False,
    face_down: bool = False,
    label: str | None = None,
) -> str:
    """One card as a standalone SVG.

    ``selected`` draws a thick blue border, ``wild`` a gold star badge,
    ``label`` a small tag under the card (e.g. ``"=9♥"``), ``face_down`` the
    back (the title then says only "face-down card", never the card).

    >>> from rummy.cards import Card, JOKER
    >>> "<title>joker (wild), =9♥</title>" in card_svg(JOKER, wild=True, label="=9♥")
    True
    >>> "queen" in card_svg(Card.parse("Qs"), face_down=True)
    False
    >>> card_svg(Card.parse("Qs"), size="huge")
    Traceback (most recent call last):
    ...
    ValueError: size 'huge' is not a card size; the sizes are: small, normal, large
    """
    d = _dims(size)
    height = d.height + (d.tag if label else 0)
    if face_down:
        return _svg(d.width, d.height, _card_group(None, 0, 0, d), "face-down card",
                    "rummy-card-svg")
    body = _card_group(card, 0, 0, d, four_colour=four_colour, selected=selected, wild=wild,
                       label=label)
    title = card.name + (" (wild)" if wild else "") + (f", {label}" if label else "")
    return _svg(d.width, height, body, title, "rummy-card-svg")


def _is_wild_fn(wild: Any) -> Callable[[Card], bool]:
    """``wild`` may be a MeldRules (anything with ``is_wild``), a predicate or None."""
    if wild is None:
        return lambda c: False
    if hasattr(wild, "is_wild"):
        return wild.is_wild  # type: ignore[no-any-return]
    if callable(wild):
        return wild  # type: ignore[no-any-return]
    raise TypeError("wild must be MeldRules, a predicate on cards, or None")


def hand_svg(
    cards: Iterable[Card],
    *,
    four_colour: bool = False,
    size: Size | str = "normal",
    selected: Collection[int] = (),
    wild: Any = None,
    labels: Sequence[str | None] | None = None,
    title: str | None = None,
) -> str:
    """A row of cards.  ``selected`` holds positions (0-based) to highlight,
    ``wild`` is a :class:`~rummy.melds.MeldRules` (or a predicate) marking
    wild cards, ``labels`` an optional tag per card.

    >>> from rummy.cards import cards
    >>> svg = hand_svg(cards("7h 8h 9h"), selected={1})
    >>> svg.count("<title>"), "your hand" in hand_svg(cards("7h"), title="your hand")
    (4, True)
    """
    hand = list(cards)
    d = _dims(size)
    is_wild = _is_wild_fn(wild)
    tagged = labels is not None and any(labels)
    height = d.height + (d.tag if tagged else 0)
    width = max(1, len(hand) * (d.width + d.gap) - d.gap) if hand else d.width
    body = []
    for i, c in enumerate(hand):
        lab = labels[i] if labels is not None and i < len(labels) else None
        body.append(_card_group(c, i * (d.width + d.gap), 0, d, four_colour=four_colour,
                                selected=i in selected, wild=is_wild(c), label=lab))
    if not hand:
        body.append(
            f"<rect x='1' y='1' width='{d.width - 2}' height='{d.height - 2}' rx='4' "
            f"fill='none' stroke='#999999' stroke-dasharray='4 3'/>"
        )
    names = ", ".join(c.name for c in hand) or "no cards"
    return _svg(width, height, "".join(body), title or f"hand: {names}", "rummy-hand-svg")


def _shown(card: Any) -> str:
    """A card as a learner writes it: ``10♥``, not ``T♥``."""
    sym = str(card.symbol)
    return "10" + sym[1:] if sym.startswith("T") else sym


def _meld_group(meld: Any, x: float, y: float, d: _Dims, four_colour: bool) -> tuple[str, float]:
    """A meld outlined, wilds badged and tagged ``=9♥``; returns (svg, width)."""
    n = len(meld.cards)
    inner = n * (d.width + d.gap) - d.gap
    pad = d.gap + 2
    w = inner + 2 * pad
    h = d.height + d.tag + 2 * pad
    kind = "run" if meld.kind == "run" else "set"
    desc = " ".join(
        _shown(c) if c == r and not c.is_joker else f"{_shown(c)}={_shown(r)}"
        for c, r in zip(meld.cards, meld.represents)
    )
    parts = [
        f"<g transform='translate({x:g},{y:g})' class='rummy-meld'>",
        f"<title>{_esc(kind + ': ' + desc)}</title>",
        f"<rect x='1' y='1' width='{w - 2:g}' height='{h - 2:g}' rx='8' fill='#e8f5e9' "
        f"stroke='#2e7d32' stroke-width='2'/>",
    ]
    for i, (c, r) in enumerate(zip(meld.cards, meld.represents)):
        is_wild = c != r or c.is_joker
        lab = f"={_shown(r)}" if is_wild else None
        parts.append(_card_group(c, pad + i * (d.width + d.gap), pad, d, four_colour=four_colour,
                                 wild=is_wild, label=lab))
    parts.append("</g>")
    return "".join(parts), w


def meld_svg(
    meld: Any,
    *,
    four_colour: bool = False,
    size: Size | str = "normal",
) -> str:
    """A meld outlined in green; each wild has a gold badge and a tag saying
    what it stands for (``=9♥``).

    >>> from rummy.melds import Meld
    >>> from rummy.cards import cards
    >>> svg = meld_svg(Meld.of(cards("8h Jk Th")))
    >>> "=9♥" in svg and "run: 8♥ 🃏=9♥ 10♥" in svg
    True
    """
    d = _dims(size)
    body, w = _meld_group(meld, 0, 0, d, four_colour)
    h = d.height + d.tag + 2 * (d.gap + 2)
    kind = "run" if meld.kind == "run" else "set"
    title = f"{kind}: " + ", ".join(
        c.name if c == r and not c.is_joker else f"{c.name} as {r.name}"
        for c, r in zip(meld.cards, meld.represents)
    )
    return _svg(w, h, body, title, "rummy-meld-svg")


def arrangement_svg(
    arrangement: Any,
    *,
    four_colour: bool = False,
    size: Size | str = "normal",
    wild: Any = None,
    max_width: float | None = None,
    caption: str | None = None,
    plain: bool = False,
) -> str:
    """A hand arranged: melds outlined side by side, the deadwood apart
    (dashed red outline) and the penalty written underneath.  Rows wrap at
    ``max_width`` pixels (default: about five normal cards per row at phone
    width is left to the page; give a number to wrap).  ``plain``: the words a
    child reads at a game table ("left over", "points") instead of the
    lessons' terms ("deadwood", "penalty").

    >>> from rummy.search import best_arrangement
    >>> svg = arrangement_svg(best_arrangement("7h 8h 9h Kc 2d"))
    >>> "penalty 12" in svg and "deadwood" in svg
    True
    >>> svg = arrangement_svg(best_arrangement("7h 8h 9h Kc 2d"), plain=True)
    >>> "left over: king of clubs, two of diamonds; 12 points" in svg, ">deadwood<" in svg
    (True, False)
    """
    spare = "left over" if plain else "deadwood"
    d = _dims(size)
    is_wild = _is_wild_fn(wild)
    block_h = d.height + d.tag + 2 * (d.gap + 2)
    blocks: list[tuple[str, float]] = []
    for m in arrangement.melds:
        blocks.append(_meld_group(m, 0, 0, d, four_colour))
    dead = list(arrangement.deadwood)
    if dead:
        pad = d.gap + 2
        inner = len(dead) * (d.width + d.gap) - d.gap
        w = inner + 2 * pad
        parts = [
            f"<g class='rummy-deadwood'><title>{spare}: "
            + _esc(", ".join(c.name for c in dead)) + "</title>",
            f"<rect x='1' y='1' width='{w - 2:g}' height='{block_h - 2:g}' rx='8' "
            f"fill='#fff3f3' stroke='#c62828' stroke-width='2' stroke-dasharray='6 4'/>",
        ]
        for i, c in enumerate(dead):
            parts.append(_card_group(c, pad + i * (d.width + d.gap), pad, d,
                                     four_colour=four_colour, wild=is_wild(c)))
        parts.append(
            f"<text x='{w / 2:g}' y='{block_h - 4:g}' text-anchor='middle' {_FONT} "
            f"font-size='{d.tag - 4}' fill='#c62828'>{spare}</text></g>"
        )
        blocks.append(("".join(parts), w))
    gap = 2 * d.gap + 4
    limit = max_width if max_width is not None else float("inf")
    rows: list[list[tuple[str, float]]] = [[]]
    row_w = 0.0
    for b in blocks:
        if rows[-1] and row_w + gap + b[1] > limit:
            rows.append([])
            row_w = 0.0
        row_w += (gap if rows[-1] else 0) + b[1]
        rows[-1].append(b)
    body = []
    width = 0.0
    for ri, row in enumerate(rows):
        x = 0.0
        for svg_part, block_w in row:
            body.append(f"<g transform='translate({x:g},{ri * (block_h + gap):g})'>"
                        f"{svg_part}</g>")
            x += block_w + gap
        width = max(width, x - gap)
    text_y = len(rows) * (block_h + gap) + d.tag
    pen = int(arrangement.penalty)
    points = f"{pen} point{'s' if pen != 1 else ''}" if plain else f"penalty {pen}"
    summary = caption or (points + (" (every card melded)" if not dead else ""))
    body.append(
        f"<text x='2' y='{text_y - 4:g}' {_FONT} font-size='{d.tag}' font-weight='bold' "
        f"fill='#222222'>{_esc(summary)}</text>"
    )
    # room for the penalty line (bold text is about 0.62 em per character)
    width = max(width, d.width * 3, len(summary) * d.tag * 0.62 + 4)
    if plain:
        m = len(arrangement.melds)
        title = (f"{m} meld{'s' if m != 1 else ''}; left over: "
                 + (", ".join(c.name for c in dead) or "none") + f"; {points}")
    else:
        title = (f"{len(arrangement.melds)} meld(s), deadwood: "
                 + (", ".join(c.name for c in dead) or "none") + f", penalty {pen}")
    return _svg(width, text_y + 2, "".join(body), title, "rummy-arrangement-svg")


def back_svg(count: int = 1, *, size: Size | str = "normal", label: str | None = None) -> str:
    """A pile of ``count`` face-down cards (a stock, an opponent's hand),
    with the count written on it.  Never shows what the cards are.

    >>> svg = back_svg(7)
    >>> "7 face-down cards" in svg and ">7<" in svg
    True

    Three digits (the Big Table's pool) get a badge as wide as they are:

    >>> "<rect x='15.63' y='33.9' width='46.74' height='34.2' rx='17.1'" in back_svg(188)
    True
    """
    if not isinstance(count, int) or count < 0:
        raise ValueError(f"count must be a whole number 0 or more, not {count!r}")
    d = _dims(size)
    layers = min(count, 4)
    off = 3
    width = d.width + off * max(layers - 1, 0)
    height = d.height + off * max(layers - 1, 0)
    body = []
    if count == 0:
        body.append(
            f"<rect x='1' y='1' width='{d.width - 2}' height='{d.height - 2}' rx='4' "
            f"fill='none' stroke='#999999' stroke-dasharray='4 3'/>"
        )
    for i in range(layers):
        body.append(_card_group(None, i * off, i * off, d))
    cx = width - d.width / 2
    cy = height - d.height / 2
    r = d.corner * 0.9
    digits = len(str(count))
    # a circle holds two digits; more get a pill as wide as they are (bold
    # digits are about 0.62 em), the font made smaller if the card is too narrow
    font = d.corner if digits <= 2 else min(d.corner, (d.width - 8) / (digits * 0.62 + 0.5))
    half = max(r, (digits * 0.62 * font) / 2 + font * 0.3)
    body.append(
        (f"<circle cx='{cx:g}' cy='{cy:g}' r='{r:g}' " if digits <= 2 else
         f"<rect x='{cx - half:g}' y='{cy - r:g}' width='{2 * half:g}' height='{2 * r:g}' "
         f"rx='{r:g}' ")
        + "fill='#ffffff' stroke='#2e5c8a' stroke-width='2'/>"
        f"<text x='{cx:g}' y='{cy + font * 0.35:g}' text-anchor='middle' {_FONT} "
        f"font-size='{font:g}' font-weight='bold' fill='#2e5c8a'>{count}</text>"
    )
    what = "1 face-down card" if count == 1 else f"{count} face-down cards"
    return _svg(width, height, "".join(body), (f"{label}: " if label else "") + what,
                "rummy-back-svg")


def table_svg(
    seats: Sequence[tuple[str, int]],
    *,
    stock: int | None = None,
    discard: Card | None = None,
    hand: Sequence[Card] = (),
    current: int | None = None,
    four_colour: bool = False,
    size: Size | str = "small",
) -> str:
    """A bird's-eye table: opponents as named face-down piles around an oval,
    the stock and the top discard in the middle, your hand at the bottom.

    ``seats`` lists (name, cards held) for the other players in play order;
    ``current`` is the index in ``seats`` of the player to act, if any.
    Only counts are drawn for other players, so nothing hidden can show.

    >>> from rummy.cards import cards
    >>> svg = table_svg([("Ben", 3), ("Cleo", 3)], stock=30, discard=cards("Qd")[0],
    ...                 hand=cards("7h 8h 9h"))
    >>> "Ben: 3 face-down cards" in svg and "queen of diamonds" in svg
    True
    """
    d = _dims(size)
    n = len(seats)
    width = max(360, (len(hand) + 1) * (d.width + d.gap))
    seat_h = d.height + 24
    height = seat_h * 2 + d.height + 40
    body = [
        f"<ellipse cx='{width / 2:g}' cy='{seat_h + d.height / 2 + 10:g}' rx='{width / 2 - 4:g}' "
        f"ry='{seat_h + d.height / 2:g}' fill='#1b5e20' opacity='0.18'/>"
    ]
    for i, (name, count) in enumerate(seats):
        x = (i + 0.5) * width / max(n, 1) - d.width / 2
        colour = "#1565c0" if current == i else "#222222"
        label = f"{name}: " + ("1 face-down card" if count == 1 else f"{count} face-down cards")
        body.append(
            f"<g transform='translate({x:g},4)'><title>{_esc(label)}</title>"
            f"{_card_group(None, 0, 16, d)}"
            f"<text x='{d.width / 2:g}' y='12' text-anchor='middle' {_FONT} font-size='12' "
            f"font-weight='{'bold' if current == i else 'normal'}' fill='{colour}'>"
            f"{_esc(name)} ({count})</text></g>"
        )
    mid_y = seat_h + 12
    if stock is not None:
        x = width / 2 - d.width - d.gap * 2
        body.append(
            f"<g transform='translate({x:g},{mid_y:g})'><title>stock: {stock} cards</title>"
            f"{_card_group(None, 0, 0, d)}"
            f"<text x='{d.width / 2:g}' y='{d.height + 12:g}' text-anchor='middle' {_FONT} "
            f"font-size='11'>stock {stock}</text></g>"
        )
    x = width / 2 + d.gap * 2
    if discard is not None:
        body.append(
            f"<g transform='translate({x:g},{mid_y:g})'>"
            f"{_card_group(discard, 0, 0, d, four_colour=four_colour)}"
            f"<text x='{d.width / 2:g}' y='{d.height + 12:g}' text-anchor='middle' {_FONT} "
            f"font-size='11'>discard</text></g>"
        )
    hy = height - d.height - 4
    for i, c in enumerate(hand):
        body.append(_card_group(c, i * (d.width + d.gap) + 4, hy, d, four_colour=four_colour))
    names = ", ".join(f"{s} {c}" for s, c in seats)
    title = (f"table: {names}" + (f"; stock {stock}" if stock is not None else "")
             + (f"; discard {discard.name}" if discard is not None else "")
             + (f"; your hand {', '.join(c.name for c in hand)}" if hand else ""))
    return _svg(width, height + 2, "".join(body), title, "rummy-table-svg")


# ---------------------------------------------------------------------------
# Teaching pictures: the Big Table's layout (BT-2, BT-3) and Gin's roles (G-2, G-11)
# ---------------------------------------------------------------------------

_ARROW = ("<defs><marker id='rummy-arrow' viewBox='0 0 10 10' refX='9' refY='5' "
          "markerWidth='7' markerHeight='7' orient='auto-start-reverse'>"
          "<path d='M0,0 L10,5 L0,10 z' fill='#1565c0'/></marker></defs>")


def big_table_layout_svg(players: Sequence[str] | int = ("You", "Ana", "Ben", "Cleo", "Dev",
                                                          "Eve"), *, width: int = 420) -> str:
    """The Big Table seen from above: the pool in the middle, each player's own
    discard pile on their **left** (BT-2), and an arrow from each player to
    the only pile they may take from, their right-hand neighbour's (BT-3).
    The first player sits at the bottom; the next one sits on their left.

    >>> svg = big_table_layout_svg(["You", "Ana", "Ben"])
    >>> svg.count("class='rummy-layout-pile'"), svg.count("marker-end"), "your own pile" in svg
    (3, 3, True)
    """
    import math

    names = [f"Player {i + 1}" for i in range(players)] if isinstance(players, int) \
        else list(players)
    if not 2 <= len(names) <= 12:
        raise ValueError(f"the Big Table seats 2 to 12 players (BT-1), not {len(names)}")
    n, size = len(names), float(width)
    # room around the table for the names beside it, and under it for the key
    margin, top, key = 60.0, 16.0, 78.0
    cx, cy = margin + size / 2, top + size / 2
    seat_r, pile_r = size * 0.40, size * 0.27
    body = [_ARROW,
            f"<circle cx='{cx:g}' cy='{cy:g}' r='{size * 0.33:g}' fill='#e8f5e9' stroke='#2e7d32' "
            "stroke-width='2'/>",
            f"<rect x='{cx - 22:g}' y='{cy - 30:g}' width='44' height='60' rx='5' fill='#1565c0' "
            "stroke='#0d47a1'/>",
            f"<text x='{cx:g}' y='{cy + 46:g}' text-anchor='middle' font-size='12' "
            "font-family='sans-serif'>pool (face down)</text>"]
    piles = []
    for i, name in enumerate(names):
        a = math.radians(90 + i * 360 / n)  # screen angles: seat 0 at the bottom, then clockwise
        ix, iy = -math.cos(a), -math.sin(a)  # towards the centre
        lx, ly = iy, -ix  # the seat's left hand
        sx, sy = cx + seat_r * math.cos(a), cy + seat_r * math.sin(a)
        shift = 0.38 * (2 * math.pi * pile_r / n) / 2 if n > 2 else size * 0.12
        px, py = (cx + pile_r * math.cos(a) + lx * shift, cy + pile_r * math.sin(a) + ly * shift)
        piles.append((px, py))
        mine = i == 0
        body.append(f"<circle cx='{sx:g}' cy='{sy:g}' r='15' fill='{'#fff59d' if mine else '#ffffff'}' "
                    "stroke='#333333' stroke-width='1.5'/>")
        # the name outside the seat: under it, above it, or beside it (away from the table)
        tx, ty, anchor = sx, sy + 4, "end" if math.cos(a) < 0 else "start"
        if math.sin(a) > 0.3:
            ty, anchor = sy + 30, "middle"
        elif math.sin(a) < -0.3:
            ty, anchor = sy - 20, "middle"
        else:
            tx = sx - 20 if anchor == "end" else sx + 20
        body.append(f"<text x='{tx:g}' y='{ty:g}' text-anchor='{anchor}' font-size='12' "
                    f"font-family='sans-serif' font-weight='{'bold' if mine else 'normal'}'>"
                    f"{_esc(name)}</text>")
        body.append(f"<rect class='rummy-layout-pile' x='{px - 9:g}' y='{py - 12:g}' width='18' "
                    "height='24' rx='3' fill='#ffffff' stroke='#c62828' stroke-width='2'/>")
    for i in range(n):
        a = math.radians(90 + i * 360 / n)
        sx, sy = cx + seat_r * math.cos(a), cy + seat_r * math.sin(a)
        px, py = piles[(i - 1) % n]  # the right-hand neighbour's pile
        fx, fy = sx + (px - sx) * 0.22, sy + (py - sy) * 0.22
        tx, ty = sx + (px - sx) * 0.80, sy + (py - sy) * 0.80
        body.append(f"<line x1='{fx:g}' y1='{fy:g}' x2='{tx:g}' y2='{ty:g}' stroke='#1565c0' "
                    "stroke-width='2' marker-end='url(#rummy-arrow)'/>")
    # the key, under the table (nothing written over the drawing)
    key_lines = [("#c62828", "red: each player's own pile, on their left"),
                 ("#c62828", f"(your own pile is the red one by {_esc(names[0])})"),
                 ("#1565c0", "blue: the one pile each player takes from"),
                 ("#1565c0", f"(you take from {_esc(names[-1])}'s, on your right)")]
    for line, (colour, text) in enumerate(key_lines):
        body.append(f"<text x='6' y='{top + size + 16 + 16 * line:g}' font-size='11' "
                    f"fill='{colour}' font-family='sans-serif'>{text}</text>")
    title = (f"The Big Table from above: {', '.join(names)} around the pool; each player's own "
             "pile lies on their left, and each takes only from the pile of the neighbour on "
             "their right (BT-2, BT-3).")
    return _svg(size + 2 * margin, top + size + key, "".join(body), title, "rummy-big-table-layout")


def gin_roles_svg(box: str = "Cleo", captain: str = "Ben", advisor: str = "Ana", *,
                  width: int = 560) -> str:
    """Gin's three roles and how they rotate after a hand (G-2, G-11): this
    hand on the left; the next hand if the box wins (the box stays, captain
    and advisor swap) and if the box loses (the box sits out, the captain
    goes into the box, the advisor becomes captain).

    >>> svg = gin_roles_svg()
    >>> svg.count("marker-end"), "box loses" in svg and "box wins" in svg
    (6, True)
    """
    roles = ("box", "captain", "advisor")
    now = {"box": box, "captain": captain, "advisor": advisor}
    if len(set(now.values())) != 3:
        raise ValueError("three different players take the three roles (G-2)")
    wins = {"box": box, "captain": advisor, "advisor": captain}
    loses = {"box": captain, "captain": advisor, "advisor": box}
    w_, col = float(width), (90.0, 280.0, 470.0)
    rows = {"box": 70.0, "captain": 120.0, "advisor": 170.0}
    body = [_ARROW]

    def column(x: float, who: dict[str, str], head: str) -> None:
        body.append(f"<text x='{x:g}' y='30' text-anchor='middle' font-size='13' font-weight='bold' "
                    f"font-family='sans-serif'>{_esc(head)}</text>")
        for role in roles:
            y = rows[role]
            fill = {"box": "#fff59d", "captain": "#bbdefb", "advisor": "#eeeeee"}[role]
            body.append(f"<rect x='{x - 58:g}' y='{y - 17:g}' width='116' height='30' rx='6' "
                        f"fill='{fill}' stroke='#555555'/>")
            body.append(f"<text x='{x:g}' y='{y + 3:g}' text-anchor='middle' font-size='12' "
                        f"font-family='sans-serif'>{_esc(who[role])}: {role}</text>")

    column(col[0], wins, "next, if the box wins")
    column(col[1], now, "this hand")
    column(col[2], loses, "next, if the box loses")
    for target, colour, x1, x2 in ((wins, "#2e7d32", col[1] - 60, col[0] + 60),
                                   (loses, "#c62828", col[1] + 60, col[2] - 60)):
        for role in roles:
            name = now[role]
            new_role = next(r for r in roles if target[r] == name)
            y1, y2 = rows[role] - 2, rows[new_role] - 2
            body.append(f"<line x1='{x1:g}' y1='{y1:g}' x2='{x2:g}' y2='{y2:g}' stroke='{colour}' "
                        "stroke-width='1.5' marker-end='url(#rummy-arrow)'/>")
    body.append("<text x='6' y='206' font-size='11' font-family='sans-serif'>The box plays alone; "
                "the captain plays against the box; the advisor sits out and may advise (G-2).</text>")
    body.append("<text x='6' y='222' font-size='11' font-family='sans-serif'>After a hand the "
                "roles move as the arrows show (G-11).</text>")
    title = (f"Gin for three: {box} is in the box, {captain} is captain, {advisor} advises. If the "
             f"box wins, {box} stays and {captain} and {advisor} swap; if the box loses, {box} sits "
             f"out, {captain} goes into the box and {advisor} becomes captain (G-11).")
    return _svg(w_, 230, "".join(body), title, "rummy-gin-roles")
