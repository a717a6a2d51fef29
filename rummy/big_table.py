"""Big Table: the simultaneous, caller-paced 3-13 for 2 to 12 players (BT-1..BT-8).

Everybody plays at once.  The caller (this engine) paces each **cycle**:

1. ``"draw"``: the caller calls *draw!*; every player picks, face down,
   ``"draw pool"`` (the top of the face-down middle pool) or ``"draw pile"``
   (the top card of the discard pile of the neighbour on their **right**).
   When every choice is in, all are carried out together (BT-3).
2. ``"choose discard"``: every player picks a discard face down
   (``"discard 9c"``); when all have one, the caller calls *discard!* and
   all are turned face up together, each onto its owner's own pile, on the
   owner's **left** (BT-3).  Nobody ever takes from their own pile.
3. ``"match calls"``: only a player whose whole hand (h+2 cards) is melded
   gets the choice ``"call match"`` / ``"play on"``; the caller never calls
   for anybody (BT-4, BT-5).  If nobody has a complete hand the window is
   skipped.

A hand complete straight after the deal may call in the ``"match call after
deal"`` window, before the first draw (BT-4).  After the first match the
caller runs one more cycle for everybody else (``"final cycle: draw"``,
``"final cycle: choose discard"``), then scores the hand (BT-5, BT-6) and deals
the next one.  After hand 11 the phase is ``"over"`` and the game is over.

Seats go clockwise, to the left: the left neighbour of seat ``i`` is seat
``i + 1`` (mod n) and the right neighbour is ``i - 1``; so seat ``i`` draws
from pile ``i - 1`` and its own pile is the source of seat ``i + 1``.

Decisions this module takes where RULES.md is silent:

- Draw choices are collected face down too, then carried out together: the
  pile takes first, then the pool draws in seat order.  When the pool runs
  out during a draw, every pile but its top card is shuffled into a new pool
  and the draw goes on (BT-8).  ``start`` refuses a table whose cards cannot
  cover this: the 13-card deal of hand 11, a pile card and one more card per
  player, i.e. ``15 * players <= 52 * packs``.
- Taking the right neighbour's top card and discarding that same card is
  allowed (it passes the card on; it is not a pass as in TT-5).
- Several players may call match in the same window; each scores 0 and
  counts as matched.  Players who have matched sit out the final cycle.
- A hand in which nobody matches after 200 cycles ends and is scored with
  nobody out (TT-12).
- A match window opens only when some hand is complete, so while it is open
  everybody can tell that someone may call (as at a real table, where the
  caller pauses after *discard!*); whose hand it is stays hidden:
  ``observe`` shows ``waiting`` only in draw and discard phases.

What a player sees is :meth:`BigTableGame.observe` (a
:class:`BigTableObservation`); the state's ``hands`` and ``pool`` are the
omniscient view.  :meth:`BigTableGame.arrange` sets a chosen position for a
lesson or a test (saved with the game).

>>> from rummy.game import new_game
>>> g = new_game("big_table", players=3, seed=4)
>>> g.phase, g.to_act(), g.current_player
('draw', [0, 1, 2], None)
>>> g.apply("draw pool", player=0)
>>> g.to_act()
[1, 2]
>>> o = g.observe(1)
>>> o.phase, [a.verb for a in o.legal_actions], len(o.hand), o.right, o.left
('draw', ['draw pool', 'draw pile'], 3, 0, 2)
>>> o.legal_actions[1].card == o.right_top == g.piles[0][-1]
True
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from operator import attrgetter
from typing import Any, ClassVar

from rummy.action import Action
from rummy.cards import Card, as_cards, deck, format_cards
from rummy.engine import Engine, Observation, frozen_of, player_names
from rummy.errors import GameError
from rummy.melds import Arrangement, MeldRules
from rummy.search import all_melded, best_arrangement
from rummy.table import Stock, deal, make_shoe, reshuffle
from rummy.variants import Variant, VariantError, find_variant

__all__ = [
    "BigTableGame",
    "BigTableObservation",
    "PHASES",
    "STALL_CYCLES",
    "cards_needed",
    "options_for",
]

#: The caller's phases, in the order they come.
PHASES = (
    "match call after deal",
    "draw",
    "choose discard",
    "match calls",
    "final cycle: draw",
    "final cycle: choose discard",
    "over",
)
#: TT-12: a hand with no match after this many cycles ends with nobody out.
STALL_CYCLES = 200

#: suit-then-rank order of cards (Card.index: suit-major, aces low, joker last)
_by_order = attrgetter("index")
#: one Action value per card, made once, by Card.index
_DISCARD = [Action("discard", c) for c in sorted(set(deck(1, 1)), key=_by_order)]
_TAKE = [Action("draw pile", a.card) for a in _DISCARD]


def _ids(hand: Sequence[Card]) -> list[int]:
    """Card indexes (0..52), sorted."""
    return sorted([c.index for c in hand])

_DRAW_PHASES = ("draw", "final cycle: draw")
_DISCARD_PHASES = ("choose discard", "final cycle: choose discard")
_MATCH_PHASES = ("match call after deal", "match calls")
_CALL = Action("call match")
_PLAY_ON = Action("play on")
_POOL = Action("draw pool")


# ---------------------------------------------------------------------------
# Setup


def cards_needed(players: int, variant: Variant | str = "big_table") -> int:
    """Cards the pool must hold for ``players``: in the biggest hand each
    player holds h+2 cards, has one on their pile and may draw one more.

    >>> cards_needed(12), 4 * 52
    (180, 208)
    """
    v = find_variant(variant)
    biggest = v.hand_size(v.rounds or 1)
    return players * (biggest + 2)


def options_for(players: int) -> dict[str, int]:
    """The options a Big Table of ``players`` needs: none up to 12 (BT-1);
    beyond, the smallest ``max_players`` that allows them and the packs
    their cards need (:func:`cards_needed`), as a teacher's form asks for a
    class of 24.

    >>> options_for(12), options_for(24), options_for(13)
    ({}, {'max_players': 24, 'packs': 7}, {'max_players': 16, 'packs': 4})
    """
    v = find_variant("big_table")
    if players <= v.max_players:
        return {}
    limits = [c for c in v.option("max_players").choices if c >= players]
    if not limits:
        raise VariantError(f"big_table is for at most {max(v.option('max_players').choices)} "
                           f"players, not {players}")
    packs = max(v.packs_for(players), -(-cards_needed(players, v) // 52))
    return {"max_players": limits[0], "packs": packs}


# ---------------------------------------------------------------------------
# Observation


@dataclass(frozen=True)
class BigTableObservation(Observation):
    """What one player may see (public table plus their own cards and choice).

    ``piles[i]`` is seat i's own discard pile (bottom first, face up, public);
    ``right`` is the seat whose pile this player may take from, ``left`` the
    seat that takes from this player's pile.  ``choice`` is this player's own
    face-down draw or discard choice waiting for the caller, if any;
    ``waiting`` the seats still to choose in a draw or discard phase.
    ``taken[i]`` and ``discarded[i]`` are the cards seat i took from a pile
    and discarded this hand (public); ``open_melds`` the melds laid down by
    the players who matched this hand; ``last_hand`` the previous hand's
    revealed arrangements and points.
    """

    variant: Variant
    player: int
    players: tuple[str, ...]
    phase: str
    legal_actions: tuple[Action, ...]
    hand: tuple[Card, ...]
    scores: tuple[int, ...]
    log: tuple[str, ...]
    hand_number: int
    hand_size: int
    wild_rank: int | None
    rules: MeldRules
    cycle: int
    pool_size: int
    piles: tuple[tuple[Card, ...], ...]
    right: int
    left: int
    choice: Action | None
    waiting: tuple[int, ...]
    hand_counts: tuple[int, ...]
    matched: tuple[int, ...]
    open_melds: tuple[tuple[int, Arrangement], ...]
    final_cycle: bool
    taken: tuple[tuple[Card, ...], ...]
    discarded: tuple[tuple[Card, ...], ...]
    last_hand: tuple[tuple[int, Arrangement, int], ...]
    packs: int

    number_field: ClassVar[str] = "hand_number"

    def discards_seen(self) -> list[Card]:
        """Every seat's own pile (all face up)."""
        return [c for pile in self.piles for c in pile]

    @property
    def right_top(self) -> Card | None:
        """The card this player may take from the right neighbour's pile."""
        pile = self.piles[self.right]
        return pile[-1] if pile else None


