"""The Three-Thirteen family: ``three_thirteen``, ``tre_tretton`` and
``three_thirteen_jokers`` as one exact, turn-based game (RULES.md TT-1..TT-12,
TS-*, TR-*, TJ-*).

Everything that differs between the three variants comes from the variant's
data (players, packs, jokers, aces, wild penalties, the natural-card rule,
the discard-return option): this module never looks at a variant's name.

>>> from rummy import new_game
>>> g = new_game("three_thirteen", players=["Ana", "Ben"], seed=7)
>>> g.round, g.variant.hand_size(g.round), g.players[g.current_player]
(1, 3, 'Ana')
>>> [str(a) for a in g.legal_actions()]
['draw stock', 'draw discard']
>>> g.apply("draw stock")
>>> g.log[-1]
'Ana draws from the stock.'
>>> g.apply("discard 2c")
Traceback (most recent call last):
...
rummy.errors.GameError: discard 2c: 2c is not in Ana's hand; Ana holds 5c Tc Jd 3s
"""

from __future__ import annotations

import functools
import operator
import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from rummy.action import Action
from rummy.cards import JOKER, Card, as_cards, deck, format_cards
from rummy.engine import Engine, Observation, frozen_of, player_names
from rummy.errors import GameError
from rummy.melds import Arrangement, Meld, MeldRules
from rummy.search import best_arrangement, go_out_discards, may_go_out, penalty
from rummy.table import Stock, deal, make_shoe, reshuffle
from rummy.variants import Variant, find_variant

__all__ = [
    "ThreeThirteenGame",
    "ThreeThirteenObservation",
    "Event",
    "STALL_TURNS",
    "replay",
    "format_meld",
    "may_go_out",
]

#: TT-12: a round with nobody out after this many turns (all players together)
#: ends and is scored as in TT-10.  A variant may carry its own ``stall_turns``.
STALL_TURNS = 200

DRAW_STOCK = Action("draw stock")
DRAW_DISCARD = Action("draw discard")


# ---------------------------------------------------------------------------
# Solver calls: the meld search (rummy.search) keeps the answers a bot's turn
# and the engine's legality check share; ``may_go_out`` is the search's own.


def _key(hand: Iterable[Card]) -> tuple[Card, ...]:
    return tuple(sorted(hand, key=_INDEX))  # index order is Card.sort_key order


@functools.lru_cache(maxsize=16)
def _shoe(packs: int, jokers: int) -> Counter[Card]:
    return Counter(deck(packs, jokers))


@functools.lru_cache(maxsize=16)
def _shoe_indices(packs: int, jokers: int) -> list[int]:
    return sorted(c.index for c in deck(packs, jokers))


_INDEX = operator.attrgetter("index")

_DRAWS = (DRAW_STOCK, DRAW_DISCARD)
_STOCK_ONLY = (DRAW_STOCK,)
#: ("discard" | "go out", card index) -> the Action (a value: shared, never changed)
_MOVES: dict[tuple[str, int], Action] = {}


def _move(verb: str, card: Card) -> Action:
    """``Action(verb, card)``, made once per verb and card."""
    a = _MOVES.get((verb, card.index))
    if a is None:
        a = _MOVES[verb, card.index] = Action(verb, card)
    return a


#: the discard of each card, by card index (the joker's: 52)
_DISCARD_OF = [_move("discard", c) for c in (*deck(1), JOKER)]


def format_meld(meld: Meld) -> str:
    """A meld as a learner reads it, in brackets: ``[7h 8h 9h]``.

    >>> from rummy import cards
    >>> format_meld(Meld.of(cards("9h 7h 8h")))
    '[7h 8h 9h]'
    """
    return "[" + format_cards(meld.cards) + "]"


# ---------------------------------------------------------------------------
# Public events and what a player sees


@dataclass(frozen=True, slots=True)
class Event:
    """One public event of a round, as every player at the table saw it.

    ``kind`` is ``"turn up"`` (the first discard, TT-4), ``"draw"`` (from
    the stock; the card is hidden), ``"take"``
    (the top discard, shown), ``"discard"``, ``"out"`` (went out, discarding
    ``card``), or ``"reshuffle"`` (the pile went back into the stock; ``seat``
    is None).
    """

    kind: str
    seat: int | None
    card: Card | None = None


#: the events of the moves, by (kind, seat, card index): values, shared
#: (a frozen class with slots stores its fields one call at a time)
_EVENTS: dict[tuple[str, int, int], Event] = {}


