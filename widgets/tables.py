"""Game tables: a learner against AI players, one table per game family
(Three Thirteen, the Big Table, Gin), each built on :class:`GameTable`
(:mod:`widgets.game_table`, what every table shares), and :func:`play`, the
right table for a variant.

Each table is built once and then updated from ``state.observe(learner)``
only.  It holds no game rule: the buttons it enables are the moves in
``obs.legal_actions``, every move goes through ``state.apply`` (whose
errors are shown as messages), and every score comes from the engine.

>>> t = ThreeThirteenTable(players=2, seed=5, speed=0)
>>> "rummy-table-ready" in t.widget._dom_classes
True
>>> t.stock.button.click()                      # draw from the stock
>>> len(t.hand.cards)
4
>>> t.stock.button.click()                      # an illegal click: a message, no traceback
>>> "already drawn" in t.message.value
True
"""

from __future__ import annotations

import asyncio
import math
import re
from collections.abc import Sequence
from typing import Any

import ipywidgets as w

from rummy import render
from rummy.action import Action
from rummy.cards import Card
from rummy.errors import GameError
from rummy.melds import Arrangement, Meld
from rummy.variants import Variant, find_variant
from widgets.cards import PileView
from widgets.game_table import GameTable, display_name
from widgets.view import (
    as_you,
    button,
    cards_html,
    esc,
    face,
    html_box,
    left_over,
    move_words,
    safe,
    shared,
    to_learner,
    told,
)

__all__ = ["ThreeThirteenTable", "BigTableTable", "GinTable", "GameTable", "play", "TABLES"]


def _ended(obs: Any, header: str) -> list[str]:
    """The log lines of the round or hand that just ended: from the last line
    starting with ``header`` ("Round 3 of") on."""
    lines = list(obs.log)
    starts = [i for i, line in enumerate(lines) if line.startswith(header)]
    return lines[starts[-1]:] if starts else lines


def _did(lines: Sequence[str], name: str, verbs: Sequence[str]) -> bool:
    """Does a line say that ``name`` did one of ``verbs`` ("goes out", "go out")?"""
    pattern = re.compile(rf"^{re.escape(name)} (?:{'|'.join(map(re.escape, verbs))})\b",
                         re.IGNORECASE)
    return any(pattern.search(line) for line in lines)


def _tag(text: str) -> str:
    return f" <span class='rummy-out-tag'>{esc(text)}</span>"



_POSITIONS = {1: ("top",), 2: ("left", "right"), 3: ("left", "top", "right")}


# ---------------------------------------------------------------------------
# Three-Thirteen family


def _set(box: w.HTML, value: str) -> None:
    """Change a widget's HTML only when it differs (each change is a message to the page)."""
    if box.value != value:
        box.value = value


class _SeatView:
    """What every other player's seat shows: a line with the name and how many
    cards they hold, and those cards face down."""

    widget: w.VBox

    def __init__(self) -> None:
        self.name = w.HTML(style=shared("html"))
        self.cards = w.HTML(style=shared("html"))

    def _draw(self, name_line: str, count: int, current: bool) -> None:
        _set(self.name, name_line)
        _set(self.cards, f"<div aria-hidden='true'>{render.back_svg(count, size='small')}</div>")
        if current:
            self.widget.add_class("rummy-current")
        else:
            self.widget.remove_class("rummy-current")


class _Opponent(_SeatView):
    """One other player's seat: name, face-down cards (a count), last action,
    any melds laid down."""

    def __init__(self, seat: int | None, position: str | None) -> None:
        super().__init__()
        self.seat = seat
        self.position = position
        self.last = html_box("rummy-last-action")
        self.melds = w.HTML(style=shared("html"))
        self.widget = w.VBox([self.name, self.cards, self.last, self.melds])
        self.widget.add_class("rummy-opponent")
        if seat is not None:
            self.widget.add_class(f"rummy-seat-{seat}")
        if position:
            self.widget.add_class(f"rummy-seat-{position}")

    def update(self, *, name: str, count: int, last: str, current: bool, note: str = "",
               melds_svg: str = "") -> None:
        where = f" ({self.position})" if self.position else ""
        self._draw(f"<b>{esc(name)}</b>{esc(where)} {esc(note)} <span class='rummy-count'>"
                   f"{count} card{'s' if count != 1 else ''}</span>", count, current)
        _set(self.last, f"<small>{cards_html(last)}</small>")
        _set(self.melds, melds_svg)


