"""Gin Rummy for three players (``gin_three``, RULES.md G-1..G-13).

One player sits in the **box** against a team of two: the **captain**, who
plays the box hand by hand, and the **advisor**, who sits out and may advise
the captain (the captain has the final word).  Roles rotate with each hand's
result (G-11); each player keeps an individual total and the first to reach
the target (100) wins (G-13).

>>> from rummy import new_game
>>> g = new_game("gin_three", seed=4)
>>> g.phase, g.role_of(g.current_player)
('upcard', 'captain')
>>> [str(a) for a in g.legal_actions()]
['take upcard', 'pass']
>>> g.apply("pass"); g.apply("pass")      # G-4: both decline the upcard
>>> [str(a) for a in g.legal_actions()]   # the captain must draw from the stock
['draw stock']

How a hand runs.

* ``upcard`` phase (G-4): the captain, then the box, may ``take upcard`` or
  ``pass``.  Whoever takes it discards (or knocks); the other player then
  takes a normal turn.  If both pass, the captain draws from the stock.
* ``draw`` phase (G-5): ``draw stock`` or ``draw discard``.
* ``discard`` phase: ``discard 9c``; ``knock 9c`` when the ten cards left can
  be melded with at most 10 points of deadwood (G-6); ``gin 9c`` when they
  leave none (G-7).  The card just taken from the discard pile can't be
  thrown back (G-5).  After a plain discard that leaves 2 cards in the
  stock the hand is a draw and the same box deals again (G-12); so is a hand
  still going after 200 turns (TT-12).
* ``lay off`` phase (G-8, not after gin): the defender lays cards off onto
  the knocker's melds (``lay off 5h onto 6h 7h 8h``), including chains onto
  runs that earlier lay-offs extended, then ``lay out``.  Only lay-offs that
  keep the defender's best result are offered, so the defender always ends
  with the lowest deadwood possible (M-7); the defender's own melds are
  computed (the best arrangement of the cards kept), and shown with the
  result.  G-8 has the defender lay out melds first and lay off after; the
  engine takes the lay-offs first and lays the melds out at the end, which
  changes no count because the search considers both together.  When
  nothing can be laid off to advantage the hand is scored at once.

The advisor channel.  The advisor never acts in the game (``to_act`` never
names them).  The advisor **may see the captain's hand** (they sit beside
the captain and talk the hand over) and everything public, never the box's
hand.  ``advise(action, player=advisor)`` lets a learner sitting out suggest
a move for the captain's current decision; the captain's observation then
carries it in ``advice`` and a bot captain says whether it takes it and why.
``advice(bot="expert")`` asks a bot advisor for a suggestion (with its
reason) when the learner is the captain.  Advice is private to the team: it
is in the captain's and the advisor's observations, never in the box's, and
never in the public log.
"""

from __future__ import annotations

import random
from bisect import bisect_left, insort
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from rummy.action import Action
from rummy.cards import Card, as_cards, deck, format_cards
from rummy.engine import Engine, Observation, frozen_of, player_names
from rummy.errors import GameError
from rummy.melds import Arrangement, Meld, MeldRules
from rummy.search import best_arrangement
from rummy.search.onepack import (
    CARDS,
    MELD_MASKS,
    VALUES,
    arrangements_of,
    best_layoffs_masks,
    bit,
    bits_of,
    cards_of,
    deadwood_floor,
    extension_bits,
    mask_of,
    mask_penalty,
)
from rummy.table import Stock, deal
from rummy.variants import Variant

__all__ = [
    "ROLES",
    "STALL_TURNS",
    "DRAW_STOCK_LEFT",
    "Advice",
    "Knock",
    "KnockOption",
    "KnockView",
    "knock_arrangements",
    "knock_options",
    "HandResult",
    "LayoffPlan",
    "GinObservation",
    "GinGame",
    "deadwood",
    "deadwood_after_discard",
    "best_layoffs",
    "draw_roles",
    "layoff_targets",
]

_TAKE_UPCARD = Action("take upcard")
_PASS = Action("pass")
_DRAW_STOCK = Action("draw stock")
_DRAW_DISCARD = Action("draw discard")

#: The three roles, in the order of G-2's role draw (highest card first).
ROLES = ("box", "captain", "advisor")
#: TT-12: a hand still going after this many turns (both players) is a draw.
STALL_TURNS = 200
#: G-12: a plain discard that leaves this many cards in the stock ends the hand.
DRAW_STOCK_LEFT = 2

# ---------------------------------------------------------------------------
# Deadwood and lay-offs (G-1, G-8): the one-pack search's answers
# (rummy.search.onepack: cards as bits, suit * 13 + rank - 1, suits in c d h s
# order), for gin's hands as cards.

#: each card's discard, knock and gin action, by bit
_DISCARD_ACTION = [Action("discard", c) for c in CARDS]
_KNOCK_ACTION = [Action("knock", c) for c in CARDS]
_GIN_ACTION = [Action("gin", c) for c in CARDS]


def deadwood(cards_: Iterable[Card]) -> int:
    """The lowest deadwood of a gin hand (one pack, no wilds, aces low).

    >>> from rummy.cards import cards
    >>> deadwood(cards("7h 8h 9h 9c 9d Kc 2s"))   # set 9c-9d-9h: 7 + 8 + 10 + 2 left
    27
    >>> deadwood(cards("Ah 2h 3h Qh Kh"))             # aces low: Q-K-A is no run
    20
    """
    return mask_penalty(mask_of(cards_))


def deadwood_after_discard(cards_: Iterable[Card], keep: Card | None = None) -> dict[Card, int]:
    """For each card that may be discarded (all but ``keep``), the lowest
    deadwood of the cards left.

    >>> from rummy.cards import cards
    >>> d = deadwood_after_discard(cards("7h 8h 9h Kc"), keep=cards("Kc")[0])
    >>> [(str(c), v) for c, v in sorted(d.items())]
    [('7h', 27), ('8h', 26), ('9h', 25)]
    """
    m = mask_of(cards_)
    out = {}
    for c in cards_of(m):
        if c != keep:
            out[c] = mask_penalty(m ^ (1 << bit(c)))
    return out


@dataclass(frozen=True, slots=True)
class LayoffPlan:
    """The defender's best lay-offs: which cards go onto which knocker meld
    (in an order that works, chains included) and the deadwood left."""

    layoffs: tuple[tuple[Card, int], ...]
    deadwood: int
    kept: tuple[Card, ...]

    def __len__(self) -> int:
        return len(self.layoffs)


