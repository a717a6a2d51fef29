"""The five variants of RULES.md as frozen data, in one registry.

Code branches on a rule's value, never on a variant's name: "how many cards
in round 3", "what is wild", "what does an unmelded joker cost" are all
answered here.

>>> v = find_variant("3-13")
>>> v.name, v.hand_size(1), v.wild_rank(11)
('three_thirteen', 3, 13)
>>> v.meld_rules(round=1).wild_rank
3
>>> find_variant("canasta")
Traceback (most recent call last):
...
rummy.variants.VariantError: unknown variant 'canasta'; the variants are: three_thirteen, tre_tretton, three_thirteen_jokers, big_table, gin_three
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass, field
from typing import Any, Literal, get_args

from rummy.cards import rank_name
from rummy.errors import GameError
from rummy.melds import MeldRules

__all__ = ["FAMILIES", "Option", "Variant", "VariantError", "VARIANTS", "find_variant",
           "variant_names"]

Family = Literal["three_thirteen", "big_table", "gin"]
#: The game families.  A family's engine is the module ``rummy.<family>`` and its
#: bot strategy ``rummy.bots.<family>``: a new family adds its name here, its
#: engine module, its Variant entries below and its strategy module.
FAMILIES: tuple[str, ...] = get_args(Family)


class VariantError(GameError):
    """An unknown variant or option, or a bad option value; says what is valid."""


#: every MeldRules that Variant.meld_rules made, by value (see there)
_RULES_MADE: dict[MeldRules, MeldRules] = {}


@dataclass(frozen=True, slots=True)
class Option:
    """One option of a variant: its name, default and allowed values."""

    name: str
    default: Any
    choices: tuple[Any, ...]
    help: str

    def check(self, value: Any, variant: str) -> Any:
        """Return ``value`` if allowed, else raise :class:`VariantError`."""
        if value not in self.choices or type(value) is not type(self.default) and not (
            self.default is None or value is None
        ):
            allowed = ", ".join(repr(c) for c in self.choices)
            raise VariantError(
                f"{variant}: option {self.name}={value!r} is not allowed; "
                f"{self.name} is one of {allowed} ({self.help})"
            )
        return value


@dataclass(frozen=True, slots=True)
class Variant:
    """A frozen description of one variant's rules (RULES.md)."""

    name: str
    title: str
    family: Family
    source: str
    aliases: tuple[str, ...]
    min_players: int
    max_players: int
    default_players: int
    options: tuple[Option, ...]
    #: the rules of RULES.md this variant follows, in RULES.md's order (what
    #: ``python -m rummy rules`` lists and a learner practises for it)
    rule_ids: tuple[str, ...]
    summary: str
    rounds: int | None = 11
    #: cards dealt in round r is r + deal_offset (TT-1, BT-2)
    deal_offset: int = 2
    #: fixed number of packs, or None to use packs_for(players) (TT-11)
    fixed_packs: int | None = None
    min_naturals: int = 0
    #: unmelded wild of the round's rank: None = face value, else this (TJ-5)
    wild_penalty: int | None = None
    joker_penalty: int = 20
    #: gin only: cards dealt to each of the two players, knock limit, sets cap
    hand_cards: int = 10
    knock_limit: int = 10
    max_set_size: int | None = None
    wild_ranks: bool = True
    seats: tuple[str, ...] = field(default=())
    #: a round (a Big Table cycle count, a gin hand) ends after this many turns (TT-12)
    stall_turns: int = 200
    #: going out is not optional: a discard that leaves every card melded goes out (TJ-7)
    must_go_out: bool = False

    # -- options ---------------------------------------------------------
    def option(self, name: str) -> Option:
        """The option called ``name``, or a :class:`VariantError` listing them."""
        for o in self.options:
            if o.name == name:
                return o
        names = ", ".join(o.name for o in self.options) or "none"
        raise VariantError(f"{self.name} has no option {name!r}; its options are: {names}")

    def resolve(self, **options: Any) -> dict[str, Any]:
        """All options with defaults filled in; unknown names or bad values raise.

        >>> find_variant("three_thirteen_jokers").resolve(jokers=2)["jokers"]
        2
        >>> find_variant("tre_tretton").resolve(aces="high")
        Traceback (most recent call last):
        ...
        rummy.variants.VariantError: tre_tretton has no option 'aces'; its options are: discard_return
        """
        out = {o.name: o.default for o in self.options}
        for k, v in options.items():
            out[k] = self.option(k).check(v, self.name)
        return out

    def check_players(self, players: int, **options: Any) -> int:
        """Return ``players`` if this variant allows that many, else raise.

        A ``max_players`` option (``big_table``) raises the limit.

        >>> find_variant("big_table").check_players(16, max_players=16)
        16
        """
        top = self.max_players
        if any(o.name == "max_players" for o in self.options):
            top = max(top, int(self.resolve(**options).get("max_players") or top))
        if not isinstance(players, int) or not self.min_players <= players <= top:
            if self.min_players == top:
                allowed = f"exactly {self.min_players}"
            else:
                allowed = f"{self.min_players} to {top}"
            raise VariantError(f"{self.name} is for {allowed} players, not {players!r}")
        return players

    # -- rounds, wilds, packs ---------------------------------------------
    def hand_size(self, round: int) -> int:
        """Cards dealt to each player in round ``round`` (TT-1, BT-2)."""
        if self.rounds is None:
            return self.hand_cards
        self._check_round(round)
        return round + self.deal_offset

    def wild_rank(self, round: int) -> int | None:
        """The wild rank of round ``round``: the number of cards dealt (TT-2)."""
        if not self.wild_ranks:
            return None
        return self.hand_size(round)

    def _check_round(self, round: int) -> None:
        if self.rounds is not None and (not isinstance(round, int) or not 1 <= round <= self.rounds):
            raise VariantError(f"{self.name} has rounds 1 to {self.rounds}, not {round!r}")

    def packs_for(self, players: int, **options: Any) -> int:
        """How many 52-card packs the shoe holds (TT-11, BT-1, G-1)."""
        opts = self.resolve(**options)
        if "packs" in opts and opts["packs"] is not None:
            return int(opts["packs"])
        if self.fixed_packs is not None:
            return self.fixed_packs
        if players <= 2:
            return 1
        if players <= 4:
            return 2
        # fewest packs so the 13-card deal, the first discard and one stock
        # card per player fit (TT-11 [decided])
        biggest = self.hand_size(self.rounds or 1) if self.rounds else self.hand_cards
        need = players * biggest + 1 + players
        return -(-need // 52)

    def jokers(self, **options: Any) -> int:
        """Jokers in the shoe (TJ-2)."""
        return int(self.resolve(**options).get("jokers", 0))

    def meld_rules(self, round: int = 1, **options: Any) -> MeldRules:
        """The :class:`MeldRules` of round ``round`` with these options.

        >>> find_variant("tre_tretton").meld_rules(round=2).min_naturals
        1
        >>> find_variant("three_thirteen_jokers").meld_rules(5, aces="high").penalty_of(
        ...     __import__("rummy").Card.parse("As"))
        15
        """
        opts = self.resolve(**options)
        wild = self.wild_rank(round) if self.rounds else None
        aces = opts.get("aces", "low")
        rules = MeldRules(
            wild_rank=wild,
            jokers_wild=self.wild_ranks,
            aces=aces,
            min_naturals=self.min_naturals,
            wild_penalty=self.wild_penalty,
            joker_penalty=self.joker_penalty,
            max_set_size=self.max_set_size,
        )
        # the one value made first for these rules: the meld search keeps its
        # tables and answers by rules, and finds the same object at once (an
        # equal one costs a comparison of every field, at every lookup)
        if len(_RULES_MADE) >= 1024:
            _RULES_MADE.clear()
        return _RULES_MADE.setdefault(rules, rules)

    def rules_text(self) -> str:
        """A readable summary of this variant's rules (``python -m rummy rules``)."""
        lines = [f"{self.title} ({self.name})", "=" * len(f"{self.title} ({self.name})"), ""]
        lines += textwrap.wrap(self.summary, 76)
        lines.append("")
        if self.min_players == self.max_players:
            lines.append(f"Players: exactly {self.min_players}.")
        else:
            lines.append(f"Players: {self.min_players} to {self.max_players}.")
        if self.rounds:
            lines.append(f"Rounds: {self.rounds}; round r deals r + {self.deal_offset} cards.")
            wilds = ", ".join(
                f"{r}: {rank_name(self.wild_rank(r) or 1, plural=True)}" for r in range(1, 12)
            ) if self.wild_ranks else "none"
            lines.append("Wild rank by round: " + wilds + ".")
        if self.options:
            lines.append("Options:")
            for o in self.options:
                choices = ", ".join(repr(c) for c in o.choices)
                lines.append(f"  {o.name} (default {o.default!r}; one of {choices}): {o.help}")
        if self.aliases:
            lines.append("Also called: " + ", ".join(self.aliases) + ".")
        lines.append("Rules (docs/RULES.md): " + ", ".join(self.rule_ids) + ".")
        lines.append(f"Source text: docs/seeds/{self.source}")
        return "\n".join(lines)


_RETURN = Option(
    "discard_return", False, (False, True),
    "allow discarding the card just taken from the discard pile (TT-5)",
)
_TT_RULES = tuple(f"TT-{i}" for i in range(1, 13))
_CORE = ("C-1", "C-2", "C-3", "C-4", "M-1", "M-2", "M-3", "M-4", "M-4a", "M-5", "M-6", "M-7")

VARIANTS: dict[str, Variant] = {
    v.name: v
    for v in (
        Variant(
            name="three_thirteen",
            title="Three Thirteen",
            family="three_thirteen",
            source="002_a2148a1962b229ae.txt",
            aliases=("3-13", "three-thirteen", "3_13", "threethirteen"),
            min_players=2, max_players=12, default_players=4,
            options=(
                Option("aces", "low", ("low", "low_or_high"),
                       "aces low (1 point), or low and high (an unmelded ace costs 15)"),
                _RETURN,
            ),
            rule_ids=_CORE + _TT_RULES + ("TS-1", "TS-2"),
            summary=(
                "Eleven rounds; round r deals r+2 cards and the rank equal to the cards "
                "dealt is wild. Draw from the stock or the discard pile, then discard. "
                "Go out when every card but the discard is in melds; everyone else gets "
                "one more turn. Unmelded cards cost their face value; lowest total wins."
            ),
        ),
        Variant(
            name="tre_tretton",
            title="Tre-tretton",
            family="three_thirteen",
            source="001_5683459af2d6253f.txt",
            aliases=("tre-tretton", "swedish", "tretton"),
            min_players=2, max_players=4, default_players=4,
            options=(_RETURN,),
            rule_ids=_CORE + _TT_RULES + ("TR-1", "TR-2", "TR-3"),
            min_naturals=1,
            summary=(
                "The Swedish Three Thirteen: the same eleven rounds and wild ranks, for 2 "
                "to 4 players, but a meld needs at least one natural (non-wild) card, so "
                "three wilds alone are not a meld. Unmelded wilds cost their face value."
            ),
        ),
        Variant(
            name="three_thirteen_jokers",
            title="Three Thirteen with jokers, against three AI players",
            family="three_thirteen",
            source="003_42a928b4aa4e9703.txt",
            aliases=("jokers", "3-13-jokers", "three_thirteen_ai"),
            min_players=4, max_players=4, default_players=4,
            fixed_packs=2,
            wild_penalty=15,
            joker_penalty=20,
            options=(
                Option("jokers", 0, (0, 2, 4), "jokers added to the 104 cards; always wild"),
                Option("aces", "low", ("low", "high"),
                       "aces low (1 point) or high (Q-K-A, an unmelded ace costs 15)"),
                _RETURN,
            ),
            rule_ids=_CORE + _TT_RULES + tuple(f"TJ-{i}" for i in range(1, 8)),
            seats=("you", "left", "top", "right"),
            must_go_out=True,
            summary=(
                "Three Thirteen with two packs (104 cards) against three AI players seated "
                "left, top and right, with 0, 2 or 4 jokers that are wild in every round. "
                "A meld may be all wilds. An unmelded wild costs 15, an unmelded joker 20. "
                "Going out is not optional: a discard that leaves every card melded goes out."
            ),
        ),
        Variant(
            name="big_table",
            title="Fast 3-13 for large groups, with a caller",
            family="big_table",
            source="000_acefac01cce7b641.txt",
            aliases=("big-table", "fast-3-13", "caller", "stan_stone"),
            min_players=2, max_players=12, default_players=6,
            fixed_packs=4,
            options=(
                Option("packs", 4, (4, 5, 6, 7, 8), "52-card packs shuffled into the pool"),
                Option("max_players", 12, (12, 16, 20, 24),
                       "raise the player limit (with enough packs)"),
            ),
            rule_ids=_CORE + ("TT-2", "TT-12") + tuple(f"BT-{i}" for i in range(1, 9)),
            summary=(
                "Everyone plays at once, paced by a caller. Each hand h deals h+2 cards and "
                "one face up to each player's own discard pile. On 'draw!' everyone takes "
                "the pool's top card or the top of the right-hand neighbour's pile; on "
                "'discard!' all chosen discards are turned up together. A player with a "
                "complete hand calls 'match'; after one more cycle the hand is scored."
            ),
        ),
        Variant(
            name="gin_three",
            title="Gin Rummy for three players",
            family="gin",
            source="004_b180dfc8af5c6390.txt",
            aliases=("gin", "gin-three", "three_handed_gin", "gin3"),
            min_players=3, max_players=3, default_players=3,
            rounds=None,
            fixed_packs=1,
            wild_ranks=False,
            max_set_size=4,
            options=(
                Option("gin_bonus", 25, (25, 20), "bonus for going gin (G-7)"),
                Option("undercut_bonus", 10, (10, 25), "bonus for an undercut (G-9)"),
                Option("target", 100, (50, 100, 150, 200), "points that win the game (G-13)"),
            ),
            rule_ids=_CORE + tuple(f"G-{i}" for i in range(1, 9)) + ("G-8a",)
            + tuple(f"G-{i}" for i in range(9, 14)),
            seats=("box", "captain", "advisor"),
            summary=(
                "One player in the box against a captain, advised by a third player who "
                "sits out. Ten cards each from one pack, aces low, no wilds. Knock with 10 "
                "or fewer points of deadwood; gin scores a bonus; the defender lays off on "
                "the knocker's melds; an undercut scores a bonus for the defender. Roles "
                "rotate with each hand's result; the first to 100 points wins."
            ),
        ),
    )
}

_ALIASES = {a.lower(): v.name for v in VARIANTS.values() for a in (v.name, *v.aliases)}


def variant_names() -> tuple[str, ...]:
    """The registered variant names, in RULES.md order."""
    return tuple(VARIANTS)


def find_variant(name: str | Variant) -> Variant:
    """Look a variant up by name or alias (case-insensitive)."""
    if isinstance(name, Variant):
        return name
    key = str(name).strip().lower()
    if key in _ALIASES:
        return VARIANTS[_ALIASES[key]]
    raise VariantError(
        f"unknown variant {name!r}; the variants are: " + ", ".join(VARIANTS)
    )
