"""The rules catalogue: every rule of ``docs/RULES.md``, one record each (no Jupyter import).

A rule has an id (``TT-7``), the group RULES.md lists it under, a short title
and the rule in one sentence.  :data:`RULES` holds them in RULES.md's order;
:func:`rule` looks one up, :func:`rules_in` finds the ids a text names,
:func:`rules_of` says which rules apply to a variant and :data:`MOVE_RULES`
which of them a player applies by choosing a move.

This is the one list of rules the kit has: the record of learning
(:mod:`rummy.progress`: one Leitner box per rule), the drills
(:mod:`rummy.practice`), the guided hands (:mod:`rummy.guided`), the widgets
(the quiz checker finds the rule a question names, the practice app lists the
rules, the learner's map groups them) and the lessons read it.  It imports
only :mod:`rummy.variants`.

>>> rule("TT-7").title
'One more turn for the others'
>>> rule("TT-7").text
'after someone goes out, every other player has exactly one more turn and may complete their hand too'
>>> len(RULES), RULE_IDS[:3], GROUPS[:2]
(58, ('C-1', 'C-2', 'C-3'), ('All variants', 'Three-Thirteen family'))
>>> rules_in("It costs 15 (TS-1); see also TS-1 and XX-9 and M-4a.")
['TS-1', 'M-4a']
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rummy.variants import find_variant

__all__ = [
    "Rule", "RuleError", "RULES", "RULE_IDS", "GROUPS", "MOVE_RULES",
    "rule", "is_rule", "rules_in", "rules_of", "three_hints",
]


@dataclass(frozen=True, slots=True)
class Rule:
    """A rule of RULES.md: its id, the group it is listed under, a short
    title and the rule in one sentence (a hint's second step)."""

    id: str
    group: str
    title: str
    text: str


class RuleError(ValueError):
    """An id that is no rule of RULES.md (the message lists the ids that are)."""


_ALL = "All variants"
_FAMILY = "Three-Thirteen family"
_TS = "Three Thirteen"
_TR = "Tre-tretton"
_TJ = "Three Thirteen with jokers"
_BT = "Big Table"
_G = "Gin for three"

#: The 58 rules of RULES.md, in its order, grouped as it groups them.
RULES: tuple[Rule, ...] = tuple(Rule(*r) for r in (
    ("C-1", _ALL, "Ranks, suits, several decks",
     "ranks run ace, 2 to 10, jack, queen, king in four suits, and several packs may be mixed, so a hand can "
     "hold identical cards"),
    ("C-2", _ALL, "Penalty points of a card",
     "an unmelded card costs its face value: ace 1, 2 to 10 as marked, J, Q and K 10"),
    ("C-3", _ALL, "Aces are low; runs never wrap",
     "aces are low: A-2-3 is a run, Q-K-A is not, and runs never wrap (K-A-2)"),
    ("C-4", _ALL, "A joker is always wild", "a joker is always wild"),
    ("M-1", _ALL, "A set",
     "a set is 3 or more cards of one rank; with several packs it may hold identical cards"),
    ("M-2", _ALL, "A run",
     "a run is 3 or more cards of one suit in consecutive ranks, never two of one rank"),
    ("M-3", _ALL, "A card in one meld only", "a card belongs to at most one meld"),
    ("M-4", _ALL, "A wild stands for any card",
     "a wild stands for any card of a set or a run; whether wilds alone make a meld depends on "
     "the variant"),
    ("M-4a", _ALL, "The round's wild rank is always wild",
     "a card of the round's wild rank is always wild, even where it stands for itself, so it "
     "never counts as Tre-tretton's natural card"),
    ("M-5", _ALL, "A meld is a group, not a row",
     "a meld is a group, not a row: the wilds take whatever places the naturals leave"),
    ("M-6", _ALL, "No adding to others' melds",
     "in the Three-Thirteen family nobody adds cards to another player's melds"),
    ("M-7", _ALL, "Scoring: the lowest arrangement",
     "a hand is scored by its best arrangement, the one with the lowest penalty"),
    ("TT-1", _FAMILY, "11 rounds; r + 2 cards",
     "a game is 11 rounds, and in round r each player is dealt r + 2 cards"),
    ("TT-2", _FAMILY, "The wild rank of a round",
     "the wild rank of a round is the number of cards dealt: threes in round 1 up to kings in "
     "round 11"),
    ("TT-3", _FAMILY, "The dealer",
     "the deal passes to the left every round, and the player left of the dealer plays first"),
    ("TT-4", _FAMILY, "The discard pile starts",
     "after the deal the next card is turned up to start the discard pile; the rest is the "
     "stock"),
    ("TT-5", _FAMILY, "A turn: draw, then discard",
     "a turn is: draw from the stock or the discard pile, then discard; the card taken from the "
     "pile can't be thrown back the same turn"),
    ("TT-6", _FAMILY, "Going out",
     "after drawing, a player whose cards but one are all melded discards that one and goes "
     "out"),
    ("TT-7", _FAMILY, "One more turn for the others",
     "after someone goes out, every other player has exactly one more turn and may complete "
     "their hand too"),
    ("TT-8", _FAMILY, "Round score",
     "the player who went out scores 0, everybody else the penalty of their best arrangement"),
    ("TT-9", _FAMILY, "The lowest total wins",
     "scores add up over 11 rounds; the lowest total wins, and a tie for lowest means nobody "
     "wins"),
    ("TT-10", _FAMILY, "When the stock runs out",
     "when the stock runs out, the discard pile except its top card is shuffled into a new "
     "stock"),
    ("TT-11", _FAMILY, "How many decks",
     "1 pack for 2 players, 2 for 3 or 4, and more for more players (the fewest that fit the "
     "deal)"),
    ("TT-12", _FAMILY, "A stalled round",
     "a round in which nobody has gone out after 200 turns ends and is scored"),
    ("TS-1", _TS, "Option: aces low or high",
     "with the option aces low_or_high, A-2-3 and Q-K-A are both runs and an unmelded ace costs "
     "15"),
    ("TS-2", _TS, "An unmelded wild costs its face value",
     "in Three Thirteen an unmelded wild costs its face value"),
    ("TR-1", _TR, "2 to 4 players", "Tre-tretton is for 2 to 4 players"),
    ("TR-2", _TR, "A meld needs a natural card",
     "in Tre-tretton a meld needs at least one natural card"),
    ("TR-3", _TR, "An unmelded wild costs its face value",
     "in Tre-tretton an unmelded wild costs its face value"),
    ("TJ-1", _TJ, "You against three AI players",
     "you play against three computer players: left, across (top) and right"),
    ("TJ-2", _TJ, "104 cards and jokers", "the game uses 104 cards and 0, 2 or 4 jokers"),
    ("TJ-3", _TJ, "Jokers are always wild",
     "jokers are wild in every round, as well as the round's wild rank"),
    ("TJ-4", _TJ, "Option: aces low or high",
     "with the option aces high, Q-K-A is a run and A-2-3 is not, and an unmelded ace costs 15"),
    ("TJ-5", _TJ, "Unmelded wilds cost 15, jokers 20",
     "an unmelded wild of the round's rank costs 15, an unmelded joker 20"),
    ("TJ-6", _TJ, "A meld of wilds only", "a meld of wilds only is allowed"),
    ("TJ-7", _TJ, "Going out is not optional",
     "going out is not optional: a discard that leaves the whole hand melded goes out"),
    ("BT-1", _BT, "2 to 12 players, one pool",
     "2 to 12 players and 4 packs in one middle pool; wild rank as in Three Thirteen"),
    ("BT-2", _BT, "The cards of hand h",
     "in hand h everyone draws h + 2 cards from the pool, then one more face up on their own "
     "pile"),
    ("BT-3", _BT, "A cycle: draw, then discard",
     "on draw! everyone takes the top of the pool or of the pile on their right, never their "
     "own"),
    ("BT-4", _BT, "Calling match",
     "after discard! a player whose whole hand is melded calls match"),
    ("BT-5", _BT, "One more cycle after a match",
     "after the first match everybody else gets one more draw and discard, then the hand is "
     "scored"),
    ("BT-6", _BT, "Scoring a hand",
     "the first to match scores 0, so does anyone complete after the last cycle; the rest score "
     "their best arrangement"),
    ("BT-7", _BT, "The lowest total wins",
     "the lowest total after 11 hands wins; a tie for lowest means nobody wins"),
    ("BT-8", _BT, "When the pool runs out",
     "when the pool runs out, every pile except its top card is shuffled into a new pool"),
    ("G-1", _G, "One deck, no wilds",
     "one pack, aces always low, no wilds; sets of 3 or 4 and runs of 3 or more"),
    ("G-2", _G, "Roles: box, captain, advisor",
     "roles are drawn by a card each: highest is the box, middle the captain, lowest the "
     "advisor"),
    ("G-3", _G, "The deal",
     "the box deals every hand: 10 cards each to the box and the captain, then the upcard"),
    ("G-4", _G, "The first turn and the upcard",
     "first the captain may take the upcard, then the box; if both pass the captain draws from "
     "the stock"),
    ("G-5", _G, "A normal turn",
     "a turn is: draw from the stock or take the top discard, then discard; a card taken can't "
     "go straight back"),
    ("G-6", _G, "Knocking",
     "you may knock when the hand, less one discard, melds with at most 10 points of deadwood"),
    ("G-7", _G, "Gin",
     "gin is a knock with no deadwood: 25 bonus plus the opponent's deadwood, and no lay-offs"),
    ("G-8", _G, "Laying off",
     "when not gin, the opponent lays out melds and lays deadwood off onto the knocker's melds"),
    ("G-8a", _G, "The knocker spreads their cards",
     "the knocker may lay out any arrangement within the knock limit, not only the lowest one"),
    ("G-9", _G, "Scoring when not gin",
     "a lower knocker scores the difference; otherwise the knocker is undercut and the opponent "
     "scores 10 plus the difference"),
    ("G-10", _G, "The advisor never scores", "the advisor never scores"),
    ("G-11", _G, "Roles after a hand",
     "a box who wins stays and the others swap; a box who loses sits out, the captain goes into "
     "the box and the advisor becomes captain"),
    ("G-12", _G, "A drawn hand",
     "if only 2 stock cards remain after a discard and nobody knocked, the hand is a draw and the "
     "same box deals again"),
    ("G-13", _G, "The game ends at 100",
     "hands go on until someone's total reaches 100: that player wins"),
))
#: The rule ids, in RULES.md order.
RULE_IDS: tuple[str, ...] = tuple(r.id for r in RULES)
#: The groups, in RULES.md order.
GROUPS: tuple[str, ...] = tuple(dict.fromkeys(r.group for r in RULES))

#: The rules a player applies by choosing a move, per variant (their drills are
#: move drills; each guided hand shows every move rule of its variant).
MOVE_RULES: dict[str, tuple[str, ...]] = {
    "three_thirteen": ("TT-5", "TT-6", "TT-7"),
    "tre_tretton": ("TT-5", "TT-6", "TT-7"),
    "three_thirteen_jokers": ("TT-5", "TT-6", "TT-7", "TJ-7"),
    "big_table": ("BT-3", "BT-4"),
    "gin_three": ("G-4", "G-5", "G-6", "G-8", "G-8a"),
}

_BY_ID = {r.id: r for r in RULES}
_RULE_RE = re.compile(r"\b[A-Z]{1,2}-\d+[a-z]?\b")


def rule(rule_id: str) -> Rule:
    """The rule with id ``rule_id`` (a :class:`RuleError` lists the ids there are).

    >>> rule("G-8a").group
    'Gin for three'
    >>> rule("XX-1")
    Traceback (most recent call last):
    ...
    rummy.rulebook.RuleError: no rule 'XX-1' in RULES.md; the rule ids are: C-1, C-2, ...
    """
    found = _BY_ID.get(rule_id)
    if found is None:
        raise RuleError(f"no rule {rule_id!r} in RULES.md; the rule ids are: {', '.join(RULE_IDS)}")
    return found


def is_rule(rule_id: str) -> bool:
    """Whether ``rule_id`` is the id of a rule of RULES.md.

    >>> is_rule("TT-7"), is_rule("TT-70")
    (True, False)
    """
    return rule_id in _BY_ID


def rules_in(text: str) -> list[str]:
    """The rule ids named in ``text``, each once, in order.

    >>> rules_in("It costs 15 (TS-1); see also TS-1 and XX-9 and M-4a.")
    ['TS-1', 'M-4a']
    """
    return [r for r in dict.fromkeys(_RULE_RE.findall(str(text))) if r in _BY_ID]


def rules_of(variant: str | None = None) -> list[str]:
    """The rule ids that apply to ``variant`` (all of them when None), in
    RULES.md order: the shared ones (C-, M-), then the variant's own and those
    it borrows (the variant's data, :attr:`rummy.variants.Variant.rule_ids`:
    the Big Table takes its wild rank from TT-2 and its stall from TT-12).

    >>> rules_of("gin_three")[:3]
    ['C-1', 'C-2', 'C-3']
    >>> rules_of("tre_tretton")[-4:]
    ['TT-12', 'TR-1', 'TR-2', 'TR-3']
    >>> rules_of("big_table")[12:]
    ['TT-2', 'TT-12', 'BT-1', 'BT-2', 'BT-3', 'BT-4', 'BT-5', 'BT-6', 'BT-7', 'BT-8']
    """
    if variant is None:
        return list(RULE_IDS)
    followed = set(find_variant(variant).rule_ids)
    return [r for r in RULE_IDS if r in followed]


def three_hints(rule_id: str, look: str, why: str, answer: str) -> tuple[str, str, str]:
    """The three steps of a hint, as drills and guided hands give them: what
    to look at (a question), the rule that decides (its id and the rule in
    one sentence) and why, then the answer.

    >>> three_hints("TT-5", "", "", "Draw from the stock.")[1]
    "TT-5: a turn is: draw from the stock or the discard pile, then discard; the card taken from the pile can't be thrown back the same turn."
    """
    return (look or "What does the position show that the question depends on?",
            f"{rule_id}: {rule(rule_id).text}. {why}".strip(),
            answer)