class ThreeThirteenTable(GameTable):
    """The Three-Thirteen family table: ``three_thirteen``, ``tre_tretton``
    and ``three_thirteen_jokers`` (you against AI players seated left, top
    and right).

    Tap the stock or the discard pile to draw; tap a card to choose it (tap
    it again to let it go), then tap the discard pile (or press Discard) to
    throw it; "Go out" asks for a
    confirmation.  At the end of each round a review shows every player's
    best arrangement next to what you kept.
    """

    family_css = "rummy-three-thirteen"

    def __init__(self, variant: str | Variant = "three_thirteen", *, players: int |
                 Sequence[str] = 4, **kw: Any) -> None:
        v = find_variant(variant)
        if v.family != "three_thirteen":
            raise GameError(f"ThreeThirteenTable plays the Three-Thirteen family "
                            f"(three_thirteen, tre_tretton, three_thirteen_jokers), not {v.name}")
        super().__init__(v, players=players, **kw)

    def _build(self) -> None:
        self.stock = PileView("rummy-stock", "stock",
                              on_click=lambda: self.play_move(Action("draw stock")))
        self.pile = PileView("rummy-discard-pile", "discard pile", on_click=self._pile_clicked)
        self.go_out = button("Go out", "rummy-go-out", style="success",
                             tooltip="Lay down your melds and discard your last card")
        self.go_out.on_click(lambda _b: self._go_out_clicked())
        self.opponents: list[_Opponent] = []
        self.top_row = w.HBox(layout=w.Layout(flex_flow="row wrap",
                                              justify_content="center"))
        self.left_slot = w.Box()
        self.right_slot = w.Box()
        centre = w.HBox([self.stock.widget, self.pile.widget, self.last_move],
                        layout=w.Layout(justify_content="center"))
        centre.add_class("rummy-centre")
        self.middle = w.HBox([self.left_slot, centre, self.right_slot],
                             layout=w.Layout(flex_flow="row wrap",
                                             justify_content="space-between",
                                             align_items="center"))
        self.middle.add_class("rummy-middle")
        self.top_row.add_class("rummy-top-row")
        actions = w.HBox([self.discard_button, self.go_out],
                         layout=w.Layout(flex_flow="row wrap"))
        self._assemble([self.top_row, self.middle], actions)

    def _start_hooks(self) -> None:
        n = len(self.state.players)
        others = [(self.learner + k) % n for k in range(1, n)]
        positions = _POSITIONS.get(len(others), ())
        self.opponents = [_Opponent(s, positions[i] if i < len(positions) else None)
                          for i, s in enumerate(others)]
        if len(others) == 3:
            self.left_slot.children = (self.opponents[0].widget,)
            self.top_row.children = (self.opponents[1].widget,)
            self.right_slot.children = (self.opponents[2].widget,)
        elif len(others) == 2:
            self.left_slot.children = (self.opponents[0].widget,)
            self.top_row.children = ()
            self.right_slot.children = (self.opponents[1].widget,)
        else:
            self.left_slot.children = ()
            self.right_slot.children = ()
            self.top_row.children = tuple(o.widget for o in self.opponents)

    def _end_words(self, obs: Any, number: int) -> str:
        names = [display_name(n) for n in obs.players]
        ended = _ended(obs, f"Round {number} of")
        out = [names[s] for s, n in enumerate(obs.players) if _did(ended, n, ("goes out", "go out"))]
        points = obs.round_scores[number - 1]
        return told(f"Round {number} is over: {' and '.join(out) or 'nobody'} went out. "
                    "Points this round, lowest wins: "
                    + ", ".join(f"{names[s]} {p}" for s, p in enumerate(points)) + ".")

    def _show_review(self, obs: Any, round_no: int) -> None:
        """The end-of-round review: each player's hand as the engine scored
        it (its best arrangement, laid open for everyone at the end of the
        round), yours marked as what you kept."""
        rules = self.variant.meld_rules(round_no, **self.options)
        points = obs.round_scores[round_no - 1]
        four = self.four_colour.value
        scored = {seat: arr for seat, arr, _pts in obs.last_round}  # laid open (TT-8)
        ended = _ended(obs, f"Round {round_no} of")
        parts = [f"<h{self._sub}>Review of round {round_no}</h{self._sub}>"]
        for seat, name in enumerate(obs.players):
            disp = display_name(name)
            pts = points[seat]
            mine = seat == self.learner
            who = f"{disp} (what you kept)" if mine else disp
            out = _did(ended, name, ("goes out", "go out"))
            arr = scored.get(seat)
            why = left_over(pts, len(arr.deadwood) if arr is not None else 0)
            parts.append(f"<div class='rummy-review-seat{' rummy-went-out' if out else ''}'>"
                         f"<b>{esc(who)}</b>{_tag('went out') if out else ''}: {esc(why)}")
            if arr is not None and arr.cards:
                parts.append("<br>" + render.arrangement_svg(arr, size="small", wild=rules,
                                                             four_colour=four, plain=True,
                                                             caption=why))
            parts.append("</div>")
        self.review.value = "".join(parts)
        self.review_box.layout.display = ""
        self.next_round.layout.display = "none" if obs.is_over else ""

    def _covered(self, action: Action) -> bool:
        return action.verb in ("draw stock", "draw discard", "discard", "go out")

    def _render(self, obs: Any) -> None:
        size = self._size()
        four = self.four_colour.value
        names = [display_name(n) for n in obs.players]
        self.wild.value = (f"<b>Round {obs.round} of {obs.rounds}</b>: "
                           f"{esc(obs.rules.wild_words(bool(obs.jokers)))}. "
                           f"<small>{esc(names[obs.dealer])} dealt "
                           f"{obs.hand_size} cards each.</small>")
        legal = {str(a) for a in obs.legal_actions}
        self.stock.update(count=obs.stock_size, size=size,
                          enabled="draw stock" in legal and not self._paused,
                          caption=f"stock ({obs.stock_size})")
        throw = any(a.verb == "discard" for a in obs.legal_actions)
        self.pile.update(top=obs.discard_top, count=obs.pile_size, size=size,
                         four_colour=four,
                         enabled=("draw discard" in legal or throw) and not self._paused,
                         caption=f"discard pile ({obs.pile_size})")
        mine = bool(obs.legal_actions) and not self._paused
        self.hand.update(obs.hand, rules=obs.rules, enabled=True, highlight=obs.drawn)
        self.discard_button.disabled = not (mine and any(a.verb == "discard"
                                                         for a in obs.legal_actions))
        self.go_out.disabled = not (mine and any(a.verb == "go out" for a in obs.legal_actions))
        last: dict[int, str] = {}
        for ev in obs.events:
            if ev.seat is None:
                continue
            c = face(ev.card) if ev.card is not None else ""
            last[ev.seat] = {"draw": "drew from the stock", "take": f"took {c}",
                             "discard": f"discarded {c}",
                             "out": f"went out, discarding {c}"}.get(ev.kind, ev.kind)
        shown = dict(obs.shown)
        for o in self.opponents:
            s = o.seat
            assert s is not None
            note = "(dealer)" if s == obs.dealer else ""
            melds_svg = "".join(render.meld_svg(m, size="small", four_colour=four)
                                for m in shown.get(s, ()))
            o.update(name=names[s], count=obs.hand_sizes[s], last=last.get(s, "waiting"),
                     current=obs.current_player == s, note=note, melds_svg=melds_svg)
        # the status line, in words
        if obs.is_over:
            text = "The game is over."
        elif self._paused:
            text = self.end_status("Next round")
        elif obs.legal_actions:
            if obs.phase == "draw":
                text = "Your turn: draw from the stock or take the top of the discard pile."
            else:
                drawn = f" You drew {face(obs.drawn)}." if obs.drawn is not None else ""
                text = "Your turn: discard a card" + (
                    ", or go out." if not self.go_out.disabled else ".") + drawn
        else:
            cur = obs.current_player
            text = f"{names[cur]} is playing…" if cur is not None else ""
        if obs.went_out is not None and not obs.is_over:
            text += f" {names[obs.went_out]} went out: everyone else has one last turn."
        self.status_text = text

    @safe
    def _pile_clicked(self) -> None:
        """Draw from the discard pile, or, once you have drawn, throw the chosen card on it."""
        if self._legal("discard") and not self._legal("draw discard"):
            self._throw()
        else:
            self.act(Action("draw discard"))

    @safe
    def _go_out_clicked(self) -> None:
        outs = self._legal("go out")
        if not outs:
            # let the engine say why this hand can't go out now
            card = self.hand.selected
            self.act(Action("go out", card) if card is not None else Action("go out"))
            return
        card = self.hand.selected
        chosen = [a for a in outs if a.card == card] if card is not None else []
        if not chosen:
            if len(outs) == 1:
                chosen = outs
            else:
                options = ", ".join(face(a.card) for a in outs if a.card is not None)
                self.show_notice(f"Select the card to discard as you go out: {options}.")
                return
        a = chosen[0]
        assert a.card is not None
        self.ask_confirm(f"Go out, discarding {face(a.card)} ({a.card.name})?", a)