def _event(kind: str, seat: int, card: Card | None = None) -> Event:
    """``Event(kind, seat, card)``, made once per kind, seat and card."""
    key = (kind, seat, -1 if card is None else card.index)
    e = _EVENTS.get(key)
    if e is None:
        e = _EVENTS[key] = Event(kind, seat, card)
    return e


@dataclass(frozen=True)
class ThreeThirteenObservation(Observation):
    """What ``player`` may see: their own hand and everything public.

    Never another player's hidden cards, the stock's order or the seed.
    ``legal_actions`` is empty unless it is ``player``'s turn.
    """

    variant: Variant
    player: int
    players: tuple[str, ...]
    phase: str  # "draw", "discard" or "over"
    legal_actions: tuple[Action, ...]
    hand: tuple[Card, ...]
    round: int
    rounds: int
    wild_rank: int | None
    rules: MeldRules
    hand_size: int
    dealer: int
    current_player: int | None
    drawn: Card | None  # the card this player just drew (own turn only)
    taken: Card | None  # the top discard this player took this turn, if any
    discard_top: Card | None
    pile_size: int
    stock_size: int
    hand_sizes: tuple[int, ...]
    packs: int
    jokers: int
    discard_return: bool
    discards: tuple[tuple[int, Card], ...]  # this round, in order: (seat, card)
    picked: tuple[tuple[Card, ...], ...]  # cards each seat took from the pile this round
    events: tuple[Event, ...]  # this round's public events
    went_out: int | None
    shown: tuple[tuple[int, tuple[Meld, ...]], ...]  # melds laid down this round
    final_turns: tuple[int, ...]  # seats still to play after someone went out
    turn: int  # turns completed this round
    stall_turns: int
    scores: tuple[int, ...]
    round_scores: tuple[tuple[int, ...], ...]
    winner: int | None
    log: tuple[str, ...]
    #: the last round scored, laid open for everyone (TT-8): one
    #: ``(seat, best arrangement, points)`` per seat; empty before the first
    last_round: tuple[tuple[int, Arrangement, int], ...] = ()

    def discards_seen(self) -> list[Card]:
        """The discard pile as the public events of this round built it."""
        pile: list[Card] = []
        for ev in self.events:
            if ev.kind in ("discard", "out") and ev.card is not None:
                pile.append(ev.card)
            elif ev.kind == "take" and pile:
                pile.pop()
            elif ev.kind == "reshuffle":
                pile = pile[-1:]
        top = self.discard_top
        if top is not None and top not in pile:
            pile.insert(0, top)  # the first discard, turned up at the deal
        return pile


# ---------------------------------------------------------------------------
# The game


def _cap(name: str) -> str:
    return name[:1].upper() + name[1:] if name else name