def best_layoffs(hand: Iterable[Card], melds: Sequence[Iterable[Card]]) -> LayoffPlan:
    """The defender's lay-offs onto the knocker's ``melds`` that leave the
    lowest deadwood (the defender's own melds are the best arrangement of
    the cards kept; G-8).  Chains count: a card may extend a run that an
    earlier lay-off extended.  Ties: fewest lay-offs.

    >>> from rummy.cards import cards
    >>> p = best_layoffs(cards("5h 4h Kc 2s"), [cards("6h 7h 8h")])
    >>> [(str(c), i) for c, i in p.layoffs], p.deadwood      # 5h, then 4h onto 5h-8h
    ([('5h', 0), ('4h', 0)], 12)
    >>> best_layoffs(cards("9c 9d 9h Ts"), [cards("6h 7h 8h")]).deadwood   # keep the set
    10
    """
    h = mask_of(hand)
    ms = tuple(mask_of(m) for m in melds)
    dw, plan = best_layoffs_masks(h, ms, {})
    kept = h
    for b, _ in plan:
        kept ^= 1 << b
    return LayoffPlan(tuple((CARDS[b], i) for b, i in plan), dw, tuple(sorted(cards_of(kept))))


def layoff_targets(card: Card, melds: Sequence[Iterable[Card]]) -> list[int]:
    """Indexes of the melds that ``card`` could extend now (one card at a time).

    >>> from rummy.cards import cards
    >>> layoff_targets(cards("9h")[0], [cards("9c 9d 9s"), cards("6h 7h 8h")])
    [0, 1]
    """
    b = 1 << bit(card)
    return [i for i, m in enumerate(melds) if extension_bits(mask_of(m)) & b]


def knock_arrangements(cards_: Iterable[Card], limit: int = 10
                       ) -> list[tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...]]]:
    """Every arrangement of a gin hand whose deadwood is at most ``limit``
    points (G-8a: the knocker may lay out any of them), as (melds, deadwood),
    lowest deadwood first.

    >>> from rummy.cards import cards
    >>> for melds, dead in knock_arrangements(cards("3c 3d 3h 4c 4d 4h 5c 5d 5h"), 0):
    ...     print(" | ".join(format_cards(m) for m in melds))
    3c 4c 5c | 3d 4d 5d | 3h 4h 5h
    3c 3d 3h | 4c 4d 4h | 5c 5d 5h
    """
    found = arrangements_of(mask_of(cards_), limit)
    found.sort(key=lambda md: sum(VALUES[b] for b in bits_of(md[1])))
    return [(tuple(tuple(cards_of(m)) for m in melds), tuple(cards_of(dead)))
            for melds, dead in found]


def knock_options(hand: Iterable[Card], discard_pile: Iterable[Card],
                  legal: Iterable[Action], limit: int = 10) -> list[KnockOption]:
    """The distinct ways to knock or go gin with ``hand`` (before its
    discard), one per legal ``knock``/``gin`` card and arrangement (G-8a),
    as the knocker sees them: fewest points of deadwood first, then fewest
    unseen cards (not in ``hand`` nor in ``discard_pile``) that could be laid
    off on the melds.  Nothing hidden is used.

    >>> from rummy.cards import cards
    >>> hand = cards("3c 3d 3h 4c 4d 4h 5c 5d 5h Ks Tc")
    >>> for o in knock_options(hand, (), [Action.parse("knock Tc")]):
    ...     print(o.action, "/", o.open_cards)
    knock Tc with 3c 3d 3h, 4c 4d 4h, 5c 5d 5h / 3
    knock Tc with 3c 4c 5c, 3d 4d 5d, 3h 4h 5h / 6
    """
    held = mask_of(hand)
    seen = held | mask_of(discard_pile)
    out = []
    for a in legal:
        if a.verb not in ("knock", "gin") or a.card is None:
            continue
        rest = held & ~(1 << bit(a.card))
        for melds, dead in arrangements_of(rest, 0 if a.verb == "gin" else limit):
            reach = 0
            for m in melds:
                reach |= extension_bits(m)
            shown = tuple(tuple(sorted(cards_of(m), key=lambda c: (c.rank, c.suit)))
                          for m in melds)
            out.append(KnockOption(
                Action(a.verb, a.card, melds=shown), shown, tuple(cards_of(dead)),
                sum(VALUES[b] for b in bits_of(dead)),
                0 if a.verb == "gin" else len(bits_of(reach & ~seen))))
    out.sort(key=lambda o: (o.deadwood_points, o.open_cards))
    return out


# ---------------------------------------------------------------------------
# Role draw (G-2)


def draw_roles(rng: random.Random, players: int = 3) -> tuple[tuple[int, int, int],
                                                              list[tuple[Card, ...]]]:
    """Each player takes a random card; highest rank is the box, middle the
    captain, lowest the advisor; any tie of ranks draws again (G-2).

    Returns ((box, captain, advisor) seats, every draw made).

    >>> roles, draws = draw_roles(random.Random(5))
    >>> sorted(roles), len(draws[-1])
    ([0, 1, 2], 3)
    """
    draws: list[tuple[Card, ...]] = []
    pack = list(deck(1, 0))
    while True:
        drawn = tuple(rng.sample(pack, players))
        draws.append(drawn)
        ranks = [c.rank for c in drawn]
        if len(set(ranks)) == players:
            order = sorted(range(players), key=lambda s: -ranks[s])
            return (order[0], order[1], order[2]), draws


# ---------------------------------------------------------------------------
# Values the observations carry


@dataclass(frozen=True, slots=True)
class Advice:
    """A suggestion from the advisor (a seat) for the captain's decision now."""

    seat: int
    action: Action
    reason: str = ""

    def __str__(self) -> str:
        return f"{self.action}" + (f" ({self.reason})" if self.reason else "")


@dataclass(frozen=True, slots=True)
class KnockView:
    """What is face up after a knock: the knocker's melds (with the cards
    laid off so far) and deadwood."""

    knocker: int
    melds: tuple[tuple[Card, ...], ...]
    deadwood: tuple[Card, ...]
    deadwood_points: int
    layoffs: tuple[tuple[Card, tuple[Card, ...]], ...]
    discard: Card


@dataclass(frozen=True, slots=True)
class HandResult:
    """How a hand ended, everything laid out face up (public after the hand).

    ``kind`` is ``"gin"``, ``"knock"``, ``"undercut"`` or ``"draw"``.
    """

    number: int
    box: int
    captain: int
    advisor: int
    kind: str
    knocker: int | None = None
    defender: int | None = None
    knocker_melds: tuple[Meld, ...] = ()
    knocker_deadwood: tuple[Card, ...] = ()
    knocker_points: int = 0
    defender_melds: tuple[Meld, ...] = ()
    defender_deadwood: tuple[Card, ...] = ()
    defender_points: int = 0
    layoffs: tuple[tuple[Card, tuple[Card, ...]], ...] = ()
    winner: int | None = None
    points: int = 0
    sentences: tuple[str, ...] = ()

    def explain(self) -> str:
        """The result in plain sentences."""
        return " ".join(self.sentences)

    def explain_layoffs(self, players: Sequence[str], viewer: int | None = None) -> list[str]:
        """One sentence per lay-off, told to ``viewer``: "5h lays off on your
        6h-7h-8h" for the knocker, "... on Ana's 6h-7h-8h" for anyone else.

        >>> from rummy.cards import cards
        >>> r = HandResult(1, 0, 1, 2, "knock", knocker=0, defender=1,
        ...                layoffs=((cards("5h")[0], cards("6h 7h 8h")),))
        >>> r.explain_layoffs(["Ana", "Ben", "Cleo"], viewer=0)
        ['5h lays off on your 6h-7h-8h']
        >>> r.explain_layoffs(["Ana", "Ben", "Cleo"])
        ["5h lays off on Ana's 6h-7h-8h"]
        """
        whose = "your" if viewer is not None and viewer == self.knocker else (
            f"{players[self.knocker]}'s" if self.knocker is not None else "the")
        return [f"{c} lays off on {whose} {_meld_text(m)}" for c, m in self.layoffs]