# ---------------------------------------------------------------------------


# ---------------------------------------------------------------------------
# Big Table


class _BigTableSeat(_SeatView):
    """A seat at the Big Table: name, cards held (a count), the top of the
    seat's own pile, whether it has chosen, whether it matched."""

    def __init__(self, seat: int) -> None:
        super().__init__()
        self.seat = seat
        self.pile = w.HTML(style=shared("html"))
        self.widget = w.VBox([self.name, w.HBox([self.cards, self.pile])])
        self.widget.add_class("rummy-opponent")
        self.widget.add_class(f"rummy-seat-{seat}")

    def update(self, *, name: str, count: int, top: Card | None, note: str, four: bool,
               current: bool) -> None:
        self._draw(f"<b>{esc(name)}</b> <span class='rummy-count'>{count} card"
                   f"{'s' if count != 1 else ''}</span> <small>{esc(note)}</small>", count, current)
        # the pile's top card, named for screen readers; its caption drawn in white
        _set(self.pile, f"<div class='rummy-seat-pile'>"
                        f"{render.card_svg(top, size='small', four_colour=four)}"
                        f"<small>pile</small></div>" if top is not None
             else "<small>empty pile</small>")


#: What the caller is saying in each of the engine's phases (words only).
_CALLER = {
    "match call after deal": "Caller: anyone whose hand is complete may call match now!",
    "draw": "Caller: draw!",
    "choose discard": "Caller: choose your discards… (discard! comes when all have chosen)",
    "match calls": "Caller: discard! … any match?",
    "final cycle: draw": "Caller: one more cycle for everyone else: draw!",
    "final cycle: choose discard": "Caller: last discards… (discard! when all have chosen)",
    "over": "Caller: that's the game.",
}