class ThreeThirteenGame(Engine, family="three_thirteen"):
    """One game of a Three-Thirteen variant (11 rounds, TT-1..TT-12).

    Build it with ``rummy.new_game(...)``; see :mod:`rummy.game` for the API.
    """

    observation = ThreeThirteenObservation

    def __init__(
        self,
        variant: Variant,
        players: int | Sequence[str] | None = None,
        seed: int | None = None,
        **options: Any,
    ) -> None:
        self.variant = find_variant(variant)
        if self.variant.family != "three_thirteen" or not self.variant.rounds:
            raise GameError(f"{self.variant.name} is not a Three-Thirteen variant")
        self._opts = self.variant.resolve(**options)
        self.options: dict[str, Any] = dict(options)
        if (players is None or isinstance(players, int)) and self.variant.seats:
            count = self.variant.default_players if players is None else players
            if count == len(self.variant.seats):
                players = list(self.variant.seats)
        self.players: tuple[str, ...] = player_names(players, self.variant)
        #: each seat's name as a sentence starts it, and whether it is "you"
        #: (the log's sentences: every move writes one)
        self._names = tuple(map(_cap, self.players))
        self._you = tuple(p.lower() == "you" for p in self.players)
        self.seed: int = self.draw_seed(seed)
        n = len(self.players)
        self.packs = self.variant.packs_for(n, **options)
        self.jokers = self.variant.jokers(**options)
        self.discard_return = bool(self._opts.get("discard_return", False))
        self.stall_turns = int(getattr(self.variant, "stall_turns", STALL_TURNS))
        self.rng = random.Random(self.seed)
        self.log: list[str] = []
        self.history: list[tuple[int, Action]] = []
        self.scores: list[int] = [0] * n
        self.round_scores: list[list[int]] = []
        self.round_out: list[int | None] = []
        self.last_round: tuple[tuple[int, Arrangement, int], ...] = ()
        self.number = 0
        self.phase = "draw"
        self.dealer = self.rng.randrange(n)  # TT-3: the first dealer at random
        self.log.append(f"{self._name(self.dealer)} is chosen at random to deal first.")
        self._out_cache: tuple[tuple[Card, ...], tuple[Card, ...]] | None = None
        self._moves_cache: tuple[tuple[Any, ...], tuple[Action, ...]] | None = None
        #: every field of an observation, in field order: what changes only
        #: between rounds or when a card is taken or melds are shown (each
        #: place that changes one sets the view to None), and None for the
        #: fields observe fills in for each move
        self._round_view: dict[str, Any] | None = None
        self.setups: list[dict[str, Any]] = []
        self._start_round(1)

    @classmethod
    def _create(cls, variant: Variant, players: Any, seed: int | None,
                options: Any) -> ThreeThirteenGame:
        return cls(variant, players, seed, **options)

    # -- small helpers -----------------------------------------------------
    def _name(self, seat: int) -> str:
        return self._names[seat]

    def _says(self, seat: int, third: str, second: str) -> str:
        """'Ben draws' / 'You draw'."""
        if self._you[seat]:
            return f"You {second}"
        return f"{self._names[seat]} {third}"

    @property
    def n(self) -> int:
        """How many players."""
        return len(self.players)

    @property
    def rules(self) -> MeldRules:
        """The meld rules of the current round (wild rank, aces, penalties)."""
        return self._rules

    @property
    def current_player(self) -> int | None:
        """The seat to act, or None when the game is over."""
        return None if self.phase == "over" else self.current

    def to_act(self) -> list[int]:
        """Seats that must act now: ``[current_player]``, or ``[]`` when over."""
        return [] if self.phase == "over" else [self.current]

    @property
    def round(self) -> int:
        """The round being played (1..11); the same as :attr:`number`."""
        return self.number

    # -- rounds ----------------------------------------------------------
    def _start_round(self, r: int) -> None:
        v = self.variant
        self.number = r
        self._rules = v.meld_rules(r, **self._opts)
        h = v.hand_size(r)  # TT-1
        self.stock = Stock(make_shoe(self.packs, self.jokers, self.rng))
        dealt = deal(self.stock, self.n, h)
        self.hands: list[list[Card]] = [[] for _ in range(self.n)]
        for i, hand in enumerate(dealt):  # dealt from the dealer's left
            self.hands[(self.dealer + 1 + i) % self.n] = hand
        self.pile: list[Card] = [self.stock.draw()]  # TT-4
        self._hand_start = len(self.history)
        self._log_start = len(self.log)
        self.current = (self.dealer + 1) % self.n  # TT-3
        self.phase = "draw"
        self.went_out: int | None = None
        self.final_left: list[int] = []
        self.turn = 0
        self.drawn: Card | None = None
        self.taken: Card | None = None
        self.known: list[list[Card]] = [[] for _ in range(self.n)]
        self.picked: list[list[Card]] = [[] for _ in range(self.n)]
        self.discards: list[tuple[int, Card]] = []
        self.events: list[Event] = [Event("turn up", None, self.pile[-1])]
        self.shown: dict[int, tuple[Meld, ...]] = {}
        self._out_cache = None
        self._moves_cache = None
        self._round_view = None
        wilds = self._rules.wild_words(bool(self.jokers))
        self.log.append(
            f"Round {r} of {v.rounds}: {self._name(self.dealer)} deals {h} cards each; "
            f"{wilds}. The first discard is {self.pile[-1]}."
        )

    # -- a chosen position (lessons, guided hands, drills) -----------------------
    def arrange(
        self,
        hands: Sequence[Sequence[Card | str] | str],
        discard: Sequence[Card | str] | str,
        stock_top: Sequence[Card | str] | str = (),
        *,
        round: int | None = None,
        dealer: int | None = None,
    ) -> None:
        """Replace the current deal by a chosen position (for lessons, guided
        hands, drills and tests).

        Allowed at the start of a round, before anybody has acted in it.
        ``hands`` gives every seat's cards (seat order), ``discard`` the
        discard pile (bottom first; its last card is the open one, TT-4),
        ``stock_top`` the next cards of the stock (first drawn first); the
        rest of the shoe is shuffled under them with the game's own RNG.
        ``round`` (1..11) switches to that round, ``dealer`` seats the dealer
        (the player on the dealer's left plays first, TT-3).  The position is
        saved with the game (``to_json``), so loading, replay and undo keep it.

        >>> from rummy import new_game, load_game
        >>> g = new_game("three_thirteen", players=["Ana", "Ben"], seed=3)
        >>> g.arrange(["7h 8h Kc", "2c 2d 5s"], "9h", stock_top="Qd", dealer=1)
        >>> g.players[g.current_player], g.observe(0).discard_top
        ('Ana', Card.parse('9h'))
        >>> g.apply("draw discard"); g.apply("go out Kc")
        >>> load_game(g.to_json()).log == g.log
        True
        """
        self._arrange({
            "round": self.number if round is None else round,
            "dealer": self.dealer if dealer is None else dealer,
            "hands": [format_cards(as_cards(h)) for h in hands],
            "discard": format_cards(as_cards(discard)),
            "stock_top": format_cards(as_cards(stock_top)),
        })

    def _apply_setup(self, setup: dict[str, Any]) -> None:
        v = self.variant
        r, dealer = setup.get("round"), setup.get("dealer")
        if type(r) is not int or not 1 <= r <= (v.rounds or 11):
            raise GameError(f"round must be 1 to {v.rounds}, not {r!r}")
        if type(dealer) is not int or not 0 <= dealer < self.n:
            raise GameError(f"dealer must be a seat 0 to {self.n - 1}, not {dealer!r}")
        size = v.hand_size(r)
        hands = [list(as_cards(x)) for x in setup.get("hands", ())]
        if len(hands) != self.n:
            raise GameError(f"give {self.n} hands, one per seat, not {len(hands)}")
        for i, hand in enumerate(hands):
            if len(hand) != size:
                raise GameError(f"in round {r} every player holds {size} cards (TT-1); "
                                f"{self.players[i]} was given {len(hand)}")
        pile = list(as_cards(setup.get("discard", "")))
        if not pile:
            raise GameError("the discard pile starts with at least one card face up (TT-4)")
        top = list(as_cards(setup.get("stock_top", "")))
        full = _shoe(self.packs, self.jokers)
        used = Counter(c for x in [*hands, pile, top] for c in x)
        over = used - full
        if over:
            raise GameError(
                f"the shoe ({self.packs} pack{'s' if self.packs > 1 else ''}"
                f"{f', {self.jokers} jokers' if self.jokers else ''}) does not hold "
                + ", ".join(f"{c} {used[c]} times" for c in sorted(over, key=operator.attrgetter("index"))))
        rest = list((full - used).elements())
        rest.sort(key=operator.attrgetter("index"))
        self.rng.shuffle(rest)
        # every check passed: lay the position
        self.number = r
        self.dealer = dealer
        self._rules = v.meld_rules(r, **self._opts)
        self.stock = Stock(rest + list(reversed(top)))
        self.hands = hands
        self.pile = pile
        self.current = (dealer + 1) % self.n  # TT-3
        self.phase = "draw"
        self.went_out = None
        self.final_left = []
        self.turn = 0
        self.drawn = None
        self.taken = None
        self.known = [[] for _ in range(self.n)]
        self.picked = [[] for _ in range(self.n)]
        self.discards = []
        self.events = [Event("turn up", None, self.pile[-1])]
        self.shown = {}
        self._out_cache = None
        self._moves_cache = None
        self._round_view = None
        del self.log[self._log_start:]  # the seed's own deal of this round is not told
        wilds = self._rules.wild_words(bool(self.jokers))
        self.log.append(
            f"Round {r} of {v.rounds} (a chosen deal): {self._name(dealer)} deals {size} cards "
            f"each; {wilds}. The first discard is {self.pile[-1]}."
        )

    def _begin_turn(self) -> None:
        """TT-10: an empty stock is refilled from the pile before a draw."""
        if self.stock.cards:
            return
        moved = reshuffle(self.stock, [self.pile], self.rng)
        if moved:
            self.events.append(Event("reshuffle", None))
            self.log.append(
                f"The stock is empty: the discard pile except its top card ({self.pile[-1]}) "
                f"is shuffled into a new stock of {moved} cards."
            )
        if not self.stock.cards:
            self.log.append("No card is left to draw: the round ends with nobody out.")
            self._score_round()

    def _end_turn(self, seat: int) -> None:
        self.turn += 1
        self.drawn = None
        self.taken = None
        self._out_cache = None
        self._moves_cache = None
        if self.went_out is not None:
            if seat != self.went_out and self.final_left and self.final_left[0] == seat:
                self.final_left.pop(0)
            if not self.final_left:  # TT-7: everyone has had their last turn
                self._score_round()
                return
            self.current = self.final_left[0]
        else:
            if self.turn >= self.stall_turns:  # TT-12
                self.log.append(
                    f"Nobody has gone out after {self.turn} turns: the round ends and is "
                    "scored as it stands."
                )
                self._score_round()
                return
            self.current = (seat + 1) % self.n
        self.phase = "draw"
        self._begin_turn()

    def _score_round(self) -> None:
        points = []
        laid_open = []
        for seat in range(self.n):
            arr = best_arrangement(self.hands[seat], self._rules)  # M-7
            if seat == self.went_out:  # TT-8
                points.append(0)
                laid_open.append((seat, arr, 0))
                self.log.append(f"{self._says(seat, 'scores', 'score')} 0 for going out.")
                continue
            points.append(arr.penalty)
            laid_open.append((seat, arr, arr.penalty))
            melds = " ".join(format_meld(m) for m in arr.melds) or "no melds"
            dead = format_cards(arr.deadwood) or "none"
            self.log.append(
                f"{self._says(seat, 'scores', 'score')} {arr.penalty}: {melds}; "
                f"unmelded: {dead}."
            )
        self.round_scores.append(points)
        self._round_view = None
        self.round_out.append(self.went_out)
        self.last_round = tuple(laid_open)
        for seat, p in enumerate(points):
            self.scores[seat] += p  # TT-9
        totals = ", ".join(f"{self._name(s)} {t}" for s, t in enumerate(self.scores))
        self.log.append(f"After round {self.round} the totals are: {totals}.")
        if self.round >= (self.variant.rounds or 11):
            self.phase = "over"
            w = self.winner
            low = min(self.scores)
            if w is not None:
                self.log.append(
                    f"Game over: {self._says(w, 'wins', 'win')} with the lowest total, {low}."
                )
            else:
                tied = [self._name(s) for s, t in enumerate(self.scores) if t == low]
                self.log.append(
                    f"Game over: {' and '.join(tied)} tie for the lowest total ({low}), "
                    "so nobody wins."
                )
            return
        self.dealer = (self.dealer + 1) % self.n  # TT-3: the deal passes left
        self._start_round(self.round + 1)

    # -- legality ------------------------------------------------------------
    def _out_cards(self, seat: int, key: tuple[Card, ...] | None = None) -> tuple[Card, ...]:
        """Cards whose discard leaves every other card in melds (TT-6)
        (``key``: the hand in index order, when the caller has it)."""
        if key is None:
            key = _key(self.hands[seat])
        if self._out_cache is not None and self._out_cache[0] == key:
            return self._out_cache[1]
        result: tuple[Card, ...] = ()
        outs = go_out_discards(key, self._rules)
        if outs:
            taken = self.taken
            result = tuple(outs if taken is None or self.discard_return
                           else [c for c in outs if c != taken])  # TT-5
        self._out_cache = (key, result)
        return result

    def legal_actions(self, player: int | str | None = None) -> list[Action]:
        """The moves ``player`` (default: the current player) may make now.

        Empty when the game is over or it is not ``player``'s turn.
        """
        if self.phase == "over":
            return []
        seat = self.current if player is None else self._seat(player)
        if seat != self.current:
            return []
        return list(self._moves(seat))

    def _moves(self, seat: int) -> tuple[Action, ...]:
        """The moves of ``seat``, whose turn it is: the draws (TT-5), or
        the discard phase's moves."""
        if self.phase == "draw":
            return _DRAWS if self.pile else _STOCK_ONLY
        return self._discard_moves(seat)

    def _discard_moves(self, seat: int) -> tuple[Action, ...]:
        """The discard phase's moves of ``seat`` (go out first, then plain
        discards, each in card order), remembered for the same hand and taken
        card: ``observe`` and the check of the move ask for them in turn."""
        key = _key(self.hands[seat])
        memo = (seat, self.number, key, self.taken, self.discard_return)
        got = self._moves_cache
        if got is not None and got[0] == memo:
            return got[1]
        out_cards = self._out_cards(seat, key)
        taken = self.taken
        skip = taken.index if taken is not None and not self.discard_return else -1  # TT-5
        # TJ-7: no plain discard into a complete hand
        barred = {c.index for c in out_cards} if self.variant.must_go_out else ()
        moves = [_move("go out", c) for c in out_cards]
        last = -1
        for c in key:  # each distinct card once, in index order (sort_key order)
            i = c.index
            if i != last:
                last = i
                if i != skip and i not in barred:
                    moves.append(_DISCARD_OF[i])
        result = tuple(moves)
        self._moves_cache = (memo, result)
        return result

    def _legal_text(self, seat: int) -> str:
        acts = self.legal_actions(seat)
        if len(acts) > 8:
            shown = ", ".join(f"'{a}'" for a in acts[:8]) + f", ... ({len(acts)} moves)"
        else:
            shown = ", ".join(f"'{a}'" for a in acts)
        return shown

    def _check(self, action: Action, seat: int, said: Action | str) -> None:
        """Raise GameError unless ``action`` is legal for ``seat`` now."""
        who = self._name(seat)
        if self.phase == "draw":
            if action is DRAW_STOCK or (action is not DRAW_DISCARD and action == DRAW_STOCK):
                return
            if action is DRAW_DISCARD or action == DRAW_DISCARD:
                if not self.pile:
                    raise GameError("draw discard: the discard pile is empty; draw stock")
                return
            if action.verb in ("discard", "go out"):
                raise GameError(
                    f"{said}: {who} must draw first (TT-5); legal now: {self._legal_text(seat)}"
                )
        elif self.phase == "discard":
            if action.verb in ("draw stock", "draw discard", "draw"):
                raise GameError(
                    f"{said}: {who} has already drawn this turn; now discard a card, or go out "
                    "(e.g. 'discard 9c', 'go out 9c')"
                )
            if (action.verb in ("discard", "go out") and action.card is not None
                    and not action.onto and not action.melds):
                c = action.card
                hand = self.hands[seat]
                if c not in hand:
                    raise GameError(
                        f"{said}: {c} is not in {who}'s hand; {who} holds "
                        f"{format_cards(sorted(hand, key=Card.sort_key))}"
                    )
                if c == self.taken and not self.discard_return:
                    raise GameError(
                        f"{said}: {who} took {c} from the discard pile this turn and may not "
                        "throw it straight back (TT-5); discard another card"
                    )
                if action.verb == "discard":
                    return
                rest = list(hand)
                rest.remove(c)
                if penalty(rest, self._rules) == 0:
                    return
                arr = best_arrangement(rest, self._rules)
                melds = " ".join(format_meld(m) for m in arr.melds) or "no melds"
                raise GameError(
                    f"{said}: without {c} {who}'s hand is not all melds (best: {melds}; "
                    f"unmelded {format_cards(arr.deadwood)}, {arr.penalty} points); "
                    f"discard a card instead (TT-6)"
                )
        raise GameError(
            f"{str(said)!r} is not a legal move now; legal moves: {self._legal_text(seat)}"
        )

    # -- moves ---------------------------------------------------------------
    def _over_text(self) -> str:
        return "the game is over; no more moves (start a new game)"

    def _parse(self, action: Action | str) -> Action:
        act = super()._parse(action)
        if isinstance(action, str) and act.card is None and act.verb.split()[0:1] in (
                ["discard"], ["go"]):
            from rummy.cards import CardError

            try:
                Card.parse(action.split()[-1])
            except CardError as e:
                raise GameError(f"{action!r}: {e}") from None
        return act

    def _legal_move(self, action: Action, seat: int, said: Action | str) -> Action:
        if seat != self.current:
            raise GameError(
                f"{said}: it is {self._name(self.current)}'s turn, not {self._name(seat)}'s"
            )
        if (action.verb == "discard" and self.phase == "discard" and self.variant.must_go_out
                and action.card is not None and not action.onto
                and action.card in self._out_cards(seat)):
            action = Action("go out", action.card)  # TJ-7: this discard goes out
        self._check(action, seat, said)
        return action

    def _make_move(self, action: Action, seat: int) -> None:
        hand = self.hands[seat]
        draw = action.verb.startswith("draw")  # (a discard skips comparing whole actions)
        if draw and (action is DRAW_STOCK or (action is not DRAW_DISCARD and action == DRAW_STOCK)):
            c = self.stock.draw()
            hand.append(c)
            self.drawn = c
            self.phase = "discard"
            self.events.append(_event("draw", seat))
            self.log.append(f"{self._says(seat, 'draws', 'draw')} from the stock.")
            return
        if draw and (action is DRAW_DISCARD or action == DRAW_DISCARD):
            c = self.pile.pop()
            hand.append(c)
            self.drawn = c
            self.taken = c
            self.known[seat].append(c)
            self.picked[seat].append(c)
            self._round_view = None
            self.phase = "discard"
            self.events.append(_event("take", seat, c))
            self.log.append(f"{self._says(seat, 'takes', 'take')} {c} from the discard pile.")
            return
        card = action.card
        assert card is not None
        c = card
        if action.verb == "go out":
            rest = list(hand)
            rest.remove(c)
            arr = best_arrangement(rest, self._rules)
            assert arr.is_complete
            hand.remove(c)
            self.pile.append(c)
            self.shown[seat] = arr.melds
            self._round_view = None
            self.known[seat] = list(hand)
            self.discards.append((seat, c))
            self.events.append(_event("out", seat, c))
            melds = " ".join(format_meld(m) for m in arr.melds)
            if self.went_out is None:  # TT-6, TT-7
                self.went_out = seat
                self.final_left = [(seat + k) % self.n for k in range(1, self.n)]
                self.log.append(
                    f"{self._says(seat, 'goes', 'go')} out: {melds}, discarding {c}."
                )
                others = ", ".join(self._name(s) for s in self.final_left)
                self.log.append(f"Everyone else gets one more turn: {others}.")
            else:
                self.log.append(
                    f"{self._says(seat, 'melds', 'meld')} every card too: {melds}, "
                    f"discarding {c}."
                )
            self._end_turn(seat)
            return
        hand.remove(c)
        self.pile.append(c)
        if c in self.known[seat]:
            self.known[seat].remove(c)
        self.discards.append((seat, c))
        self.events.append(_event("discard", seat, c))
        self.log.append(f"{self._says(seat, 'discards', 'discard')} {c}.")
        self._end_turn(seat)

    # -- what a player sees -------------------------------------------------
    def observe(self, player: int | str) -> ThreeThirteenObservation:
        """Everything ``player`` may see now, and nothing else."""
        seat = self._seat(player)
        phase = self.phase
        over = phase == "over"
        mine = seat == self.current and not over
        legal = self._moves(seat) if mine else ()
        variant = self.variant
        number = self.number
        pile = self.pile
        view = self._round_view
        if view is None:  # what changes only between rounds or when a card is taken or shown
            # every field, in the order of the observation's fields (None:
            # filled in below, for every move); a copy keeps the order
            view = self._round_view = {
                "variant": variant,
                "player": None,
                "players": self.players,
                "phase": None,
                "legal_actions": None,
                "hand": None,
                "round": number,
                "rounds": variant.rounds or 11,
                "wild_rank": self._rules.wild_rank,
                "rules": self._rules,
                "hand_size": variant.hand_size(number),
                "dealer": self.dealer,
                "current_player": None,
                "drawn": None,
                "taken": None,
                "discard_top": None,
                "pile_size": None,
                "stock_size": None,
                "hand_sizes": None,
                "packs": self.packs,
                "jokers": self.jokers,
                "discard_return": self.discard_return,
                "discards": None,
                "picked": tuple(map(tuple, self.picked)),
                "events": None,
                "went_out": None,
                "shown": tuple(sorted(self.shown.items())),
                "final_turns": None,
                "turn": None,
                "stall_turns": None,
                "scores": None,
                "round_scores": tuple(map(tuple, self.round_scores)),
                "winner": None,
                "log": None,
                "last_round": self.last_round,
            }
        values = view.copy()  # and what every move changes:
        values["player"] = seat
        values["phase"] = phase
        values["legal_actions"] = legal
        # the discard phase's moves were just found for this hand (their memo:
        # seat, round, the hand in index order, the card taken, discard_return)
        cache = self._moves_cache
        values["hand"] = cache[0][2] if legal and phase == "discard" and cache else _key(self.hands[seat])
        values["current_player"] = None if over else self.current
        values["drawn"] = self.drawn if mine else None
        values["taken"] = self.taken if mine else None
        values["discard_top"] = pile[-1] if pile else None
        values["pile_size"] = len(pile)
        values["stock_size"] = len(self.stock.cards)
        values["hand_sizes"] = tuple(map(len, self.hands))
        values["discards"] = tuple(self.discards)
        values["events"] = tuple(self.events)
        values["went_out"] = self.went_out
        values["final_turns"] = tuple(self.final_left)
        values["turn"] = self.turn
        values["stall_turns"] = self.stall_turns
        values["scores"] = tuple(self.scores)
        values["winner"] = self.winner if over else None
        values["log"] = tuple(self.log)
        return frozen_of(ThreeThirteenObservation, values)

    # -- scores ----------------------------------------------------------------
    def _score_rows(self) -> list[tuple[str, list[int]]]:
        return [(f"Round {i + 1}", list(r)) for i, r in enumerate(self.round_scores)]

    def _went_out(self) -> list[int]:
        """Rounds each seat went out first."""
        return [sum(1 for s in self.round_out if s == seat) for seat in range(self.n)]

    # -- saving, replay, undo ------------------------------------------------
    def _saved_extra(self) -> dict[str, Any]:
        """The saved game also holds the RNG position and the scores (checked
        when loading)."""
        version, internal, gauss = self.rng.getstate()
        return {"rng": [version, list(internal), gauss], "scores": list(self.scores)}

    def _check_loaded(self, saved: Any) -> None:
        """A saved RNG position or scores that the replay does not reach
        raise :class:`GameError`."""
        if "rng" in saved:
            version, internal, gauss = saved["rng"]
            if self.rng.getstate() != (version, tuple(internal), gauss):
                raise GameError("the saved game does not replay to the same shuffle position; "
                                "the file was changed or comes from another version")
        if "scores" in saved and list(saved["scores"]) != self.scores:
            raise GameError(f"the saved scores {saved['scores']} do not match the replay "
                            f"{self.scores}")

    def copy(self) -> ThreeThirteenGame:
        """An independent copy (the RNG position included; cards are values,
        so only the containers are copied)."""
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)
        new.rng = random.Random()
        new.rng.setstate(self.rng.getstate())
        new.stock = self.stock.copy()
        for name in ("log", "history", "scores", "round_out", "pile", "final_left",
                     "discards", "events", "setups"):
            setattr(new, name, list(getattr(self, name)))
        for name in ("round_scores", "hands", "known", "picked"):
            setattr(new, name, [list(x) for x in getattr(self, name)])
        new.shown = dict(self.shown)
        new.options = dict(self.options)
        new._opts = dict(self._opts)
        return new

    def _card_places(self) -> list[Sequence[Card]]:
        return [self.stock.cards, self.pile, *self.hands]

    def _decks(self) -> tuple[int, int]:
        return self.packs, self.jokers

    def _hidden_from(self, seat: int) -> tuple[list[Card], list[tuple[list[Card], int]]]:
        """The stock, and every card of another hand that was not taken face up."""
        slots = [place for q, hand in enumerate(self.hands) if q != seat
                 for place in self._unknown_in(hand, self.known[q])]
        return self.stock.cards, slots

    def _after_redeal(self) -> None:
        self._out_cache = None
        self._moves_cache = None
        self._round_view = None

    def _check_more(self) -> None:
        """Hands have the right size, and nobody holds more than they should."""
        if self.phase == "over":
            return
        h = self.variant.hand_size(self.number)
        for seat, hand in enumerate(self.hands):
            want = h + 1 if (seat == self.current and self.phase == "discard") else h
            assert len(hand) == want, f"{self.players[seat]} holds {len(hand)} cards, not {want}"
        assert self.turn <= self.stall_turns + self.n

    def __repr__(self) -> str:
        state = "over" if self.is_over else f"round {self.round}, {self.players[self.current]} to {self.phase}"
        return f"<{self.variant.name} game, {self.n} players, seed {self.seed}: {state}>"


def replay(
    variant: Variant | str,
    players: int | Sequence[str] | None,
    seed: int,
    actions: Iterable[tuple[int, Action | str] | Sequence[Any]],
    **options: Any,
) -> ThreeThirteenGame:
    """Rebuild a game from its seed and its list of ``(seat, action)``.

    >>> from rummy import new_game
    >>> g = new_game("three_thirteen", 2, seed=5)
    >>> g.apply("draw stock"); g.apply(g.legal_actions()[-1])
    >>> replay("three_thirteen", 2, 5, g.history).log == g.log
    True
    """
    g = ThreeThirteenGame(find_variant(variant), players, seed, **options)
    g._replay(list(actions), {})
    return g
