"""The projector's picture of a shared table: the felt with every seat (its
name, how many cards it holds, its discard pile or melds and its score), the
pool or the stock in the middle, the caller's call at the Big Table in large
type, and the table's code large enough to read across a room.

It is drawn from the table's public view (what every seat sees alike, the
view a spectator token gets from the table service): a hand is never in it,
so none can be drawn.  The cards are rummy.render's SVG.

>>> view = {"code": "K7QM-X4P9-RT2H", "variant": "big_table", "status": "playing",
...         "players": ["Ana", "Ben"], "scores": [0, 5], "hand_counts": [3, 3],
...         "piles": [["Kh"], ["2c", "9d"]], "pool_size": 100, "phase": "draw",
...         "log": ["Hand 1 of 11: everyone draws 3 cards from the pool."]}
>>> page = projector_html(view)
>>> "K7QM-X4P9-RT2H" in page and "Ben" in page and "nine of diamonds" in page
True
>>> "pool: 100 cards" in page
True
>>> "Fours are wild" in projector_html({**view, "wild_rank": 4})
True
>>> page = projector_html({"code": "K7QM", "variant": "three_thirteen", "status": "playing",
...     "players": ["Ana", "Ben"], "scores": [0, 0], "hand_sizes": [3, 4], "round": 2,
...     "rounds": 11, "current_player": 1, "phase": "discard",
...     "log": ["Round 2 of 11: Ana deals.", "Ana discards Th.", "Ben draws from the stock."]})
>>> "Round 2 of 11. Ben&#x27;s turn to discard" in page, "Last move: Ben draws from the stock." in page
(True, True)
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import Any

from rummy import render
from rummy.cards import Card, rank_name
from widgets.view import cards_as_faces, plain

__all__ = ["projector_html", "PROJECTOR_CSS"]

#: The projector's look: a felt, seats as tiles around the middle, large type.
PROJECTOR_CSS = """
<style>
.rummy-projector { font-family: system-ui, sans-serif; line-height: 1.3; }
.rummy-projector-code { font-size: 3.2rem; font-weight: 800; letter-spacing: 0.08em;
  margin: 0.2em 0; line-height: 1.25; }