class BigTableTable(GameTable):
    """The Big Table (``big_table``): up to 12 seats, everyone acting at once
    on the caller's "draw!" and "discard!".

    Take the pool's top card or the top of your right-hand neighbour's pile;
    choose a discard face down; when your whole hand is melded press
    **Match!** before the window closes (``match_window`` seconds in a live
    notebook; :meth:`miss_match` is what the timer calls).
    """

    family_css = "rummy-big-table"
    title = "Big Table"

    def __init__(self, players: int | Sequence[str] = 6, *, match_window: float = 4.0,
                 **kw: Any) -> None:
        self.match_window = match_window
        self._match_timer: asyncio.Task[Any] | None = None
        super().__init__("big_table", players=players, **kw)

    @classmethod
    def for_variant(cls, variant: Variant, **kw: Any) -> GameTable:
        kw.pop("variant", None)
        return cls(**kw)

    def _build(self) -> None:
        self.caller = html_box("rummy-caller")
        self.pool = PileView("rummy-pool", "pool",
                             on_click=lambda: self.play_move(Action("draw pool")))
        self.neighbour_pile = PileView("rummy-neighbour-pile", "right neighbour's pile",
                                       on_click=self._take_neighbour)
        self.own_pile = PileView("rummy-own-pile", "your pile", on_click=self._own_pile_clicked)
        self.match = button("Match!", "rummy-match", style="danger",
                            tooltip="Call match: your whole hand is melded")
        self.play_on = button("Play on", "rummy-play-on",
                              tooltip="Don't call match now; play goes on")
        self.match.on_click(lambda _b: self.play_move(Action("call match")))
        self.play_on.on_click(lambda _b: self.play_move(Action("play on")))
        self.seat_views: list[_BigTableSeat] = []
        self.ring = w.Box(layout=w.Layout(flex_flow="row wrap", justify_content="center"))
        self.next_round.description = "Next hand"
        centre = w.HBox([self.neighbour_pile.widget, self.pool.widget, self.own_pile.widget,
                         self.last_move],
                        layout=w.Layout(flex_flow="row wrap", justify_content="center"))
        centre.add_class("rummy-centre")
        self.ring.add_class("rummy-ring")
        self.countdown = html_box("rummy-countdown")
        self.countdown.layout.display = "none"
        actions = w.HBox([self.discard_button, self.match, self.play_on, self.countdown],
                         layout=w.Layout(flex_flow="row wrap", align_items="center"))
        self._assemble([self.caller, self.ring, centre], actions)

    def _start_hooks(self) -> None:
        n = len(self.state.players)
        self.seat_views = [_BigTableSeat(s) for s in range(n) if s != self.learner]
        self.ring.children = tuple(v.widget for v in self.seat_views)

    def _moved(self, obs: Any) -> None:
        self._arm_match_timer(obs)

    def _end_words(self, obs: Any, number: int) -> str:
        names = [display_name(n) for n in obs.players]
        ended = _ended(obs, f"Hand {number} of")
        matched = [names[s] for s, _arr, _pts in obs.last_hand
                   if _did(ended, obs.players[s], ("calls match", "call match"))]
        points = {s: p for s, _arr, p in obs.last_hand}
        return told(f"Hand {number} is over: {' and '.join(matched) or 'nobody'} called match. "
                    "Points this hand, lowest wins: "
                    + ", ".join(f"{names[s]} {points[s]}" for s in sorted(points)) + ".")

    def _show_review(self, obs: Any, number: int) -> None:
        names = [display_name(n) for n in obs.players]
        four = self.four_colour.value
        # the wild rank of the hand that ended, not of the one just dealt (BT-1, TT-2)
        rules = self.variant.meld_rules(number, **self.options)
        parts = [f"<h{self._sub}>Review of hand {number}</h{self._sub}>",
                 f"<p>{esc(rules.wild_words()).capitalize()} in hand {number}.</p>"]
        ended = _ended(obs, f"Hand {number} of")
        for seat, arr, pts in obs.last_hand:
            who = f"{names[seat]} (what you kept)" if seat == self.learner else names[seat]
            matched = _did(ended, obs.players[seat], ("calls match", "call match"))
            why = left_over(pts, len(arr.deadwood))
            parts.append(f"<div class='rummy-review-seat{' rummy-went-out' if matched else ''}'>"
                         f"<b>{esc(who)}</b>{_tag('matched') if matched else ''}: {esc(why)}<br>"
                         + render.arrangement_svg(arr, size="small", wild=rules,
                                                  four_colour=four, plain=True, caption=why)
                         + "</div>")
        self.review.value = "".join(parts)
        self.review_box.layout.display = ""
        self.next_round.layout.display = "none" if obs.is_over else ""

    def _covered(self, action: Action) -> bool:
        return action.verb in ("draw pool", "draw pile", "discard", "call match", "play on")

    @safe
    def _own_pile_clicked(self) -> None:
        """Your discard goes onto your own pile: a tap there throws the chosen
        card; at the draw the engine says why you can't take from it (BT-3)."""
        if self._legal("discard"):
            self._throw()
        else:
            self.act(Action("draw own pile"))

    @safe
    def _take_neighbour(self) -> None:
        takes = self._legal("draw pile")
        self.act(takes[0] if takes else Action("draw pile"))

    # -- the match window -----------------------------------------------------
    def _arm_match_timer(self, obs: Any) -> None:
        """In a live notebook, give the learner ``match_window`` seconds to
        press Match! (BT-5: a match counts only when called in time)."""
        if not any(a.verb == "call match" for a in obs.legal_actions):
            return
        if self._match_timer is not None and not self._match_timer.done():
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return  # headless: the window stays open until Match!, Play on or miss_match()
        if self.match_window > 0:
            self._match_timer = loop.create_task(self._match_countdown(self._generation))

    async def _match_countdown(self, generation: int) -> None:
        """The caller's count for the Match! window, shown second by second
        beside the button; when it runs out the learner plays on."""
        left = float(self.match_window)
        try:
            while left > 0:
                if generation != self._generation or not self._legal("call match"):
                    return
                secs = math.ceil(left)
                self.countdown.value = (f"<span class='rummy-countdown-secs'>{secs}</span> "
                                        f"second{'s' if secs != 1 else ''} left to call match")
                self.countdown.layout.display = ""
                step = min(1.0, left)
                await asyncio.sleep(step)
                left -= step
        finally:
            self.countdown.layout.display = "none"
        if generation == self._generation:
            self.miss_match()

    @safe
    def miss_match(self) -> None:
        """The match window closed before the learner pressed Match!: the
        learner plays on (what the live timer does)."""
        if not self._legal("call match"):
            return
        self.act(Action("play on"))
        self.show_notice("Too late: the match was not called in time, so play goes on.")

    def refresh(self) -> None:
        super().refresh()
        if self._obs is not None:
            self._arm_match_timer(self._obs)

    def _render(self, obs: Any) -> None:
        size = self._size()
        four = self.four_colour.value
        names = [display_name(n) for n in obs.players]
        phase = obs.phase
        calls = [line for line in obs.log if line.startswith("Caller:")]
        call = _CALLER.get(phase, self._you(calls[-1]) if calls else "Caller: ready.")
        self.caller.value = (f"<b>{esc(call)}</b> "
                             f"<small>({esc(phase)}; cycle {obs.cycle})</small>")
        self.wild.value = (f"<b>Hand {obs.hand_number} of {self.variant.rounds}</b>: "
                           f"{obs.hand_size} cards each; "
                           f"{esc(obs.rules.wild_words())}.")
        legal = obs.legal_actions
        verbs = {a.verb for a in legal}
        live = not self._paused
        self.pool.update(count=obs.pool_size, size=size, enabled=live and "draw pool" in verbs,
                         caption=f"pool ({obs.pool_size})")
        right_pile = obs.piles[obs.right]
        self.neighbour_pile.update(
            top=right_pile[-1] if right_pile else None, count=len(right_pile), size=size,
            four_colour=four, enabled=live and "draw pile" in verbs,
            caption=f"{names[obs.right]}'s pile (right)")
        own = obs.piles[obs.player]
        self.own_pile.update(top=own[-1] if own else None, count=len(own), size=size,
                             four_colour=four, enabled=live,
                             caption=f"your pile ({names[obs.left]} takes from it)")
        self.hand.update(obs.hand, rules=obs.rules, enabled=True)
        self.discard_button.disabled = not (live and "discard" in verbs)
        can_match = live and "call match" in verbs
        self.match.disabled = not can_match
        self.play_on.disabled = not (live and "play on" in verbs)
        if can_match:
            self.match.add_class("rummy-match-open")
        else:
            self.match.remove_class("rummy-match-open")
        waiting = set(obs.waiting)
        for v in self.seat_views:
            s = v.seat
            pile = obs.piles[s]
            notes = []
            if s == obs.right:
                notes.append("right: you take from this pile")
            if s == obs.left:
                notes.append("left: takes from your pile")
            if s in obs.matched:
                notes.append("matched")
            elif s in waiting:
                notes.append("choosing…")
            v.update(name=names[s], count=obs.hand_counts[s], top=pile[-1] if pile else None,
                     note="; ".join(notes), four=four, current=s in waiting)
        if obs.is_over:
            text = "The game is over."
        elif self._paused:
            text = self.end_status("Next hand")
        elif can_match:
            text = ("Your whole hand is melded: press Match! now"
                    + (f" (you have {self.match_window:g} seconds)." if self.match_window
                       else "."))
        elif "discard" in verbs:
            text = "Choose your discard (face down until the caller calls discard!)."
        elif verbs & {"draw pool", "draw pile"}:
            text = "Draw: the pool's top card or the top of your right neighbour's pile."
        elif obs.choice is not None:
            text = f"You chose to {obs.choice}. Waiting for the others."
        else:
            text = "Waiting for the others."
        self.status_text = text