@dataclass(slots=True)
class Knock:
    """A knock in progress (the engine's own record; observations carry a
    :class:`KnockView`): who knocked, who defends, the arrangement laid out,
    the discard, the knocker's melds as they stand (lay-offs added) and the
    lay-offs so far (card, the meld as it was before)."""

    knocker: int
    defender: int
    arrangement: Arrangement
    discard: Card
    melds: list[tuple[Card, ...]]
    layoffs: list[tuple[Card, tuple[Card, ...]]] = field(default_factory=list)
    gin: bool = False


@dataclass(frozen=True, slots=True)
class KnockOption:
    """One way to lay out a knock (G-8a), as the knocker sees it: the action
    that names it, the melds, the deadwood and its points, and ``open_cards``:
    how many cards the knocker has not seen (not in their hand, not in the
    discard pile) could be laid off onto these melds, one step at a time.
    The defender's hand is never used, so listing the options tells nothing
    hidden."""

    action: Action
    melds: tuple[tuple[Card, ...], ...]
    deadwood: tuple[Card, ...]
    deadwood_points: int
    open_cards: int

    def describe(self) -> str:
        """The option in a sentence written to the knocker."""
        shown = " ".join(f"[{_meld_text(m)}]" for m in self.melds) or "no melds"
        if self.action.verb == "gin":
            return f"{shown}: gin, nothing can be laid off on it (G-7)"
        opens = ("no card you haven't seen fits them" if not self.open_cards else
                 f"{self.open_cards} card{'s' if self.open_cards != 1 else ''} you haven't seen "
                 "could be laid off on them")
        return (f"{shown}, deadwood {format_cards(self.deadwood) or 'none'} = "
                f"{self.deadwood_points}; {opens}")


@dataclass(frozen=True)
class GinObservation(Observation):
    """What one seat may see (never another player's hidden cards).

    ``log`` holds the sentences of the previous hand and this one (the
    whole game's log is ``state.log``), so observing stays cheap in long
    games.  The box sees its own hand; the captain sees theirs; the advisor holds no
    cards and sees the captain's hand in ``partner_hand`` (decided, see the
    module docstring).  ``advice`` is the advisor's pending suggestion, in
    the captain's and the advisor's view only.  ``layoff_plan`` (the
    defender's best lay-offs, as actions) and ``layoff_hint`` are only in the
    defender's view.  ``taken`` lists, per seat, the cards that seat took
    from the discard pile this hand (face-up, so public).  ``options`` are
    the game's options with defaults filled in.
    """

    variant: Variant
    player: int
    players: tuple[str, ...]
    phase: str
    legal_actions: tuple[Action, ...]
    hand: tuple[Card, ...]
    scores: tuple[int, ...]
    log: tuple[str, ...]
    roles: tuple[str, ...]
    current_player: int | None
    hand_number: int
    discard_pile: tuple[Card, ...]
    stock_size: int
    hand_sizes: tuple[int, ...]
    taken: tuple[tuple[Card, ...], ...]
    turns: int
    options: dict[str, Any] = field(default_factory=dict)
    just_taken: Card | None = None
    partner_hand: tuple[Card, ...] = ()
    advice: Advice | None = None
    knock: KnockView | None = None
    layoff_plan: tuple[Action, ...] = ()
    layoff_hint: str = ""
    last_result: HandResult | None = None
    packs: int = 1
    #: the meld rules (G-1: aces low, no wilds), as every family's observation has them
    rules: MeldRules = MeldRules()

    number_field: ClassVar[str] = "hand_number"

    @property
    def hand_in_play(self) -> tuple[Card, ...]:
        """Own hand, or the captain's for the advisor (who holds no cards)."""
        return self.hand or self.partner_hand

    def discards_seen(self) -> list[Card]:
        """The whole discard pile (public)."""
        return list(self.discard_pile)

    @property
    def role(self) -> str:
        """This player's role: ``"box"``, ``"captain"`` or ``"advisor"``."""
        return self.roles[self.player]

    @property
    def box(self) -> int:
        """The box player's seat."""
        return self.roles.index("box")

    @property
    def captain(self) -> int:
        """The captain's seat."""
        return self.roles.index("captain")

    @property
    def advisor(self) -> int:
        """The advisor's seat."""
        return self.roles.index("advisor")

    @property
    def target(self) -> int:
        """Points that win the game (G-13)."""
        return int(self.options["target"])

    @property
    def knock_limit(self) -> int:
        """The most deadwood a knocker may keep (G-6)."""
        return self.variant.knock_limit

    @property
    def upcard(self) -> Card | None:
        """The top card of the discard pile."""
        return self.discard_pile[-1] if self.discard_pile else None

    def knock_options(self) -> list[KnockOption]:
        """The distinct ways this player may knock or go gin now, each with
        the action that names its arrangement (G-8a; see
        :func:`knock_options`).  Empty unless this player is to discard."""
        if self.is_over or self.phase != "discard" or self.current_player != self.player:
            return []
        return knock_options(self.hand, self.discard_pile, self.legal_actions, self.knock_limit)

    @property
    def opponent(self) -> int | None:
        """The seat this player plays against (None for the advisor)."""
        if self.player == self.box:
            return self.captain
        if self.player == self.captain:
            return self.box
        return None


# ---------------------------------------------------------------------------
# The game


def _meld_text(cards_: Iterable[Card]) -> str:
    return "-".join(str(c) for c in sorted(cards_, key=lambda c: (c.rank, c.suit)))


