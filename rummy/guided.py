"""Guided hands: one short hand of a variant in which the learner makes every
decision and hears, for a wrong or weaker move, which rule says why.

A :class:`Guide` plays one hand (round 1 of the Three-Thirteen family, hand 1
of the Big Table, the first hand of Gin) with the learner in one seat and
bots in the others.  It uses only the engine's public API
(:func:`rummy.new_game`, ``apply``, ``legal_actions``, ``observe``), the
solver (:func:`rummy.penalty`) and the bots; the engine decides what is
legal, the guide only judges which legal moves are *good*:

* a move the engine refuses gets the engine's own message (it says what was
  wrong, with the rule id) and the learner tries again;
* a legal move that is weaker than another (a discard that keeps more
  points, not going out or not calling match when you can, laying out a card
  that could be laid off) is not played: the feedback names the rule and
  explains why, and the learner tries again;
* every good move is accepted (several may be), then the bots play their
  turns, which are told in words.

The deal is the engine's, from the seed; each variant has a default seed
chosen so that the hand is short and its rules come up (``DEFAULT_SEEDS``).

>>> guide = Guide("three_thirteen")
>>> guide.done
False
>>> ok, feedback = guide.try_move(guide.good_moves()[0])
>>> ok
True
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import rummy
from rummy.bots import make_bot
from rummy.cards import Card, rank_name
from rummy.game import Action, GameError
from rummy.melds import MeldRules, penalty

__all__ = ["Guide", "Verdict", "DEFAULT_SEEDS", "GUIDED_VARIANTS", "LEARNER"]

#: The learner's name at the table.
LEARNER = "You"
#: The five variants a guided hand exists for.
GUIDED_VARIANTS = ("three_thirteen", "tre_tretton", "three_thirteen_jokers", "big_table", "gin_three")
#: Seeds whose deal makes a short hand in which the variant's rules come up.
#: (Found by playing seeds through with the good moves: three_thirteen 4 and tre_tretton 4
#: bring up TT-2, TT-5, TT-6, TT-7, TT-8 in 4 moves; three_thirteen_jokers 7 goes out in 6;
#: big_table 13 brings up BT-1, BT-3, BT-4, BT-6 in 5; gin_three 41 has the learner as
#: captain, a knock against them, a lay-off and an undercut: G-2, G-4 to G-9, G-11.)
DEFAULT_SEEDS = {"three_thirteen": 4, "tre_tretton": 4, "three_thirteen_jokers": 7,
                 "big_table": 13, "gin_three": 41}
_OTHERS = ("Ana", "Ben", "Cleo", "Dev")
_PLAYERS = {"three_thirteen": 3, "tre_tretton": 3, "three_thirteen_jokers": 4, "big_table": 4,
            "gin_three": 3}
_RULE_ID = re.compile(r"\b[A-Z]{1,2}-\d+[a-z]?\b")
#: What a refused move is about when the engine's message names no rule.
_DEFAULT_RULE = {"three_thirteen": "TT-5", "big_table": "BT-3", "gin": "G-5"}


@dataclass(frozen=True, slots=True)
class Verdict:
    """How a move was judged: accepted (and played) or not, the rule that
    explains it, and the sentence the learner reads."""

    accepted: bool
    rule: str
    why: str


def _names(variant: str) -> list[str]:
    return [LEARNER, *_OTHERS[: _PLAYERS[variant] - 1]]


def _points(cards_: Sequence[Card], rules: MeldRules) -> int:
    return penalty(list(cards_), rules) if cards_ else 0


def _without(hand: Sequence[Card], card: Card) -> list[Card]:
    rest = list(hand)
    rest.remove(card)
    return rest


def _show(card: Card | None) -> str:
    return card.symbol if card is not None else "?"


class Guide:
    """One guided hand of ``variant`` (see the module's description).

    ``try_move(action)`` returns (accepted, feedback); ``hint()`` says what
    to look at; ``situation()`` describes the table now; ``narration`` holds
    every sentence of the hand so far (the bots' turns included); ``done`` is
    True when the hand is over.
    """

    def __init__(self, variant: str, *, seed: int | None = None, bots: str = "greedy") -> None:
        found = rummy.find_variant(variant)
        if found.name not in GUIDED_VARIANTS:
            raise ValueError(f"no guided hand for {variant!r}; there is one for each of: "
                             + ", ".join(GUIDED_VARIANTS))
        self.variant = found
        self.family = found.family
        self.seed = DEFAULT_SEEDS[found.name] if seed is None else seed
        names = _names(found.name)
        if self.family == "gin":
            names = self._gin_names(names)
        self.learner = names.index(LEARNER)
        self.game = rummy.new_game(found.name, players=names, seed=self.seed)
        self.bots = {seat: make_bot(bots, seed=self.seed + seat)
                     for seat in range(len(names)) if seat != self.learner}
        self.narration: list[str] = list(self.game.log)
        self.feedback = ""
        self.moves = 0
        self.mistakes: list[Verdict] = []
        self._start = self._hand_number()
        self._run_bots()

    # -- the table ------------------------------------------------------------------------
    def _gin_names(self, names: list[str]) -> list[str]:
        """Seat the learner where the seed's role draw makes the captain (G-2),
        so that the learner plays (the advisor sits out)."""
        probe = rummy.new_game(self.variant.name, players=names, seed=self.seed)
        roles = probe.observe(0).roles
        captain = roles.index("captain")
        others = [n for n in names if n != LEARNER]
        others.insert(captain, LEARNER)
        return others

    def observation(self) -> Any:
        """What the learner may see now (the only thing the guide reads about the table)."""
        return self.game.observe(self.learner)

    def _hand_number(self) -> int:
        obs = self.game.observe(self.learner)
        number = getattr(obs, "round", None) or getattr(obs, "hand_number", None) or 1
        return int(number)

    @property
    def done(self) -> bool:
        """True once the guided hand is over (scored)."""
        return self.game.is_over or self._hand_number() != self._start

    def _learner_to_act(self) -> bool:
        return not self.done and self.learner in self.game.to_act()

    def _run_bots(self) -> None:
        """Let the bots play until it is the learner's turn or the hand is over."""
        for _ in range(2000):
            if self.done:
                break
            acting = [s for s in self.game.to_act() if s != self.learner]
            if not acting:
                break
            seat = acting[0]
            self.game.apply(self.bots[seat].choose(self.game.observe(seat)), player=seat)
        self._catch_up()

    def _catch_up(self) -> None:
        log = self.game.log
        self.narration.extend(log[len(self.narration):])

    def rules(self) -> MeldRules:
        obs = self.observation()
        rules = getattr(obs, "rules", None)
        return rules if rules is not None else self.variant.meld_rules()

    # -- what the learner reads ------------------------------------------------------------
    def situation(self) -> str:
        """The situation in words: your cards, the pile, what you must decide."""
        if self.done:
            return self.summary()
        obs = self.observation()
        hand = " ".join(c.symbol for c in obs.hand)
        fam = self.family
        if fam == "three_thirteen":
            wild = rank_name(obs.wild_rank, plural=True) if obs.wild_rank else "none"
            head = f"Round {obs.round}: {wild} are wild (TT-2). You hold {hand}."
            if obs.phase == "draw":
                last = " This is your last turn: someone went out (TT-7)." if obs.went_out is not None else ""
                return (f"{head}{last} The discard pile shows {_show(obs.discard_top)}. Draw the top card of "
                        "the stock or of the discard pile (TT-5).")
            return (f"{head} Now discard one card, or go out if every other card is melded (TT-6); "
                    "not the card you just took from the pile (TT-5).")
        if fam == "big_table":
            wild = rank_name(obs.wild_rank, plural=True)
            right = obs.players[obs.right]
            head = f"Hand {obs.hand_number}: {wild} are wild. You hold {hand}."
            if obs.phase == "draw":
                pile = obs.piles[obs.right]
                return (f"{head} The caller calls draw: take the top of the pool or of the pile of "
                        f"{right}, on your right (it shows {_show(pile[-1] if pile else None)}); never "
                        "your own pile (BT-3).")
            if "discard" in obs.phase:
                return f"{head} Choose a card to discard face down onto your own pile (BT-3)."
            return (f"{head} The discards are turned up. If your whole hand is melded, call match "
                    "(BT-4); otherwise play on.")
        # gin
        role = obs.roles[self.learner]
        head = f"You are the {role} (G-2). You hold {hand}."
        if obs.phase == "upcard":
            return f"{head} The upcard is {_show(obs.discard_pile[-1])}: take it or pass (G-4)."
        if obs.phase == "draw":
            top = obs.discard_pile[-1] if obs.discard_pile else None
            return f"{head} Draw from the stock or take the top discard, {_show(top)} (G-5)."
        if obs.phase == "discard":
            return (f"{head} Discard a card; you may knock if the rest can be melded with at most "
                    f"{self.variant.knock_limit} points of deadwood (G-6), or go gin with none (G-7).")
        return f"{head} The knocker has laid out; lay off your deadwood onto their melds, then lay out (G-8)."

    def summary(self) -> str:
        """How the hand ended, from the engine's narration: the last sentences
        before the next hand begins."""
        nxt = self._start + 1
        end = next((i for i, line in enumerate(self.narration)
                    if line.startswith((f"Round {nxt} ", f"Hand {nxt} ", f"Hand {nxt}:"))),
                   len(self.narration))
        return "The hand is over. " + " ".join(self.narration[max(0, end - 4):end])

    # -- judging -----------------------------------------------------------------------------
    def legal(self) -> list[Action]:
        return list(self.game.legal_actions(self.learner)) if self._learner_to_act() else []

    def good_moves(self) -> list[Action]:
        """Every legal move the guide accepts now (never empty while the learner acts)."""
        legal = self.legal()
        if not legal:
            return []
        good = [a for a in legal if self._weakness(a, legal) is None]
        return good or legal

    def judge(self, action: Action | str) -> Verdict:
        """How ``action`` would be judged now, without playing it."""
        if self.done:
            return Verdict(False, "", "The hand is over.")
        if not self._learner_to_act():
            return Verdict(False, "", "It is not your turn yet.")
        try:
            move = Action.parse(action)
        except GameError as e:
            return Verdict(False, "", str(e))
        legal = self.legal()
        if move not in legal:
            return Verdict(False, "", "")  # the engine says why (try_move)
        weak = self._weakness(move, legal)
        return weak if weak is not None else Verdict(True, "", "")

    def try_move(self, action: Action | str) -> tuple[bool, str]:
        """Play ``action`` if it is a good move; otherwise say why not (and
        leave the table as it was). Returns (accepted, feedback)."""
        verdict = self.judge(action)
        if not verdict.accepted and verdict.why:
            return self._refuse(verdict)
        if not verdict.accepted:  # illegal: let the engine explain, the state stays untouched
            try:
                self.game.apply(Action.parse(action), player=self.learner)
            except GameError as e:
                found = _RULE_ID.findall(str(e))
                rule = found[0] if found else _DEFAULT_RULE[self.family]
                text = str(e) if found else f"{e} ({rule})"
                return self._refuse(Verdict(False, rule, text))
            raise AssertionError("a move outside legal_actions was accepted")  # pragma: no cover
        before = len(self.game.log)
        self.game.apply(Action.parse(action), player=self.learner)
        self.moves += 1
        after_me = len(self.game.log)
        self._run_bots()
        mine, theirs = self.game.log[before:after_me], self.game.log[after_me:]
        if self.done:
            self.feedback = "Good. " + self.summary()
            return True, self.feedback
        self.feedback = ("Good. " + " ".join(mine[-2:])).strip()
        if theirs:
            self.feedback += " Then: " + " ".join(theirs[-6:])
        return True, self.feedback

    def _refuse(self, verdict: Verdict) -> tuple[bool, str]:
        self.mistakes.append(verdict)
        why = verdict.why.rstrip()
        if verdict.rule and verdict.rule not in why:
            why = f"{why.rstrip('.')} ({verdict.rule})."
        why = why if why.endswith((".", "!", "?")) else why + "."
        self.feedback = f"Not that one: {why} Try again."
        return False, self.feedback

    def hint(self) -> str:
        """What to look at now (not the answer itself, unless only one move is good)."""
        if self.done:
            return "The hand is over."
        good = self.good_moves()
        legal = self.legal()
        if len(good) == len(legal):
            return "Any of your moves is fine here: " + ", ".join(map(str, good)) + "."
        verbs = sorted({a.verb for a in good})
        if len(good) == 1:
            return f"Look for the move that keeps the fewest points: {good[0]}."
        return f"Good moves now: {', '.join(map(str, good))} (one {' or '.join(verbs)})."

    # -- why a legal move is weaker --------------------------------------------------------
    def _weakness(self, move: Action, legal: Sequence[Action]) -> Verdict | None:
        obs = self.observation()
        rules = self.rules()
        hand = list(obs.hand)
        if self.family in ("three_thirteen", "big_table"):
            return self._weak_rummy(move, legal, obs, hand, rules)
        return self._weak_gin(move, legal, obs, hand, rules)

    def _discard_points(self, hand: list[Card], legal: Sequence[Action], verbs: tuple[str, ...],
                        rules: MeldRules) -> dict[Action, int]:
        return {a: _points(_without(hand, a.card), rules) for a in legal
                if a.verb in verbs and a.card is not None}

    def _weak_rummy(self, move: Action, legal: Sequence[Action], obs: Any, hand: list[Card],
                    rules: MeldRules) -> Verdict | None:
        fam = self.family
        if obs.phase == "draw":
            if fam == "three_thirteen":
                top = obs.discard_top
                take = next((a for a in legal if a.verb == "draw discard"), None)
            else:
                pile = obs.piles[obs.right]
                top = pile[-1] if pile else None
                take = next((a for a in legal if a.verb == "draw pile"), None)
            if top is None or take is None or move == take:
                return None
            with_top = hand + [top]
            # TT-5: the card taken can't be thrown back, so going out must discard another card
            if any(_points(_without(with_top, c), rules) == 0 for c in hand):
                rule = "TT-6" if fam == "three_thirteen" else "BT-4"
                return Verdict(False, rule, f"take the {top.symbol}: with it every card but one is "
                               f"melded, so you can {'go out' if rule == 'TT-6' else 'call match'} "
                               f"this turn ({rule}); a card from the stock may not help at all.")
            return None
        if move.verb in ("go out", "discard") and "discard" in obs.phase:
            outs = [a for a in legal if a.verb == "go out"]
            if outs and move.verb == "discard":
                return Verdict(False, "TT-6", f"you can go out: throw {_show(outs[0].card)} and every "
                               "other card is melded (TT-6); going out scores 0 and leaves the others "
                               "one last turn each (TT-7).")
            if move.verb == "go out":
                return None
            points = self._discard_points(hand, legal, ("discard",), rules)
            if not points or move not in points:
                return None
            best = min(points.values())
            if points[move] == best:
                return None
            better = [a.card for a, p in points.items() if p == best and a.card is not None]
            card = move.card
            assert card is not None
            if rules.is_wild(card):
                return Verdict(False, "TT-2" if fam == "three_thirteen" else "BT-1", f"the {card.symbol} is wild this round: it can stand "
                               "for any card in a meld (M-4), so keep it; throw "
                               f"{better[0].symbol} instead.")
            rule = "TT-8" if fam == "three_thirteen" else "BT-6"
            return Verdict(False, rule, f"throwing the {card.symbol} leaves {points[move]} points in "
                           f"your best arrangement, throwing the {better[0].symbol} only {best} "
                           f"({rule}: the hand left at the end is scored by its best arrangement, M-7).")
        if fam == "big_table" and move.verb == "play on" and any(a.verb == "call match" for a in legal):
            return Verdict(False, "BT-4", "your whole hand is melded: call match now (BT-4). "
                           "A match not called counts only when called, and the others play on "
                           "(BT-5).")
        return None

    def _weak_gin(self, move: Action, legal: Sequence[Action], obs: Any, hand: list[Card],
                  rules: MeldRules) -> Verdict | None:
        if obs.phase == "discard":
            points = self._discard_points(hand, legal, ("discard", "knock"), rules)
            if move not in points:
                return None
            best = min(points.values())
            gins = [a for a, p in points.items() if p == 0 and a.verb == "knock"]
            if gins and move not in gins:
                return Verdict(False, "G-7", f"you can go gin: {gins[0]} leaves no deadwood at all, "
                               "worth the gin bonus plus the other player's deadwood, and the "
                               "defender may not lay off (G-7).")
            if points[move] > best:
                better = next(a for a, p in points.items() if p == best)
                assert better.card is not None and move.card is not None
                return Verdict(False, "G-6", f"throwing the {move.card.symbol} leaves {points[move]} "
                               f"points of deadwood, the {better.card.symbol} only {best} (G-6: "
                               f"deadwood decides whether you can knock, and what you lose).")
            return None
        if obs.phase == "lay off" and move.verb == "lay out":
            offs = [a for a in legal if a.verb == "lay off"]
            if offs:
                card = offs[0].card
                assert card is not None
                return Verdict(False, "G-8", f"the {card.symbol} fits onto the knocker's "
                               f"{' '.join(c.symbol for c in offs[0].onto)}: lay it off first, it "
                               f"then costs you nothing (G-8).")
        if obs.phase == "lay off" and move.verb == "lay off":
            plan = getattr(obs, "layoff_plan", None)
            planned = {c for c, _m in getattr(plan, "layoffs", ())} if plan is not None else set()
            if planned and move.card not in planned:
                assert move.card is not None
                return Verdict(False, "G-8", f"the {move.card.symbol} does more good in a meld of "
                               "your own; lay off the cards that are deadwood (G-8).")
        return None