# ---------------------------------------------------------------------------
# Gin Rummy for three


class GinTable(GameTable):
    """Gin Rummy for three (``gin_three``): box, captain and advisor, with
    the roles rotating after every hand (G-11).

    As box or captain you play: the upcard offer (take it or pass), draw,
    discard, knock or gin (each with a confirmation), and lay off onto the
    knocker's melds.  As captain you can ask the advisor (an expert bot)
    for advice.  As advisor you sit out, see the captain's hand and may
    suggest a move (tick "Pause to advise" to stop before each of the
    captain's decisions).
    """

    family_css = "rummy-gin"

    def __init__(self, **kw: Any) -> None:
        kw.setdefault("players", 3)
        super().__init__("gin_three", **kw)

    @classmethod
    def for_variant(cls, variant: Variant, **kw: Any) -> GameTable:
        return cls(**kw)

    def _build(self) -> None:
        self.roles = html_box("rummy-roles")
        self.opponent = _Opponent(None, None)  # whoever plays against you this hand
        self.stock = PileView("rummy-stock", "stock",
                              on_click=lambda: self.play_move(Action("draw stock")))
        self.pile = PileView("rummy-discard-pile", "discard pile",
                             on_click=self._pile_clicked)
        self.pile.button.add_class("rummy-upcard")
        self.take_upcard = button("Take the upcard", "rummy-take-upcard", style="primary")
        self.decline_upcard = button("Pass", "rummy-decline-upcard",
                                     tooltip="Decline the upcard")
        self.take_upcard.on_click(lambda _b: self.play_move(Action("take upcard")))
        self.decline_upcard.on_click(lambda _b: self.play_move(Action("pass")))
        self.knock = button("Knock", "rummy-knock", style="warning",
                            tooltip="Discard the selected card and lay down your melds")
        self.gin = button("Gin!", "rummy-gin", style="success",
                          tooltip="Discard the selected card with every other card melded")
        self.knock.on_click(lambda _b: self._knock_clicked("knock"))
        self.gin.on_click(lambda _b: self._knock_clicked("gin"))
        self.knock_view = html_box("rummy-knock-view")
        # G-8a: a knocker may lay out any arrangement within the limit; the
        # first choice lets the engine pick the best after the defender's lay-offs
        self.layouts = w.Dropdown(options=[], description="Lay out",
                                  layout=w.Layout(display="none", width="auto"))
        self.layouts.add_class("rummy-knock-layouts")
        self.layouts.observe(self._layout_chosen, names="value")
        self.layoffs = w.Box(layout=w.Layout(flex_flow="row wrap"))
        self.layoffs.add_class("rummy-layoffs")
        self._layoff_buttons: list[w.Button] = []
        self.lay_out = button("Done", "rummy-lay-out", style="primary",
                              tooltip="Done laying off: stop and let the hand be scored")
        self.lay_out.on_click(lambda _b: self.play_move(Action("lay out")))
        self.ask_advisor = button("Ask the advisor", "rummy-advisor",
                                  tooltip="What does your advisor suggest?")
        self.ask_advisor.on_click(lambda _b: self._ask_advisor())
        self.advice = html_box("rummy-advice")
        self.advise_pause = w.Checkbox(value=False, description="Pause to advise the captain",
                                       indent=False)
        self.advise_pause.add_class("rummy-advise-pause")
        self.advise_input = w.Text(placeholder="your advice, e.g. draw discard or discard 9c",
                                   description="Advice")
        self.advise_input.add_class("rummy-advise-input")
        self.advise_button = button("Advise", "rummy-advise")
        self.advise_button.on_click(lambda _b: self._advise())
        self.continue_button = button("Let the captain play", "rummy-continue")
        self.continue_button.on_click(lambda _b: self._continue())
        self.advisor_box = w.HBox([self.advise_pause, self.advise_input, self.advise_button,
                                   self.continue_button],
                                  layout=w.Layout(flex_flow="row wrap", display="none"))
        self._hold = False
        self._advice_key: Any = None
        self.next_round.description = "Next hand"
        self.hand_label = w.HTML(style=shared("html"))
        centre = w.HBox([self.stock.widget, self.pile.widget],
                        layout=w.Layout(justify_content="center"))
        centre.add_class("rummy-centre")
        opposite = w.HBox([self.opponent.widget], layout=w.Layout(justify_content="center"))
        opposite.add_class("rummy-top-row")
        actions = w.HBox([self.take_upcard, self.decline_upcard, self.discard_button,
                          self.knock, self.gin, self.ask_advisor],
                         layout=w.Layout(flex_flow="row wrap"))
        self.play_buttons = actions  # hidden while the learner sits out as advisor
        self.advice.add_class("rummy-advice-panel")
        self._assemble([opposite, centre, self.last_move, self.knock_view, self.layoffs], actions,
                       top=[self.roles], above_hand=[self.hand_label],
                       below_hand=[self.layouts, self.advice, self.advisor_box])

    def _start_hooks(self) -> None:
        self._rules = self.variant.meld_rules(**self.options)

    def _refresh_seen(self) -> None:
        super()._refresh_seen()
        self._hold = self._wants_hold()

    def _wants_hold(self) -> bool:
        """Stop before the captain's decision while the learner advises: when
        "Pause to advise" is ticked, and always at speed 0 (else the whole
        hand would be played before the advisor sees it)."""
        obs = self.observation()
        pause = self.advise_pause.value or self.speed.value <= 0
        return (pause and obs.role == "advisor" and not obs.is_over
                and obs.current_player == obs.captain)

    def _moved(self, obs: Any) -> None:
        self._hold = self._wants_hold()

    def _bots_to_act(self) -> list[int]:
        if self._hold:
            return []  # the learner (advisor) is thinking about advice
        return super()._bots_to_act()

    def _end_words(self, obs: Any, number: int) -> str:
        res = obs.last_result
        if res is None or res.kind == "draw" or not res.sentences:
            return f"Hand {number} is over: nobody knocked, so nobody scores."
        # the result's last sentence scores the hand ("Ana knocked with 6 against 14 ...")
        return told(f"Hand {number} is over: " + as_you(res.sentences[-1],
                                                         display_name(self.learner_name)))

    def _show_review(self, obs: Any, number: int) -> None:
        res = obs.last_result
        if res is None:
            return
        names = [display_name(n) for n in obs.players]
        four = self.four_colour.value
        parts = [f"<h{self._sub}>Review of hand {res.number}</h{self._sub}>",
                 f"<p>{cards_html(self._you(res.explain()))}</p>"]
        for who, melds, dead, pts in (
            (res.knocker, res.knocker_melds, res.knocker_deadwood, res.knocker_points),
            (res.defender, res.defender_melds, res.defender_deadwood, res.defender_points),
        ):
            if who is None:
                continue
            label = names[who] + (" (what you kept)" if who == self.learner else "")
            arr = Arrangement(tuple(melds), tuple(dead), pts)
            went = (_tag("went gin" if "gin" in str(res.kind).lower() else "knocked")
                    if who == res.knocker else "")
            css = " rummy-went-out" if went else ""
            left = f"{pts} point{'s' if pts != 1 else ''} in {len(dead)} card" \
                   f"{'s' if len(dead) != 1 else ''} left over"
            parts.append(f"<div class='rummy-review-seat{css}'><b>{esc(label)}</b>{went}: "
                         f"{esc(left)}<br>"
                         + render.arrangement_svg(arr, size="small", four_colour=four,
                                                  plain=True, caption=left)
                         + "</div>")
        if res.layoffs:
            laid = ", ".join(f"{face(c)} onto {' '.join(face(m) for m in meld)}"
                             for c, meld in res.layoffs)
            parts.append(f"<p>Laid off: {esc(laid)}</p>")
        self.review.value = "".join(parts)
        self.review_box.layout.display = ""
        self.next_round.layout.display = "none" if obs.is_over else ""

    def _covered(self, action: Action) -> bool:
        return action.verb in ("take upcard", "pass", "draw stock", "draw discard", "discard",
                               "knock", "gin", "lay off", "lay out")

    def resume(self) -> None:
        self._hold = False
        super().resume()
        self._hold = self._wants_hold()

    def undo(self) -> None:
        held, self._hold = self._hold, False
        try:
            super().undo()
        except Exception:
            self._hold = held  # nothing was taken back: still waiting for the advice
            raise

    @safe
    def _pile_clicked(self) -> None:
        obs = self._obs or self.observation()
        if obs.phase == "upcard":
            self.act(Action("take upcard"))
        elif self._legal("discard") and not self._legal("draw discard"):
            self._throw()
        else:
            self.act(Action("draw discard"))

    @safe
    def _knock_clicked(self, verb: str) -> None:
        moves = self._legal(verb)
        card = self.hand.selected
        chosen = [a for a in moves if a.card == card] if card is not None else []
        if not chosen and len(moves) == 1:
            chosen = moves
        if not chosen:
            if not moves:
                # let the engine say why not
                self.act(Action(verb, card) if card is not None else Action(verb))
                return
            options = ", ".join(face(a.card) for a in moves if a.card is not None)
            self.show_notice(f"Select the card to discard as you {verb}: {options}.")
            return
        a = chosen[0]
        assert a.card is not None
        what = "Go gin" if verb == "gin" else "Knock"
        self.ask_confirm(f"{what}, discarding {face(a.card)} ({a.card.name})?", a)
        layouts = [o for o in self.observation().knock_options() if o.action.card == a.card
                   and o.action.verb == verb]
        if verb == "knock" and len(layouts) > 1:
            best = "The best for you after the defender's lay-offs (the rules pick it)"
            self.layouts.options = [(best, a)] + [(o.describe(), o.action) for o in layouts]
            self.layouts.value = a
            self.layouts.layout.display = ""
        else:
            self.layouts.layout.display = "none"

    def _layout_chosen(self, change: dict[str, Any]) -> None:
        if change["new"] is not None and self._pending is not None:
            self._pending = change["new"]

    @safe
    def _ask_advisor(self) -> None:
        advice = self.state.advice(bot="expert")
        self.advice.value = (
            f"<b>Your advisor suggests:</b> {esc(move_words(str(advice.action)))}"
            + (f" — {cards_html(to_learner(advice.reason))}" if advice.reason else "")
            + "<br><small>The advisor and the coach both estimate a stock card by trying "
              "a sample of the unseen cards, so their averages can differ by a few points; "
              "the point counts of the cards in view are exact.</small>")
        self._advice_key = self._situation()

    @safe
    def _advise(self) -> None:
        text = self.advise_input.value.strip()
        if not text:
            self.show_error("Type a move for the captain, e.g. 'draw stock' or 'discard 9c'.")
            return
        advice = self._send(lambda: self.state.advise(text, player=self.learner))
        self.show_notice(f"You advised the captain: {move_words(str(advice.action))}.")
        self.refresh()

    @safe
    def _continue(self) -> None:
        self._hold = False
        self.clear_message()
        if self._bot_step():
            self._hold = self._wants_hold()
        self.refresh()
        self.advance()

    def _render_layoffs(self, obs: Any) -> None:
        offs = [a for a in obs.legal_actions if a.verb == "lay off"]
        while len(self._layoff_buttons) < len(offs):
            b = button("", "rummy-lay-off")
            b.on_click(lambda btn: self.play_move(btn.action))
            self._layoff_buttons.append(b)
        for b, a in zip(self._layoff_buttons, offs):
            assert a.card is not None
            b.description = f"Lay off {face(a.card)} onto " + " ".join(face(c) for c in a.onto)
            b.tooltip = str(a)
            b.action = a  # type: ignore[attr-defined]
        kids = tuple(self._layoff_buttons[:len(offs)])
        can_stop = any(a.verb == "lay out" for a in obs.legal_actions)
        if can_stop or offs:  # the defender lays off: Done is always in view
            kids += (self.lay_out,)
            self.lay_out.disabled = not can_stop
            self.lay_out.tooltip = ("Done laying off: stop and let the hand be scored"
                                    if can_stop else "Done comes when no lay-off can lower "
                                    "your count: lay off first")
        if self.layoffs.children != kids:
            self.layoffs.children = kids

    def _render(self, obs: Any) -> None:
        size = self._size()
        four = self.four_colour.value
        names = [display_name(n) for n in obs.players]
        rotation = [line for line in obs.log if "(G-11)" in line]
        box, captain, advisor = (names[obs.box], names[obs.captain], names[obs.advisor])
        # the learner's seat is "you" here at a shared table too (its engine names it)
        roles = told(as_you(f"{box} (the box) plays against {captain} (the captain). "
                            f"{advisor} (the advisor) sits out and may help {captain}.",
                            display_name(self.learner_name)))
        self.roles.value = (
            f"<b>Hand {obs.hand_number}</b>: {esc(roles)} First to {obs.target} points wins."
            + (f"<br><small>{cards_html(self._you(rotation[-1]))}</small>" if rotation else ""))
        legal = obs.legal_actions
        verbs = {a.verb for a in legal}
        live = not self._paused
        other = obs.opponent if obs.role != "advisor" else obs.box
        if other is not None:
            self.opponent.update(name=names[other], count=obs.hand_sizes[other],
                                 last=obs.roles[other], current=obs.current_player == other)
        self.stock.update(count=obs.stock_size, size=size,
                          enabled=live and "draw stock" in verbs,
                          caption=f"stock ({obs.stock_size})")
        self.pile.update(top=obs.upcard, count=len(obs.discard_pile), size=size,
                         four_colour=four,
                         enabled=live and bool(verbs & {"draw discard", "take upcard",
                                                        "discard"}),
                         caption="upcard" if obs.phase == "upcard" else "discard pile")
        self.take_upcard.disabled = not (live and "take upcard" in verbs)
        self.decline_upcard.disabled = not (live and "pass" in verbs)
        self.discard_button.disabled = not (live and "discard" in verbs)
        self.knock.disabled = not (live and "knock" in verbs)
        self.gin.disabled = not (live and "gin" in verbs)
        if self.confirm_box.layout.display == "none":  # the knock was made or cancelled
            self.layouts.layout.display = "none"
        captain_to_act = obs.current_player == obs.captain and not obs.is_over
        self.ask_advisor.layout.display = "" if obs.role == "captain" else "none"
        self.ask_advisor.disabled = not (live and captain_to_act and obs.role == "captain")
        if obs.role == "advisor":
            self.hand_label.value = f"<small>{esc(names[obs.captain])}'s hand (you advise " \
                                    "the captain):</small>"
            self.hand.update(obs.partner_hand, rules=self._rules, enabled=False)
            self.advisor_box.layout.display = ""
            self.play_buttons.layout.display = "none"
            self.advise_button.disabled = not (live and captain_to_act)
            self.continue_button.disabled = not (live and self._hold)
        else:
            self.hand_label.value = "<small>Your hand:</small>"
            self.hand.update(obs.hand, rules=self._rules, enabled=True,
                             highlight=obs.just_taken)
            self.advisor_box.layout.display = "none"
            self.play_buttons.layout.display = ""
        if obs.advice is not None:
            self.advice.value = (
                f"<b>Advice for the captain:</b> {esc(move_words(str(obs.advice.action)))}"
                + (f" — {cards_html(to_learner(obs.advice.reason))}" if obs.advice.reason else ""))
        elif self._advice_key != self._situation():
            self.advice.value = ""  # advice is for one decision only
            self._advice_key = None
        k = obs.knock
        if k is not None:
            arr = Arrangement(tuple(Meld.of(m, None) for m in k.melds), tuple(k.deadwood),
                              k.deadwood_points)
            self.knock_view.value = (
                f"<b>{esc(names[k.knocker])} knocked</b> ({k.deadwood_points} points left "
                "over):<br>"
                + render.arrangement_svg(arr, size="small", four_colour=four)
                + (f"<br><small>{cards_html(self._you(obs.layoff_hint))}</small>"
                   if obs.layoff_hint else ""))
        elif self.knock_view.value:
            self.knock_view.value = ""
        self._render_layoffs(obs)
        if obs.is_over:
            text = "The game is over."
        elif self._paused:
            text = self.end_status("Next hand")
        elif obs.role == "advisor":
            text = (f"You sit out this hand and advise {names[obs.captain]}. "
                    + ("The captain waits for your advice: type it, then let the captain play."
                       if self._hold else "Watch the hand."))
        elif legal:
            knocker = names[obs.knock.knocker] if obs.knock is not None else "the other player"
            text = {
                "upcard": f"The upcard is {face(obs.upcard) if obs.upcard else '?'}: "
                          "take it or pass.",
                "draw": "Your turn: draw from the stock or take the top discard.",
                "discard": "Discard a card" + (", or knock" if "knock" in verbs else "")
                           + (", or go gin" if "gin" in verbs else "") + ".",
                "lay off": (f"Lay off cards onto {knocker}'s melds, or press Done."
                            if "lay out" in verbs else
                            f"Lay off cards onto {knocker}'s melds: Done comes when no "
                            "lay-off can lower your count."),
            }.get(obs.phase, f"Your move ({obs.phase}).")
        else:
            cur = obs.current_player
            text = f"{names[cur]} is playing…" if cur is not None else ""
        self.status_text = text


TABLES: dict[str, type[GameTable]] = {
    "three_thirteen": ThreeThirteenTable,
    "big_table": BigTableTable,
    "gin": GinTable,
}


def play(variant: str = "three_thirteen", **kw: Any) -> GameTable:
    """The right table for ``variant`` (any name or alias), ready to play.

    >>> t = play("tre_tretton", players=2, seed=1, speed=0)
    >>> type(t).__name__, t.state.variant.name
    ('ThreeThirteenTable', 'tre_tretton')
    >>> type(play("gin", seed=1, speed=0)).__name__
    'GinTable'
    """
    v = find_variant(variant)
    return TABLES[v.family].for_variant(v, **kw)