.rummy-projector-felt { background: #1b5e20; border-radius: 28px; padding: 18px;
  color: #fff; display: flex; flex-direction: column; gap: 14px; }
.rummy-projector-seats { display: flex; flex-wrap: wrap; gap: 12px; justify-content: center; }
.rummy-projector-seat { background: #2e7d32; border: 2px solid #a5d6a7; border-radius: 14px;
  padding: 8px 10px; min-width: 150px; }
.rummy-projector-seat.rummy-projector-current { border: 4px solid #ffeb3b; }
.rummy-projector-name { font-size: 1.4rem; font-weight: 700; }
.rummy-projector-score { font-size: 1.2rem; }
.rummy-projector-middle { display: flex; gap: 24px; align-items: center;
  justify-content: center; flex-wrap: wrap; }
.rummy-projector-call { font-size: 2.2rem; font-weight: 700; text-align: center;
  color: #fff; line-height: 1.25; }
.rummy-projector-small { font-size: 1rem; color: #e8f5e9; }
.rummy-projector-wild { font-size: 1.6rem; font-weight: 700; color: #fff; }
.rummy-projector svg { vertical-align: middle; }
.rummy-projector-turn { font-size: 2.4rem; font-weight: 800; text-align: center; }
.rummy-projector-last { font-size: 1.8rem; text-align: center; color: #fff; }
</style>
"""


def _card(text: str, size: str = "normal") -> str:
    try:
        return render.card_svg(Card.parse(text), size=size)
    except (ValueError, KeyError):
        return html.escape(text)


def _cards(texts: Sequence[str], size: str = "small", most: int = 8) -> str:
    shown = list(texts)[-most:]
    more = len(texts) - len(shown)
    return ("" if not more else f"<span class='rummy-projector-small'>+{more} </span>") + \
        "".join(_card(t, size) for t in shown)


def _seat(i: int, view: dict[str, Any]) -> str:
    """One seat's tile: name, role, card count (backs), pile or melds, score."""
    players = view.get("players") or []
    name = str(players[i]) if i < len(players) else f"Seat {i + 1}"
    counts = view.get("hand_counts") or view.get("hand_sizes") or []
    count = int(counts[i]) if i < len(counts) else 0
    scores = view.get("scores") or []
    score = scores[i] if i < len(scores) else 0
    roles = view.get("roles") or []
    role = f" ({roles[i]})" if i < len(roles) and roles[i] else ""
    parts = [f"<div class='rummy-projector-name'>{html.escape(name + role)}</div>",
             render.back_svg(count, size="small", label=name)]
    piles = view.get("piles")
    if piles and i < len(piles):  # the Big Table: each seat's own discard pile
        pile = list(piles[i])
        parts.append("<div class='rummy-projector-small'>pile "
                     + (_card(pile[-1], "small") + f" ({len(pile)})" if pile else "empty")
                     + "</div>")
    for seat, arr in view.get("open_melds") or []:
        if seat == i:
            for meld in arr.get("melds", []):
                parts.append("<div>" + _cards(meld.get("cards", []), most=13) + "</div>")
    parts.append(f"<div class='rummy-projector-score'>{html.escape(str(score))} points</div>")
    current = view.get("current_player")
    cls = "rummy-projector-seat" + (" rummy-projector-current" if current == i else "")
    return (f"<div class='{cls}' role='group' aria-label='{html.escape(name)}: {count} cards, "
            f"{html.escape(str(score))} points'>" + "".join(parts) + "</div>")


def _middle(view: dict[str, Any]) -> str:
    """The pool or the stock and the discard pile, in the middle of the felt."""
    parts = []
    if view.get("pool_size") is not None:
        n = int(view["pool_size"])
        parts.append(f"<div>{render.back_svg(n, label='pool')}"
                     f"<div class='rummy-projector-small'>pool: {n} cards</div></div>")
    if view.get("stock_size") is not None:
        n = int(view["stock_size"])
        parts.append(f"<div>{render.back_svg(n, label='stock')}"
                     f"<div class='rummy-projector-small'>stock: {n} cards</div></div>")
    top = view.get("discard_top")
    pile = view.get("discard_pile")
    if top is None and pile:
        top = pile[-1]
    if top is not None:
        parts.append(f"<div>{_card(str(top), 'large')}<div class='rummy-projector-small'>"
                     "discard pile"
                     "</div></div>")
    wild = view.get("wild_rank")
    if isinstance(wild, int) and 1 <= wild <= 13:
        parts.append("<div class='rummy-projector-wild'>"
                     f"{html.escape(rank_name(wild, plural=True)).capitalize()} are wild</div>")
    return "<div class='rummy-projector-middle'>" + "".join(parts) + "</div>"


_NOT_MOVES = ("Caller:", "Round ", "Hand ", "Piles start", "Role draw", "After round",
              "After hand")
_PHASE_WORDS = {"draw": "to draw", "discard": "to discard", "upcard": "to take the upcard or pass",
                "lay off": "to lay off"}


def _where(view: dict[str, Any]) -> str:
    """Which round or hand, whose turn (in words) and the last move, for the room."""
    players = [str(p) for p in view.get("players") or []]
    parts = []
    if view.get("round"):
        parts.append(f"Round {view['round']}" + (f" of {view['rounds']}" if view.get("rounds")
                                                 else ""))
    elif view.get("hand_number"):
        parts.append(f"Hand {view['hand_number']}")
    cur = view.get("current_player")
    if isinstance(cur, int) and 0 <= cur < len(players) and view.get("status") != "over":
        doing = _PHASE_WORDS.get(str(view.get("phase", "")), "to play")
        parts.append(f"{players[cur]}'s turn {doing}")
    elif view.get("waiting"):
        names = [players[i] for i in view["waiting"] if isinstance(i, int) and i < len(players)]
        if names:
            parts.append("Waiting for " + ", ".join(names))
    moves = [str(line) for line in view.get("log") or [] if not str(line).startswith(_NOT_MOVES)]
    last = (f"<div class='rummy-projector-last'>Last move: "
            f"{html.escape(cards_as_faces(plain(moves[-1])))}</div>") if moves else ""
    turn = ("<div class='rummy-projector-turn'>" + html.escape(". ".join(parts)) + "</div>"
            if parts else "")
    return turn + last


def projector_html(view: dict[str, Any]) -> str:
    """The projector's page for a table's public ``view`` (no hand: a
    ``hand`` field, were one given, is never read)."""
    code = html.escape(str(view.get("code", "")))
    n = len(view.get("players") or [])
    status = str(view.get("status", ""))
    call = ""
    if view.get("variant") == "big_table" or view.get("pool_size") is not None:
        log = view.get("log") or []
        if log:  # the caller's last call, for the room to read (the last move is said above)
            calls = [str(line) for line in log if str(line).startswith("Caller:")]
            said = calls[-1] if calls else str(log[-1])
            call = f"<div class='rummy-projector-call' aria-live='polite'>{html.escape(said)}</div>"
    state = {"waiting": "Waiting for learners to join", "paused": "The hand is over",
             "over": "The game is over", "closed": "The table is closed"}.get(status, "")
    seats = "".join(_seat(i, view) for i in range(n))
    return (PROJECTOR_CSS
            + "<div class='rummy-projector'>"
            f"<div class='rummy-projector-code'>Table code: "
            f"<span class='rummy-table-code'>{code}</span></div>"
            + (f"<div class='rummy-projector-call'>{html.escape(state)}</div>" if state else "")
            + "<section class='rummy-projector-felt' aria-label='The table'>"
            + (_where(view) if n else "")
            + f"<div class='rummy-projector-seats'>{seats}</div>"
            + (_middle(view) if n else "") + call
            + "</section></div>")