# ---------------------------------------------------------------------------
# The game


class BigTableGame(Engine, family="big_table"):
    """The state of one Big Table game (the omniscient view: ``hands`` and
    ``pool`` are hidden information; players, bots and widgets read
    :meth:`observe`).

    >>> from rummy import new_game
    >>> g = new_game("big_table", players=["Ana", "Ben"], seed=1)
    >>> g.players, g.hand_number, len(g.hands[0]), [len(p) for p in g.piles]
    (('Ana', 'Ben'), 1, 3, [1, 1])
    >>> new_game("big_table", players=16, seed=1)
    Traceback (most recent call last):
    ...
    rummy.variants.VariantError: big_table is for 2 to 12 players, not 16; set the option max_players (one of 16, 20, 24) to allow more, with enough packs
    >>> new_game("big_table", players=16, seed=1, max_players=16)
    Traceback (most recent call last):
    ...
    rummy.variants.VariantError: big_table: 16 players need 240 cards (13 in hand, 1 on the pile and 1 more to draw, each, in hand 11) but 4 packs hold 208; use packs=5 or more
    """

    def __init__(
        self,
        variant: Variant,
        players: int | Sequence[str] | None,
        seed: int | None,
        options: dict[str, Any],
    ) -> None:
        self.options: dict[str, Any] = variant.resolve(**options)  # VariantError if bad
        limit = self.options.get("max_players", variant.max_players)
        count = players if isinstance(players, int) else (
            len(players) if isinstance(players, Sequence) and not isinstance(players, str)
            else None
        )
        if isinstance(count, int) and count > variant.max_players and count <= limit:
            widened = replace(variant, max_players=limit)
        else:
            widened = variant
        if isinstance(count, int) and count > limit:
            more = [c for c in variant.option("max_players").choices if c >= count]
            hint = (f"; set the option max_players (one of {', '.join(map(str, more))}) "
                    "to allow more, with enough packs") if more else ""
            raise VariantError(
                f"{variant.name} is for {variant.min_players} to {limit} players, "
                f"not {count}{hint}"
            )
        self.players: tuple[str, ...] = player_names(players, widened)  # VariantError if bad
        n = len(self.players)
        self.packs = variant.packs_for(n, **self.options)
        need = cards_needed(n, variant)
        if need > 52 * self.packs:
            packs_needed = -(-need // 52)
            fix = (f"use packs={packs_needed} or more" if packs_needed <= 8
                   else "fewer players")
            raise VariantError(
                f"{variant.name}: {n} players need {need} cards "
                f"({variant.hand_size(variant.rounds or 1)} in hand, 1 on the pile and 1 more "
                f"to draw, each, in hand {variant.rounds}) but {self.packs} packs hold "
                f"{52 * self.packs}; {fix}"
            )
        self.variant = variant
        self.n = n
        self.seed: int = self.draw_seed(seed)
        self.rng = random.Random(self.seed)
        self.log: list[str] = []
        self.history: list[tuple[int, Action]] = []
        self.scores: list[int] = [0] * n
        self.rows: list[list[int]] = []
        self.row_hands: list[int] = []
        self.setups: list[dict[str, Any]] = []
        self.matches: list[int] = [0] * n
        self.last_hand: tuple[tuple[int, Arrangement, int], ...] = ()
        self._full = Counter(deck(self.packs))
        self._full_ids = _ids(deck(self.packs))
        self.left_of = [(i + 1) % n for i in range(n)]
        self.right_of = [(i - 1) % n for i in range(n)]
        self._log_cache: tuple[str, ...] = ()
        self._pending_setups: list[dict[str, Any]] = []
        self._deal(1)

    row_name = "hand"
    observation = BigTableObservation

    @classmethod
    def _create(cls, variant: Variant, players: Any, seed: int | None,
                options: Any) -> BigTableGame:
        return cls(variant, players, seed, dict(options))

    @property
    def hand_number(self) -> int:
        """The hand being played (1..11); the same as :attr:`number`."""
        return self.number

    # -- the caller --------------------------------------------------------
    def _say(self, text: str) -> None:
        self.log.append(text)

    def _name(self, seat: int) -> str:
        return self.players[seat]

    def _deal(self, h: int) -> None:
        """BT-2: a fresh shuffled pool; h+2 cards each, then one on each pile."""
        v = self.variant
        self.number = h
        self.rules = v.meld_rules(h)
        self.size = v.hand_size(h)
        self.pool = Stock(make_shoe(self.packs, 0, self.rng))
        self._objects = Counter(map(id, self.pool.cards))
        n = self.n
        self.hands: list[list[Card]] = deal(self.pool, n, self.size)
        self.piles: list[list[Card]] = [[self.pool.draw()] for _ in range(n)]
        self.cycle = 0
        self.pending: dict[int, Action] = {}
        self.matched: list[int] = []
        self.open_melds: dict[int, Arrangement] = {}
        self.taken: list[list[Card]] = [[] for _ in range(n)]
        self.discarded: list[list[Card]] = [[] for _ in range(n)]
        self.final = False
        self._hand_start = len(self.history)
        self._log_start = len(self.log)
        wild_text = self.rules.wild_words()
        self._say(
            f"Hand {h} of {v.rounds}: everyone draws {self.size} cards from the pool; "
            f"{wild_text}."
        )
        self._say("Piles start: " + ", ".join(
            f"{self._name(i)} {self.piles[i][-1]}" for i in range(n)) + ".")
        self._open_match_window("match call after deal")

    def _complete(self, seat: int) -> bool:
        return all_melded(self.hands[seat], self.rules)

    def _open_match_window(self, phase: str) -> None:
        """BT-4: only players whose whole hand is melded may call match."""
        self.eligible = [i for i in range(self.n) if i not in self.open_melds and self._complete(i)]
        self.pending = {}
        if self.eligible:
            self.phase = phase
            self._acting = list(self.eligible)
            return
        self._after_match_window()

    def _after_match_window(self) -> None:
        if self.matched and len(self.open_melds) == self.n:
            self._say("Everybody has matched: the hand is scored at once.")
            self._score_hand()
        elif self.matched and not self.final:
            self._start_cycle(final=True)
        elif self.cycle >= STALL_CYCLES:
            self._say(f"No match after {STALL_CYCLES} cycles: the caller ends the hand (TT-12).")
            self._score_hand()
        else:
            self._start_cycle(final=False)

    def _start_cycle(self, final: bool) -> None:
        self.final = final
        self.cycle += 1
        if final:
            self._say("Caller: one more draw and discard for everyone else!")
        self._say("Caller: draw!")
        self.phase = "final cycle: draw" if final else "draw"
        self._acting = [i for i in range(self.n) if i not in self.open_melds]
        self.pending = {}

    def _reveal_draws(self) -> None:
        """BT-3: pile takes first, then pool draws in seat order (BT-8 when empty)."""
        pending = self.pending
        order = sorted(pending)
        for seat in order:
            if pending[seat].verb == "draw pile":
                src = self.right_of[seat]
                card = self.piles[src].pop()
                self.hands[seat].append(card)
                self.taken[seat].append(card)
                self._say(f"{self._name(seat)} takes {card} from {self._name(src)}'s pile")
        for seat in order:
            if pending[seat].verb == "draw pool":
                if not self.pool.cards:
                    moved = reshuffle(self.pool, self.piles, self.rng)
                    self._say(
                        f"The pool is empty: the caller shuffles {moved} cards from the piles "
                        "(all but their top cards) into a new pool (BT-8)."
                    )
                self.hands[seat].append(self.pool.draw())
                self._say(f"{self._name(seat)} draws from the pool")
        self._acting = list(order)
        self.pending = {}
        self.phase = "final cycle: choose discard" if self.final else "choose discard"

    def _reveal_discards(self) -> None:
        self._say("Caller: discard!")
        pending = self.pending
        for seat in sorted(pending):
            chosen = pending[seat].card
            assert chosen is not None
            hand = self.hands[seat]
            card = hand.pop(hand.index(chosen))  # the very card object from the hand
            self.piles[seat].append(card)
            self.discarded[seat].append(card)
            self._say(f"{self._name(seat)} discards {card}")
        self.pending = {}
        if self.final:
            self._score_hand()
        else:
            self._open_match_window("match calls")

    def _score_hand(self) -> None:
        """BT-6: matchers 0; anyone complete after the final cycle 0; the rest
        the penalty of their best arrangement (M-7, wilds at face value)."""
        row = []
        reveal = []
        parts = []
        for seat in range(self.n):
            if seat in self.open_melds:
                arr = self.open_melds[seat]
                pts = 0
                how = "match"
            else:
                arr = best_arrangement(self.hands[seat], self.rules)
                pts = arr.penalty
                how = "complete" if arr.is_complete else ""
            row.append(pts)
            reveal.append((seat, arr, pts))
            parts.append(f"{self._name(seat)} {pts}" + (f" ({how})" if how else ""))
        self.rows.append(row)
        self.row_hands.append(self.hand_number)
        for i, pts in enumerate(row):
            self.scores[i] += pts
        self.last_hand = tuple(reveal)
        self._say(f"Hand {self.hand_number} scores: " + ", ".join(parts) + ".")
        if self.hand_number < (self.variant.rounds or 1):
            self._deal(self.hand_number + 1)
            return
        self.phase = "over"
        self._acting = []
        self.pending = {}
        best = min(self.scores)
        winners = [self._name(i) for i, s in enumerate(self.scores) if s == best]
        if len(winners) == 1:
            self._say(f"Game over: {winners[0]} wins with {best} points.")
        else:
            self._say(
                f"Game over: {' and '.join(winners)} tie on {best} points, so nobody wins (TT-9)."
            )

    # -- the common API ----------------------------------------------------
    @property
    def current_player(self) -> int | None:
        """The one seat to act, or None while several act at once (or none)."""
        return self._acting[0] if len(self._acting) == 1 else None

    def to_act(self) -> list[int]:
        """Every seat that must still act in the current phase."""
        pending = self.pending
        return [s for s in self._acting if s not in pending]

    def legal_actions(self, player: int | str | None = None) -> list[Action]:
        """The actions ``player`` may take now (empty when they have nothing to do)."""
        seat = self._seat(player)
        if seat not in self._acting or seat in self.pending:
            return []
        phase = self.phase
        if phase in _DRAW_PHASES:
            pile = self.piles[self.right_of[seat]]
            return [_POOL, _TAKE[pile[-1].index]] if pile else [_POOL]
        if phase in _DISCARD_PHASES:
            table = _DISCARD
            return [table[i] for i in sorted({c.index for c in self.hands[seat]})]
        if phase in _MATCH_PHASES:
            return [_CALL, _PLAY_ON]
        return []

    def _legal_move(self, act: Action, seat: int, said: Action | str) -> Action:
        """BT-3, BT-4: the move to record (a draw from the pile names its
        card), or a GameError saying what is allowed."""
        name = self._name(seat)
        if seat not in self._acting:
            raise GameError(self._idle_reason(seat))
        if seat in self.pending:
            if self.phase in _MATCH_PHASES:  # who else may call stays hidden
                raise GameError(f"{name} has already chosen ({self._chosen_text(seat)}) in "
                                "this match window")
            raise GameError(
                f"{name} has already chosen ({self._chosen_text(seat)}); waiting for "
                + ", ".join(self._name(s) for s in self.to_act())
            )
        phase = self.phase
        if phase in _DRAW_PHASES:
            return self._check_draw(seat, act)
        if phase in _DISCARD_PHASES:
            if act.verb != "discard" or act.card is None or act.onto or act.melds:
                self._illegal(seat, act)
            if act.card not in self.hands[seat]:
                raise GameError(
                    f"{name} cannot discard {act.card}: it is not in their hand; allowed: "
                    + ", ".join(str(a) for a in self.legal_actions(seat))
                )
            return act
        if act not in (_CALL, _PLAY_ON):
            self._illegal(seat, act)
        return act

    def _make_move(self, act: Action, seat: int) -> None:
        """Choices wait face down; the caller reveals them when all are in."""
        self.pending[seat] = act
        phase = self.phase
        if phase in _DRAW_PHASES:
            if len(self.pending) == len(self._acting):
                self._reveal_draws()
        elif phase in _DISCARD_PHASES:
            if len(self.pending) == len(self._acting):
                self._reveal_discards()
        else:  # a match window
            if act == _CALL:
                arr = best_arrangement(self.hands[seat], self.rules)
                self.open_melds[seat] = arr
                self.matched.append(seat)
                self.matches[seat] += 1
                melds = " ".join(f"[{m}]" for m in arr.melds)
                self._say(f"{self._name(seat)} calls match: {melds}")
            if len(self.pending) == len(self._acting):
                self.pending = {}
                self._acting = []
                self._after_match_window()

    def _check_draw(self, seat: int, act: Action) -> Action:
        if act == _POOL:
            return act
        if act.verb == "draw pile" and not act.onto and not act.melds:
            src = self.right_of[seat]
            pile = self.piles[src]
            if pile and (act.card is None or act.card == pile[-1]):
                return _TAKE[pile[-1].index]
            if pile:
                raise GameError(
                    f"{self._name(src)}'s pile shows {pile[-1]}, not {act.card}; allowed: "
                    + ", ".join(str(a) for a in self.legal_actions(seat))
                )
        if act.verb in ("draw discard", "draw own pile", "take own pile"):
            raise GameError(
                f"{self._name(seat)} can never take from their own pile (BT-3); allowed: "
                + ", ".join(str(a) for a in self.legal_actions(seat))
            )
        self._illegal(seat, act)
        raise AssertionError  # unreachable

    def _illegal(self, seat: int, act: Action) -> None:
        allowed = ", ".join(str(a) for a in self.legal_actions(seat))
        raise GameError(
            f"{act} is not allowed for {self._name(seat)} now ({self.phase}); allowed: {allowed}"
        )

    def _idle_reason(self, seat: int) -> str:
        name = self._name(seat)
        waiting = ", ".join(self._name(s) for s in self.to_act()) or "nobody"
        if seat in self.open_melds:
            return f"{name} has matched and sits out the rest of this hand"
        if self.phase in _MATCH_PHASES:
            # whose hand is complete stays hidden: the refusal names nobody
            return (f"{name} has no complete hand to call match with (BT-4); only a player "
                    "whose whole hand is melded may call now")
        return f"{name} has nothing to do now ({self.phase}); waiting for {waiting}"

    def _chosen_text(self, seat: int) -> str:
        act = self.pending[seat]
        return str(act)

    # -- observation -------------------------------------------------------
    def observe(self, player: int | str) -> BigTableObservation:
        """What ``player`` may see: their own hand and face-down choice, and
        the public table.  Never another player's hand or choice."""
        seat = self._seat(player)
        if len(self._log_cache) != len(self.log):
            self._log_cache = tuple(self.log)
        pending = self.pending
        drawing_or_discarding = self.phase in _DRAW_PHASES or self.phase in _DISCARD_PHASES
        return frozen_of(BigTableObservation, {
            "variant": self.variant,
            "player": seat,
            "players": self.players,
            "phase": self.phase,
            "legal_actions": tuple(self.legal_actions(seat)),
            "hand": tuple(sorted(self.hands[seat], key=_by_order)),
            "scores": tuple(self.scores),
            "log": self._log_cache,
            "hand_number": self.hand_number,
            "hand_size": self.size,
            "wild_rank": self.rules.wild_rank,
            "rules": self.rules,
            "cycle": self.cycle,
            "pool_size": len(self.pool),
            "piles": tuple(tuple(p) for p in self.piles),
            "right": self.right_of[seat],
            "left": self.left_of[seat],
            "choice": pending.get(seat),
            "waiting": (tuple(s for s in self._acting if s not in pending)
                        if drawing_or_discarding else ()),
            "hand_counts": tuple(len(h) for h in self.hands),
            "matched": tuple(self.matched),
            "open_melds": tuple(sorted(self.open_melds.items())),
            "final_cycle": self.final,
            "taken": tuple(tuple(t) for t in self.taken),
            "discarded": tuple(tuple(d) for d in self.discarded),
            "last_hand": self.last_hand,
            "packs": self.packs,
        })

    # -- scores --------------------------------------------------------------
    def _score_rows(self) -> list[tuple[str, list[int]]]:
        return [(f"Hand {h}", list(r)) for h, r in zip(self.row_hands, self.rows)]

    def _went_out(self) -> list[int]:
        """Hands in which each seat called match."""
        return list(self.matches)

    # -- lessons and tests: a chosen position --------------------------------
    def arrange(
        self,
        hands: Sequence[Sequence[Card | str] | str],
        piles: Sequence[Sequence[Card | str] | str],
        pool: Sequence[Card | str] | str | None = None,
        pool_top: Sequence[Card | str] | str = (),
        hand: int | None = None,
    ) -> None:
        """Replace the current deal by a chosen position (for lessons and tests).

        Allowed at the start of a hand, before anybody has acted in it.
        ``hands`` and ``piles`` give every seat's cards (piles bottom first).
        ``pool_top`` are the next cards the pool gives, first drawn first; the
        rest of the shoe is shuffled under them.  Or ``pool`` gives the whole
        pool (first drawn first); then the cards left over go under the piles.
        ``hand`` (1..11) switches to that hand number.  The position is saved
        with the game (``to_json``), so replay and undo keep it.

        >>> from rummy import new_game
        >>> g = new_game("big_table", players=["Ana", "Ben"], seed=1)
        >>> g.arrange(["5h 6h 7h", "Kc Qd 2s"], ["9c", "4d"], pool_top="8h")
        >>> g.phase, g.to_act(), [str(a) for a in g.legal_actions(0)]
        ('match call after deal', [0], ['call match', 'play on'])
        """
        self._arrange({
            "hand": self.hand_number if hand is None else hand,
            "hands": [format_cards(as_cards(h)) for h in hands],
            "piles": [format_cards(as_cards(p)) for p in piles],
            "pool": None if pool is None else format_cards(as_cards(pool)),
            "pool_top": format_cards(as_cards(pool_top)),
        })

    def _apply_setup(self, setup: dict[str, Any]) -> None:
        n = self.n
        v = self.variant
        h = setup["hand"]
        if not isinstance(h, int) or not 1 <= h <= (v.rounds or 1):
            raise GameError(f"hand must be 1 to {v.rounds}, not {h!r}")
        size = v.hand_size(h)
        hands = [list(as_cards(x)) for x in setup["hands"]]
        piles = [list(as_cards(x)) for x in setup["piles"]]
        if len(hands) != n or len(piles) != n:
            raise GameError(f"give {n} hands and {n} piles, one per seat")
        for i, hd in enumerate(hands):
            if len(hd) != size:
                raise GameError(
                    f"in hand {h} every player holds {size} cards; seat {i} was given {len(hd)}"
                )
        if any(not p for p in piles):
            raise GameError("every pile starts with at least one card (BT-2)")
        top = list(as_cards(setup["pool_top"]))
        fixed_pool = None if setup["pool"] is None else list(as_cards(setup["pool"]))
        used = Counter(c for x in hands + piles + [top] + [fixed_pool or []] for c in x)
        over = used - self._full
        if over:
            raise GameError(
                f"the {self.packs} packs hold each card {self.packs} times; too many of "
                + ", ".join(f"{c} ({used[c]})" for c in sorted(over, key=_by_order))
            )
        rest = list((self._full - used).elements())
        self.rng.shuffle(rest)
        if fixed_pool is not None:
            pool_cards = list(reversed(fixed_pool))
            for k, c in enumerate(rest):  # leftovers go under the piles
                piles[k % n].insert(0, c)
        else:
            pool_cards = rest + list(reversed(top))
        self.number = h
        self.rules = v.meld_rules(h)
        self.size = size
        self.pool = Stock(pool_cards)
        self._objects = Counter(map(id, [c for x in hands + piles + [pool_cards] for c in x]))
        self.hands = hands
        self.piles = piles
        self.cycle = 0
        self.pending = {}
        self.matched = []
        self.open_melds = {}
        self.taken = [[] for _ in range(n)]
        self.discarded = [[] for _ in range(n)]
        self.final = False
        self._hand_start = len(self.history)
        del self.log[self._log_start:]  # the seed's own deal of this hand is not told
        wild_text = self.rules.wild_words()
        self._say(f"Hand {h} of {v.rounds}, a chosen deal: everyone holds {size} cards; "
                  f"{wild_text}.")
        self._say(f"The table is set for hand {h}: piles show " + ", ".join(
            f"{self._name(i)} {self.piles[i][-1]}" for i in range(n)) + ".")
        self._open_match_window("match call after deal")

    # -- checks --------------------------------------------------------------
    def card_counts(self) -> Counter[Card]:
        """Every card in hands, piles and the pool (always the full shoe)."""
        c: Counter[Card] = Counter(self.pool.cards)
        for h in self.hands:
            c.update(h)
        for p in self.piles:
            c.update(p)
        return c

    def check(self, full: bool = False) -> None:
        """Raise AssertionError if an invariant is broken: every card of the
        shoe is in exactly one place (the very card objects dealt, so nothing
        is copied, lost or made up; ``full=True`` also compares the cards by
        value with a fresh shoe), hand sizes fit the phase, the phase is known
        and the cycle count is within TT-12."""
        every = list(self.pool.cards)
        for h in self.hands:
            every += h
        for p in self.piles:
            every += p
        # (dict equality: Counter's own == is slow Python)
        assert dict.__eq__(Counter(map(id, every)), self._objects), "cards are not conserved"
        if full:
            assert _ids(every) == self._full_ids, "cards are not conserved"
        drawn = self.phase in _DISCARD_PHASES
        for i, h in enumerate(self.hands):
            extra = 1 if drawn and i in self._acting else 0
            assert len(h) == self.size + extra, (i, len(h), self.size, self.phase)
        assert self.phase in PHASES
        assert self.cycle <= STALL_CYCLES + 1
        assert set(self.pending) <= set(self._acting)

    def _card_places(self) -> list[Sequence[Card]]:
        return [self.pool.cards, *self.hands, *self.piles]

    def _decks(self) -> tuple[int, int]:
        return self.packs, 0

    def _hidden_from(self, seat: int) -> tuple[list[Card], list[tuple[list[Card], int]]]:
        """The pool, and every card of another unmatched hand not taken from a
        pile (a chosen discard stays where it is: it is still that seat's)."""
        slots: list[tuple[list[Card], int]] = []
        for q, hand in enumerate(self.hands):
            if q == seat or q in self.open_melds:
                continue
            open_ = list(self.taken[q])
            chosen = self.pending.get(q)
            if chosen is not None and chosen.card is not None and chosen.verb == "discard":
                open_.append(chosen.card)
            slots += self._unknown_in(hand, open_)
        return self.pool.cards, slots

    def _after_redeal(self) -> None:
        # the copy holds copies of the card objects: they are the ones to conserve now
        self._objects = Counter(map(id, [c for place in self._card_places() for c in place]))

    def _check_more(self) -> None:
        """:meth:`check`: the very card objects dealt, hand sizes, phase, cycles."""
        self.check()

    def __repr__(self) -> str:
        return (f"<BigTableGame {self.n} players, hand {self.hand_number}, cycle {self.cycle}, "
                f"{self.phase!r}>")