class GinGame(Engine, family="gin"):
    """A game of ``gin_three``: hands until somebody reaches the target."""

    def __init__(self, variant: Variant, players: tuple[str, ...], seed: int | None,
                 options: dict[str, Any]) -> None:
        self.variant = variant
        self.players = players
        self.seed: int = self.draw_seed(seed)  # drawn when None and saved: load and undo replay
        self.options = dict(options)
        opts = variant.resolve(**options)
        self._resolved = opts
        self.gin_bonus: int = opts["gin_bonus"]
        self.undercut_bonus: int = opts["undercut_bonus"]
        self.target: int = opts["target"]
        self.rules: MeldRules = variant.meld_rules(**options)
        self.knock_limit = variant.knock_limit
        self.hand_cards = variant.hand_cards
        self.rng = random.Random(self.seed)
        self.log: list[str] = []
        self._hand_starts: list[int] = [0]  # where each hand's lines start in the log
        self.history: list[tuple[int, Action]] = []
        self.scores: list[int] = [0, 0, 0]
        self.hand_scores: list[list[int]] = []
        self.hands_won: list[int] = [0, 0, 0]
        self.results: list[HandResult] = []
        self.number = 0
        self.hands: dict[int, list[Card]] = {}
        self.taken: dict[int, list[Card]] = {}
        self.stock = Stock()
        self.discards: list[Card] = []
        self.phase = "upcard"
        self.turn: int = 0
        self.turns = 0
        self.just_taken: Card | None = None
        self._upcard_offers = 0
        self._stock_only = False
        self._knock: Knock | None = None
        self._advice: Advice | None = None
        #: the expert advisor bot's memory of this hand (rummy.bots.gin.advice)
        self.advisor_memory: dict[str, Any] = {}
        self._version = 0
        self._legal_cache: tuple[int, list[Action]] | None = None
        self.setups: list[dict[str, Any]] = []
        (self.box, self.captain, self.advisor), draws = draw_roles(self.rng)
        for i, d in enumerate(draws):
            text = ", ".join(f"{self.players[s]} {c}" for s, c in enumerate(d))
            if i < len(draws) - 1:
                self.log.append(f"Role draw: {text}; two cards share a rank, so all draw again (G-2).")
            else:
                self.log.append(
                    f"Role draw: {text}. {self.players[self.box]} (highest) is in the box, "
                    f"{self.players[self.captain]} (middle) is captain, "
                    f"{self.players[self.advisor]} (lowest) sits out and may help the captain "
                    "(G-2).")
        self._deal()

    # -- roles --------------------------------------------------------------
    def role_of(self, seat: int) -> str:
        """``"box"``, ``"captain"`` or ``"advisor"``."""
        if seat == self.box:
            return "box"
        return "captain" if seat == self.captain else "advisor"

    @property
    def roles(self) -> tuple[str, ...]:
        """Each seat's role."""
        r = ["advisor", "advisor", "advisor"]
        r[self.box] = "box"
        r[self.captain] = "captain"
        return tuple(r)

    def _other(self, seat: int) -> int:
        return self.captain if seat == self.box else self.box

    # -- dealing ------------------------------------------------------------
    def _deal(self) -> None:
        self.number += 1
        if self.number > 1:
            self._hand_starts.append(len(self.log))
        n = self.players
        self._hand_start = len(self.history)
        self._log_start = len(self.log)
        self.log.append(
            f"Hand {self.hand_number}: {n[self.box]} is in the box, {n[self.captain]} is "
            f"captain, {n[self.advisor]} sits out and may help the captain.")
        # the same as table.make_shoe(1, 0, rng), without rebuilding the pack each hand
        shoe = list(CARDS)
        self.rng.shuffle(shoe)
        self.stock = Stock(shoe)
        first, second = deal(self.stock, 2, self.hand_cards)  # non-dealer first
        # hands are kept in card order (suit, then rank) so observing is cheap
        self.hands = {self.captain: sorted(first, key=bit), self.box: sorted(second, key=bit)}
        self.taken = {self.captain: [], self.box: []}
        self.discards = [self.stock.draw()]
        self.log.append(
            f"{n[self.box]} deals {self.hand_cards} cards each to {n[self.box]} and "
            f"{n[self.captain]} and turns up {self.discards[-1]}; {len(self.stock)} cards "
            "form the stock (G-3).")
        self._first_turn()

    def _first_turn(self) -> None:
        """The hand just dealt starts: the captain is offered the upcard (G-4)."""
        self.phase = "upcard"
        self.turn = self.captain
        self.turns = 0
        self.just_taken = None
        self._upcard_offers = 0
        self._stock_only = False
        self._knock = None
        self._advice = None

    # -- a chosen position (lessons, guided hands, drills) -----------------------
    def arrange(
        self,
        box: Sequence[Card | str] | str,
        captain: Sequence[Card | str] | str,
        upcard: Card | str,
        stock_top: Sequence[Card | str] | str = (),
        *,
        roles: Sequence[int] | None = None,
    ) -> None:
        """Replace the current deal by a chosen position (for lessons, guided
        hands, drills and tests).

        Allowed at the start of a hand, before anybody has acted in it.
        ``box`` and ``captain`` are the two hands of 10 cards, ``upcard`` the
        card turned up (G-3), ``stock_top`` the next cards of the stock (first
        drawn first); the rest of the pack is shuffled under them with the
        game's own RNG.  ``roles`` seats the box, the captain and the advisor
        (three seats; default: as they are).  The position is saved with the
        game (``to_json``), so loading, replay and undo keep it.

        >>> from rummy import new_game, load_game
        >>> g = new_game("gin_three", players=["Ana", "Ben", "Cleo"], seed=3)
        >>> g.arrange("2c 3c 4c 5d 5h 5s 9h 9d 9s Kc", "Ah 2h 3h 7c 7d 7s Jh Jd Qs Ks", "Kd",
        ...           stock_top="6c", roles=(0, 1, 2))
        >>> g.apply("pass"); g.apply("pass"); g.apply("draw stock")
        >>> g.phase, Card.parse("6c") in g.hands[1]
        ('discard', True)
        >>> load_game(g.to_json()).log == g.log
        True
        """
        self._arrange({
            "roles": list((self.box, self.captain, self.advisor) if roles is None else roles),
            "box": format_cards(as_cards(box)),
            "captain": format_cards(as_cards(captain)),
            "upcard": format_cards(as_cards(upcard)),
            "stock_top": format_cards(as_cards(stock_top)),
        })

    def _apply_setup(self, setup: dict[str, Any]) -> None:
        roles = setup.get("roles")
        if (not isinstance(roles, list) or sorted(roles) != [0, 1, 2]
                or not all(type(r) is int for r in roles)):
            raise GameError(f"roles are the seats of the box, the captain and the advisor, "
                            f"each of 0, 1, 2 once, not {roles!r}")
        box_hand = list(as_cards(setup.get("box", "")))
        cap_hand = list(as_cards(setup.get("captain", "")))
        for who, hand in (("box", box_hand), ("captain", cap_hand)):
            if len(hand) != self.hand_cards:
                raise GameError(f"the {who} is dealt {self.hand_cards} cards (G-3), "
                                f"not {len(hand)}")
        up = list(as_cards(setup.get("upcard", "")))
        if len(up) != 1:
            raise GameError(f"one card is turned up (G-3), not {len(up)}")
        top = list(as_cards(setup.get("stock_top", "")))
        used = box_hand + cap_hand + up + top
        seen: set[Card] = set()
        twice = sorted({c for c in used if c in seen or seen.add(c)}, key=bit)  # type: ignore[func-returns-value]
        if twice:
            raise GameError("one pack holds each card once (G-1); given twice: "
                            + format_cards(twice))
        rest = [c for c in CARDS if c not in seen]
        self.rng.shuffle(rest)
        # every check passed: lay the position
        self.box, self.captain, self.advisor = roles
        del self.log[self._log_start:]  # the seed's own deal of this hand is not told
        n = self.players
        self.log.append(
            f"Hand {self.hand_number}: {n[self.box]} is in the box, {n[self.captain]} is "
            f"captain, {n[self.advisor]} sits out and may help the captain.")
        self.stock = Stock(rest + list(reversed(top)))
        self.hands = {self.captain: sorted(cap_hand, key=bit), self.box: sorted(box_hand, key=bit)}
        self.taken = {self.captain: [], self.box: []}
        self.discards = up
        self.log.append(
            f"{n[self.box]} deals a chosen hand: {self.hand_cards} cards each to {n[self.box]} "
            f"and {n[self.captain]}, and turns up {self.discards[-1]}; {len(self.stock)} cards "
            "form the stock (G-3).")
        self._first_turn()
        self.advisor_memory = {}
        self._version += 1
        self._legal_cache = None

    # -- the common API -------------------------------------------------------
    low_wins = False  # G-13: the first to reach the target wins
    observation = GinObservation
    row_name = "hand"

    @classmethod
    def _create(cls, variant: Variant, players: Any, seed: int | None,
                options: Any) -> GinGame:
        variant.resolve(**options)
        return cls(variant, player_names(players, variant), seed, dict(options))

    @property
    def hand_number(self) -> int:
        """The hand being played; the same as :attr:`number`."""
        return self.number

    @property
    def current_player(self) -> int | None:
        """The seat to act (the box or the captain), None when the game is over."""
        return None if self.is_over else self.turn

    def to_act(self) -> list[int]:
        """Seats that must act now: ``[current_player]``, or ``[]`` at the end."""
        return [] if self.is_over else [self.turn]

    def legal_actions(self, player: int | str | None = None) -> list[Action]:
        """The moves ``player`` (default: the player to act) may make now."""
        player = self.current_player if player is None else self._seat(player)
        if self.is_over or player != self.turn:
            return []
        return list(self._legal())

    def _legal(self) -> list[Action]:
        """The cached legal moves of the player to act (do not modify)."""
        cached = self._legal_cache
        if cached is not None and cached[0] == self._version:
            return cached[1]
        out = self._legal_now()
        self._legal_cache = (self._version, out)
        return out

    def _legal_now(self) -> list[Action]:
        hand = self.hands[self.turn]
        if self.phase == "upcard":
            return [_TAKE_UPCARD, _PASS]
        if self.phase == "draw":
            if self._stock_only:
                return [_DRAW_STOCK]
            return [_DRAW_STOCK, _DRAW_DISCARD]
        if self.phase == "discard":
            m = mask_of(hand)
            keep = -1 if self.just_taken is None else bit(self.just_taken)
            bits = []
            x = m
            while x:
                low = x & -x
                b = low.bit_length() - 1
                if b != keep:
                    bits.append(b)
                x ^= low
            out = [_DISCARD_ACTION[b] for b in bits]
            # dw(hand - c) >= dw(hand) - value(c) >= floor(hand) - value(c):
            # skip the exact search when no discard can make a knock
            if deadwood_floor(m) - 10 > self.knock_limit:
                return out
            floor = mask_penalty(m) - self.knock_limit
            for b in bits:
                if VALUES[b] >= floor:
                    v = mask_penalty(m ^ (1 << b))
                    if v == 0:
                        out.append(_GIN_ACTION[b])
                    elif v <= self.knock_limit:
                        out.append(_KNOCK_ACTION[b])
            return out
        if self.phase == "lay off":
            return self._layoff_actions()
        return []

    def _over_text(self) -> str:
        w = self.winner
        return f"the game is over: {self.players[w if w is not None else 0]} reached {self.target}"

    def _legal_move(self, a: Action, player: int, said: Action | str) -> Action:
        if player != self.turn:
            who = self.players[self.turn]
            extra = (" The advisor never plays; suggest a move with advise()."
                     if player == self.advisor else "")
            raise GameError(f"it is {who}'s turn ({self.role_of(self.turn)}), not "
                            f"{self.players[player]}'s ({self.role_of(player)}).{extra}")
        if a.verb == "lay off" and self._knock is not None and a.onto:
            # any spelling of the meld (its cards in any order, or the meld as it
            # was before earlier lay-offs) means the meld as it stands now
            i = self._find_meld(a.onto)
            if i is not None:
                a = Action("lay off", a.card, self._knock.melds[i])
        legal = self._legal()
        if a.melds and a.verb in ("knock", "gin") and a.card is not None and not a.onto:
            plain = Action(a.verb, a.card)
            if plain not in legal:
                raise GameError(self._why_illegal(plain, list(legal)))
            why = self._why_not_named(player, a)
            if why is not None:
                raise GameError(f"{a}: {why}")
            a = Action(a.verb, a.card, melds=tuple(
                tuple(sorted(m, key=lambda c: (c.rank, c.suit))) for m in a.melds))
        elif a not in legal:  # the bots hand back the very objects: identity is quick
            raise GameError(self._why_illegal(a, list(legal)))
        return a

    def _make_move(self, a: Action, player: int) -> None:
        self._advice = None
        self._version += 1
        self._legal_cache = None
        self._do(player, a)

    def _why_illegal(self, a: Action, legal: list[Action]) -> str:
        allowed = ", ".join(dict.fromkeys(
            f"{x.verb} <card>" if x.card is not None and x.verb != "lay off" else str(x)
            for x in legal))
        head = f"{a!s} is not allowed now ({self.phase} phase)"
        hand = self.hands.get(self.turn, [])
        if a.card is not None and self.phase == "discard":
            if a.card not in hand:
                head = f"{a.card} is not in your hand"
            elif a.card == self.just_taken:
                head = (f"you can't throw back {a.card}, the card you just took from the "
                        "discard pile (G-5)")
            elif a.verb in ("knock", "gin"):
                rest = [c for c in hand if c != a.card]
                dw = deadwood(rest)
                if a.verb == "knock" and dw == 0:
                    head = f"discarding {a.card} leaves no deadwood: that is gin, write 'gin {a.card}'"
                elif a.verb == "gin":
                    head = f"discarding {a.card} leaves {dw} points of deadwood, not 0 (G-7)"
                else:
                    head = (f"discarding {a.card} leaves {dw} points of deadwood; a knock "
                            f"needs {self.knock_limit} or less (G-6)")
        elif a.verb == "lay off" and self.phase == "lay off":
            head = self._why_not_layoff(a)
        elif a.verb == "draw discard" and self._stock_only:
            head = "both players passed the upcard, so the captain starts from the stock (G-4)"
        return f"{head}; allowed: {allowed}"

    # -- moves ----------------------------------------------------------------
    def _do(self, seat: int, a: Action) -> None:
        n = self.players[seat]
        role = self.role_of(seat)
        if self.phase == "upcard":
            up = self.discards[-1]
            if a.verb == "take upcard":
                self.discards.pop()
                insort(self.hands[seat], up, key=bit)
                self.taken[seat].append(up)
                self.just_taken = up
                self.phase = "discard"
                self.log.append(f"{n} ({role}) takes the upcard {up} (G-4).")
            else:
                self.turns += 1
                self._upcard_offers += 1
                self.log.append(f"{n} ({role}) passes the upcard {up}.")
                if self._upcard_offers == 1:
                    self.turn = self.box
                else:
                    self.turn = self.captain
                    self.phase = "draw"
                    self._stock_only = True
                    self.log.append("Both passed: the captain starts by drawing from the stock (G-4).")
                    self._check_stall()
            return
        if self.phase == "draw":
            if a.verb == "draw stock":
                insort(self.hands[seat], self.stock.draw(), key=bit)
                self.just_taken = None
                self.log.append(f"{n} ({role}) draws from the stock.")
            else:
                c = self.discards.pop()
                insort(self.hands[seat], c, key=bit)
                self.taken[seat].append(c)
                self.just_taken = c
                self.log.append(f"{n} ({role}) takes {c} from the discard pile.")
            self._stock_only = False
            self.phase = "discard"
            return
        if self.phase == "discard":
            card = a.card
            assert card is not None
            hand = self.hands[seat]
            i = bisect_left(hand, bit(card), key=bit)  # hands are kept in card order
            assert hand[i] == card, "a hand lost its card order"
            del hand[i]
            self.discards.append(card)
            self.just_taken = None
            self.turns += 1
            if a.verb == "discard":
                self.log.append(f"{n} ({role}) discards {card}.")
                self.turn = self._other(seat)
                self.phase = "draw"
                if len(self.stock) <= DRAW_STOCK_LEFT:
                    self.log.append(
                        f"Only {len(self.stock)} cards are left in the stock and nobody "
                        "knocked: the hand is a draw (G-12).")
                    self._end_hand(self._result(kind="draw"))
                    return
                self._check_stall()
                return
            self._start_knock(seat, card, gin=a.verb == "gin", named=a.melds)
            return
        if self.phase == "lay off":
            if a.verb == "lay off":
                self._lay_off(seat, a)
            else:
                self._finish_knock()
            return
        raise AssertionError(self.phase)  # pragma: no cover

    def _check_stall(self) -> None:
        if self.phase in ("draw", "upcard") and self.turns >= STALL_TURNS:
            self.log.append(f"Nobody knocked in {STALL_TURNS} turns: the hand is a draw (TT-12).")
            self._end_hand(self._result(kind="draw"))

    # -- knocking and laying off ------------------------------------------------
    def _start_knock(self, seat: int, card: Card, gin: bool,
                     named: tuple[tuple[Card, ...], ...] = ()) -> None:
        defender = self._other(seat)
        n = self.players
        arr = self._knock_arrangement(seat, named)
        melds = [tuple(sorted(m.cards, key=lambda c: (c.rank, c.suit))) for m in arr.melds]
        self._knock = Knock(seat, defender, arr, card, melds, [], gin)
        shown = " ".join(f"[{_meld_text(m)}]" for m in melds) or "no melds"
        if gin:
            self.log.append(f"{n[seat]} ({self.role_of(seat)}) goes gin, discarding {card}: "
                            f"{shown} (G-7).")
            self._finish_knock()
            return
        self.log.append(
            f"{n[seat]} ({self.role_of(seat)}) knocks, discarding {card}: {shown}; deadwood "
            f"{format_cards(arr.deadwood)} = {arr.penalty} (G-6).")
        self.turn = defender
        self.phase = "lay off"
        if not self._layoff_actions_raw()[0]:
            self._finish_knock()

    def _knock_arrangement(self, seat: int, named: tuple[tuple[Card, ...], ...]) -> Arrangement:
        """The arrangement a knocker lays out (G-8a): the one named with the
        knock, else the one with the best result for the knocker after the
        defender's best lay-offs (ties: less deadwood, then the solver's
        lowest-deadwood arrangement)."""
        hand = self.hands[seat]
        if named:
            used = set().union(*named)
            kept = tuple(c for c in hand if c not in used)
            return Arrangement(tuple(Meld.of(m, self.rules) for m in named), kept,
                               sum(VALUES[bit(c)] for c in kept))
        default = best_arrangement(hand, self.rules)
        if not default.deadwood:  # gin: nothing can be laid off, every layout scores the same
            return default
        defender = mask_of(self.hands[self._other(seat)])
        default_melds = frozenset(mask_of(m.cards) for m in default.melds)
        memo: dict[Any, Any] = {}
        best: tuple[int, int, int] | None = None
        chosen: tuple[tuple[int, ...], int] | None = None
        for melds, dead in arrangements_of(mask_of(hand), self.knock_limit):
            kp = sum(VALUES[b] for b in bits_of(dead))
            dp = best_layoffs_masks(defender, melds, memo)[0]
            value = dp - kp if kp < dp else -(self.undercut_bonus + kp - dp)
            key = (value, -kp, frozenset(melds) == default_melds)
            if best is None or key > best:
                best, chosen = key, (melds, dead)
        assert chosen is not None and best is not None
        if best[2]:
            return default
        melds, dead = chosen
        return Arrangement(tuple(Meld.of(cards_of(m), self.rules) for m in melds),
                           tuple(cards_of(dead)), sum(VALUES[b] for b in bits_of(dead)))

    def _why_not_named(self, seat: int, a: Action) -> str | None:
        """Why the melds named with a knock can't be laid out (None: they can)."""
        assert a.card is not None
        rest = mask_of(self.hands[seat]) & ~(1 << bit(a.card))
        used = 0
        for meld in a.melds:
            try:
                m = mask_of(meld)
            except GameError as e:
                return str(e)
            if m not in MELD_MASKS:
                return (f"{format_cards(meld)} is not a meld: gin melds are sets of 3 or 4 cards "
                        "of one rank and runs of 3 or more cards of one suit, aces low (G-1)")
            if m & ~rest:
                return (f"{format_cards(cards_of(m & ~rest))} is not in your hand after you "
                        f"discard {a.card}")
            if m & used:
                return f"{format_cards(cards_of(m & used))} is named in two melds (M-3)"
            used |= m
        dead = rest & ~used
        points = sum(VALUES[b] for b in bits_of(dead))
        if a.verb == "gin" and points:
            return (f"laid out like this you keep {format_cards(cards_of(dead))} = {points} "
                    "points of deadwood; gin keeps none (G-7)")
        if points > self.knock_limit:
            return (f"laid out like this you keep {format_cards(cards_of(dead))} = {points} "
                    f"points of deadwood; a knock keeps at most {self.knock_limit} (G-6)")
        return None

    def knock_options(self, player: int | None = None) -> list[KnockOption]:
        """The distinct ways ``player`` (default: the player to act) may knock
        or go gin now, each with the action that names it (G-8a); the same
        as ``observe(player).knock_options()``.

        >>> from rummy import new_game
        >>> new_game("gin_three", seed=4).knock_options()   # the upcard is on offer: no knock
        []
        """
        seat = self.turn if player is None else player
        if self.is_over or self.phase != "discard" or seat != self.turn:
            return []
        return knock_options(self.hands[seat], self.discards, self._legal(), self.knock_limit)

    def _layoff_actions_raw(self) -> tuple[list[Action], bool]:
        """(optimal lay-offs available now, whether stopping now is optimal)."""
        k = self._knock
        assert k is not None
        hand = mask_of(self.hands[k.defender])
        melds = tuple(mask_of(m) for m in k.melds)
        memo: dict[Any, Any] = {}
        best = best_layoffs_masks(hand, melds, memo)[0]
        out = []
        for i, m in enumerate(melds):
            ext = extension_bits(m) & hand
            while ext:
                b = ext & -ext
                ext ^= b
                sub = best_layoffs_masks(hand ^ b, melds[:i] + (m | b,) + melds[i + 1:], memo)
                if sub[0] == best:
                    out.append(Action("lay off", CARDS[b.bit_length() - 1], k.melds[i]))
        return out, mask_penalty(hand) == best

    def _layoff_actions(self) -> list[Action]:
        offs, can_stop = self._layoff_actions_raw()
        return offs + ([Action("lay out")] if can_stop else [])

    def _find_meld(self, onto: tuple[Card, ...]) -> int | None:
        k = self._knock
        assert k is not None
        want = set(onto)
        hits = [i for i, m in enumerate(k.melds) if want and want <= set(m)]
        return hits[0] if len(hits) == 1 else None

    def _why_not_layoff(self, a: Action) -> str:
        k = self._knock
        assert k is not None
        if a.card is None or a.card not in self.hands[k.defender]:
            return f"{a.card} is not in your hand"
        i = self._find_meld(a.onto)
        if i is None:
            return (f"{_meld_text(a.onto) or 'nothing'} is not one of the knocker's melds "
                    "(" + ", ".join(_meld_text(m) for m in k.melds) + ")")
        if not extension_bits(mask_of(k.melds[i])) & (1 << bit(a.card)):
            return f"{a.card} does not extend {_meld_text(k.melds[i])} (G-8)"
        return (f"laying off {a.card} would leave you more deadwood than your best play; "
                "the lay-offs offered keep your lowest count (M-7)")

    def _lay_off(self, seat: int, a: Action) -> None:
        k = self._knock
        assert k is not None and a.card is not None
        i = self._find_meld(a.onto)
        assert i is not None
        old = k.melds[i]
        new = tuple(sorted(old + (a.card,), key=lambda c: (c.rank, c.suit)))
        k.melds[i] = new
        k.layoffs.append((a.card, old))
        self.hands[seat].remove(a.card)
        self.log.append(f"{self.players[seat]} ({self.role_of(seat)}) lays off {a.card} onto "
                        f"the knocker's {_meld_text(old)} (G-8).")
        if not self._layoff_actions_raw()[0]:
            self._finish_knock()

    def layoff_hint(self) -> str:
        """The defender's best lay-offs in a sentence ("5h lays off on your
        6h-7h-8h ..."), or "" outside the lay-off phase."""
        if self.phase != "lay off" or self._knock is None:
            return ""
        return _hint(self._knock, self.hands[self._knock.defender], self.players)

    def _finish_knock(self) -> None:
        assert self._knock is not None
        self._end_hand(self._result(kind="knock"))

    # -- scoring --------------------------------------------------------------
    def _result(self, kind: str) -> HandResult:
        n = self.players
        base: dict[str, Any] = dict(number=self.hand_number, box=self.box,
                                    captain=self.captain, advisor=self.advisor)
        if kind == "draw":
            return HandResult(kind="draw", sentences=(
                f"Hand {self.hand_number} is a draw: nobody scores; {n[self.box]} deals again "
                "with the same roles (G-12).",), **base)
        k = self._knock
        assert k is not None
        knocker, defender = k.knocker, k.defender
        arr = k.arrangement
        kp = arr.penalty
        d_arr = best_arrangement(self.hands[defender], self.rules)
        dp = d_arr.penalty
        sentences = []
        layoffs = tuple(k.layoffs)
        if layoffs:
            sentences.append(f"{n[defender]} lays off " + ", ".join(
                f"{c} onto {_meld_text(m)}" for c, m in layoffs) + ".")
        sentences.append(
            f"{n[defender]} lays out " + (" ".join(f"[{_meld_text(m.cards)}]" for m in d_arr.melds)
                                          or "no melds")
            + f" with deadwood {format_cards(d_arr.deadwood) or 'none'} = {dp}.")
        if k.gin:
            kind, winner = "gin", knocker
            points = self.gin_bonus + dp
            sentences.append(f"{n[knocker]} went gin and scores {self.gin_bonus} + {dp} = "
                             f"{points}; {n[defender]} may not lay off and scores nothing (G-7).")
        elif kp < dp:
            kind, winner = "knock", knocker
            points = dp - kp
            sentences.append(f"{n[knocker]} knocked with {kp} against {dp} and scores "
                             f"{dp} - {kp} = {points} (G-9).")
        else:
            kind, winner = "undercut", defender
            points = self.undercut_bonus + kp - dp
            sentences.append(
                f"{n[defender]} undercuts {n[knocker]} ({dp} against {kp}, "
                f"{'equal' if kp == dp else 'lower'}) and scores {self.undercut_bonus} + "
                f"{kp - dp} = {points} (G-9).")
        return HandResult(
            kind=kind, knocker=knocker, defender=defender, knocker_melds=arr.melds,
            knocker_deadwood=arr.deadwood, knocker_points=kp, defender_melds=d_arr.melds,
            defender_deadwood=d_arr.deadwood, defender_points=dp, layoffs=layoffs,
            winner=winner, points=points, sentences=tuple(sentences), **base)

    def _end_hand(self, result: HandResult) -> None:
        self.results.append(result)
        row = [0, 0, 0]
        n = self.players
        if result.kind != "draw":
            # lay-offs are already in the log, one sentence each
            self.log.extend(s for s in result.sentences if not s.startswith(
                f"{n[result.defender or 0]} lays off "))
            assert result.winner is not None
            row[result.winner] = result.points
            self.scores[result.winner] += result.points
            self.hands_won[result.winner] += 1
        self.hand_scores.append(row)
        self._knock = None
        self._advice = None
        if result.kind == "draw":
            self.log.append(result.sentences[0])
        if result.winner is not None and self.scores[result.winner] >= self.target:
            w = result.winner
            self.phase = "over"
            self.log.append(f"{n[w]} reaches {self.scores[w]} points (target {self.target}) "
                            "and wins the game (G-13). Totals: " + ", ".join(
                                f"{n[s]} {self.scores[s]}" for s in range(3)) + ".")
            return
        if result.kind != "draw":
            if result.winner == self.box:
                self.captain, self.advisor = self.advisor, self.captain
                self.log.append(
                    f"{n[self.box]} won from the box and stays there; the others swap: "
                    f"{n[self.captain]} is captain, {n[self.advisor]} sits out and may help "
                    "the captain (G-11).")
            else:
                self.box, self.captain, self.advisor = self.captain, self.advisor, self.box
                self.log.append(
                    f"The box lost: {n[self.advisor]} sits out, {n[self.box]} goes into the "
                    f"box and {n[self.captain]} becomes captain (G-11).")
        self._deal()

    # -- the advisor channel ------------------------------------------------------
    def advise(self, action: Action | str, player: int | None = None, reason: str = "") -> Advice:
        """The advisor suggests ``action`` for the captain's decision now (G-2).

        Raises :class:`GameError` if ``player`` is not the advisor, if the
        captain is not to act, or if the move is not legal for the captain.
        The captain's observation carries the advice until the captain moves.
        """
        if player is None:
            player = self.advisor
        if self.is_over:
            raise GameError("the game is over; there is nothing to advise")
        if player != self.advisor:
            raise GameError(f"only the advisor ({self.players[self.advisor]}) advises; "
                            f"{self.players[player]} is the {self.role_of(player)}")
        if self.turn != self.captain:
            raise GameError(f"the advisor advises the captain, but now {self.players[self.turn]} "
                            f"({self.role_of(self.turn)}) is to act")
        a = Action.parse(action)
        legal = self.legal_actions(self.captain)
        if a not in legal:
            raise GameError("advice must be a move the captain may make: " + self._why_illegal(a, legal))
        self._advice = Advice(player, a, reason)
        return self._advice

    def advice(self, bot: str = "expert", seed: int | None = None) -> Advice:
        """A bot advisor's suggestion, with its reason, for the captain's
        decision now (when the learner is the captain).

        The bot sees what the advisor may see: the captain's hand and the
        public table.  The advice is recorded as if the advisor had given it.
        This is :func:`rummy.bots.gin.advice` (kept here as a method).
        """
        from rummy.bots.gin import advice  # the bots own advice; imported on use only

        return advice(self, bot=bot, seed=seed)

    # -- observation --------------------------------------------------------------
    def observe(self, player: int | str) -> GinObservation:
        """What seat ``player`` (a seat or a name) may see (see :class:`GinObservation`)."""
        player = self._seat(player)
        own = tuple(self.hands.get(player, ())) if player != self.advisor else ()
        partner = tuple(self.hands[self.captain]) if player == self.advisor else ()
        team = player in (self.captain, self.advisor)
        knock = None
        plan: tuple[Action, ...] = ()
        hint = ""
        if self._knock is not None and self.phase == "lay off":
            k = self._knock
            arr = k.arrangement
            knock = KnockView(k.knocker, tuple(k.melds), arr.deadwood, arr.penalty,
                              tuple(k.layoffs), k.discard)
            if player == k.defender or (player == self.advisor and k.defender == self.captain):
                plan = _plan_actions(best_layoffs(self.hands[k.defender], k.melds),
                                     k.melds)
                hint = _hint(k, self.hands[k.defender], self.players)
        sizes = [0, 0, 0]
        for s, h in self.hands.items():
            sizes[s] = len(h)
        sizes[self.advisor] = 0
        taken = self.taken
        return frozen_of(GinObservation, {
            "variant": self.variant,
            "player": player,
            "players": self.players,
            "phase": self.phase,
            "legal_actions": tuple(self.legal_actions(player)),
            "hand": own,
            "scores": tuple(self.scores),
            "log": tuple(self.log[self._hand_starts[max(0, len(self._hand_starts) - 2)]:]),
            "roles": self.roles,
            "current_player": self.current_player,
            "hand_number": self.hand_number,
            "discard_pile": tuple(self.discards),
            "stock_size": len(self.stock),
            "hand_sizes": tuple(sizes),
            "taken": (tuple(taken.get(0, ())), tuple(taken.get(1, ())), tuple(taken.get(2, ()))),
            "turns": self.turns,
            "options": dict(self._resolved),
            "just_taken": self.just_taken if player == self.turn else None,
            "partner_hand": partner,
            "advice": self._advice if team else None,
            "knock": knock,
            "layoff_plan": plan,
            "layoff_hint": hint,
            "last_result": self.results[-1] if self.results else None,
            "packs": 1,
            "rules": self.rules,
        })

    # -- scores ---------------------------------------------------------------------
    def _score_rows(self) -> list[tuple[str, list[int]]]:
        """One row per hand (draws score 0)."""
        return [(f"Hand {i + 1}", list(r)) for i, r in enumerate(self.hand_scores)]

    def _went_out(self) -> list[int]:
        """Hands each seat won."""
        return list(self.hands_won)

    # -- saving, undo -------------------------------------------------------------------
    def _card_places(self) -> list[Sequence[Card]]:
        laid_off: list[Card] = []
        if self._knock is not None:
            laid_off = [c for c, _ in self._knock.layoffs]
        elif self.is_over and self.results:
            laid_off = [c for c, _ in self.results[-1].layoffs]
        return [self.stock.cards, self.discards, laid_off, *self.hands.values()]

    def _decks(self) -> tuple[int, int]:
        return 1, 0

    def _hidden_from(self, seat: int) -> tuple[list[Card], list[tuple[list[Card], int]]]:
        """The stock, and the opponent's cards not taken face up (the advisor
        sees the captain's hand; a knocker's hand is open)."""
        slots: list[tuple[list[Card], int]] = []
        knocker = self._knock.knocker if self._knock is not None else None
        for q, hand in self.hands.items():
            if q in (seat, knocker) or (seat == self.advisor and q == self.captain):
                continue
            slots += self._unknown_in(hand, self.taken.get(q, ()))
        return self.stock.cards, slots

    def _after_redeal(self) -> None:
        for hand in self.hands.values():
            hand.sort(key=bit)
        self._version += 1
        self._legal_cache = None

    def _check_more(self) -> None:
        """Only the box and the captain hold cards; hands have the size the
        phase gives them and stay in card order."""
        assert set(self.hands) == {self.box, self.captain}, "only the box and the captain hold cards"
        if self.is_over:
            return
        size = self.hand_cards
        for seat, hand in self.hands.items():
            want = size + 1 if seat == self.turn and self.phase == "discard" else size
            if self._knock is not None and seat == self._knock.defender:
                want = size - len(self._knock.layoffs)
            assert len(hand) == want, f"{self.players[seat]} holds {len(hand)} cards, not {want}"
            assert hand == sorted(hand, key=bit), "a hand lost its card order"
        assert self.turns <= STALL_TURNS + 2

    def __repr__(self) -> str:
        return (f"<GinGame hand {self.hand_number}, {self.phase}, scores "
                f"{dict(zip(self.players, self.scores))}>")


def _plan_actions(plan: LayoffPlan, melds: Sequence[tuple[Card, ...]]) -> tuple[Action, ...]:
    """The plan as actions, each onto the meld as it stands by then (chains)."""
    current = [tuple(m) for m in melds]
    out = []
    for c, i in plan.layoffs:
        out.append(Action("lay off", c, current[i]))
        current[i] = tuple(sorted(current[i] + (c,), key=lambda x: (x.rank, x.suit)))
    return tuple(out)


def _hint(k: Knock, hand: Sequence[Card], players: tuple[str, ...]) -> str:
    p = best_layoffs(hand, k.melds)
    if not p.layoffs:
        return (f"Nothing of yours lays off on {players[k.knocker]}'s melds; your best "
                f"deadwood is {p.deadwood}.")
    melds = [list(m) for m in k.melds]
    parts = []
    for c, i in p.layoffs:
        parts.append(f"{c} lays off on {_meld_text(melds[i])}")
        melds[i].append(c)
    return "; ".join(parts) + f"; that leaves you {p.deadwood} points of deadwood."
