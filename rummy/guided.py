"""Guided hands: a short game of a variant in which the learner makes every
decision and hears, for a wrong or weaker move, which rule says why.

A :class:`Guide` plays the first round(s) or hand(s) of a variant with the
learner in one seat and bots in the others: long enough that every *move*
rule of the variant (:data:`rummy.rulebook.MOVE_RULES`) comes up as a
decision of the learner's (the Three-Thirteen family plays two rounds, the
second one with someone else going out first, so that your last turn, TT-7,
is yours to play; Gin plays two hands: in the first the box knocks, you lay
off and undercut; in the second you are in the box, knock and choose the melds
you lay out, G-8a).  :meth:`Guide.decision` names the rules of the decision
now.  The guide uses only the engine's public API (:func:`rummy.new_game`,
``arrange``, ``apply``, ``legal_actions``, ``observe``), the solver
(:func:`rummy.penalty`) and the bots; the engine decides what is legal, the
guide only judges which legal moves are *good*:

* a move that does not parse gets how moves are written (a spelling matter:
  no game rule is cited); cards are read by :func:`rummy.teach.as_card`, so
  every notation the quizzes accept works (``discard king of clubs``);
* a move the engine refuses gets the engine's own message (it says what was
  wrong, with the rule id) and the learner tries again;
* a legal move that is weaker than another (a discard that keeps more
  points, not going out or not calling match when you can, a lay-off choice
  that ends the hand worse for you, as the engine scores it; a layout that
  gives the defender more to lay off) is not played: the feedback names the
  rule and explains why, and the learner tries again;
* every good move is accepted (several may be; ``discard X`` that goes out
  goes out), then the bots play their turns, which are told in words.

:meth:`Guide.hint` teaches in three steps, asked one after another: what
to look at (a question), the rule that decides and why, then the move (the
drills' :func:`rummy.rulebook.three_hints`).

A guided hand is a *chosen position* where the variant has a script
(``SCRIPTS``: every seat's cards, the first discard (Big Table: each seat's
pile) and the top of the stock, chosen so that each rule the hand can show
comes up; ``LATER_HANDS``: the rounds or hands after the first), laid with
the family's ``arrange()`` when its round begins, so a guided game reloads
and replays exactly; the seed then only picks the dealer (in Gin, the roles)
and the order of the cards nobody was dealt.  When a
``seed`` is given (then one round or hand only), the deal is the engine's,
from the seed (``DEFAULT_SEEDS``: seeds chosen so that the hand is short and
its rules come up).  ``SHOWS`` lists, per variant, the rule ids the guided
hand brings up (tests play each hand through and check them).

>>> guide = Guide("three_thirteen")
>>> guide.done
False
>>> ok, feedback = guide.try_move(guide.good_moves()[0])
>>> ok
True
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import rummy
from rummy.action import Action
from rummy.bots import make_bot
from rummy.cards import Card, cards, rank_name
from rummy.errors import ActionError, GameError
from rummy.melds import Arrangement, MeldRules
from rummy.rulebook import rules_in, three_hints
from rummy.search import best_arrangement, penalty
from rummy.teach import as_card, as_cards

__all__ = ["Guide", "Verdict", "Script", "DEFAULT_SEEDS", "GUIDED_VARIANTS", "LATER_HANDS", "LEARNER",
           "SCRIPTS", "SHOWS", "MOVE_VERBS", "read_move"]

#: The learner's name at the table.
LEARNER = "You"
#: The five variants a guided hand exists for.
GUIDED_VARIANTS = ("three_thirteen", "tre_tretton", "three_thirteen_jokers", "big_table", "gin_three")
#: Seeds whose deal makes a short hand in which the variant's rules come up.
#: (Found by playing seeds through with the good moves: three_thirteen 4 and tre_tretton 4
#: bring up TT-2, TT-5, TT-6, TT-7, TT-8 in 4 moves; three_thirteen_jokers 7 goes out in 6;
#: big_table 13 brings up BT-1, BT-3, BT-4, BT-6 in 5; gin_three 41 seats the learner as
#: captain, G-2, and its script, SCRIPTS, deals the rest.)
DEFAULT_SEEDS = {"three_thirteen": 4, "tre_tretton": 4, "three_thirteen_jokers": 7,
                 "big_table": 13, "gin_three": 41}


@dataclass(frozen=True, slots=True)
class Script:
    """A chosen deal for a guided hand: the cards of some seats by player name,
    the first discard (Gin: the upcard), and the next cards of the stock (first
    drawn first).  In the Three-Thirteen family the learner plays first and
    seats not named get the seed's cards; in Gin it names the box's and the
    captain's hands."""

    hands: Mapping[str, str]
    upcard: str
    stock_top: str = ""
    why: str = ""
    options: tuple[tuple[str, Any], ...] = ()
    #: Big Table only: each seat's own pile (bottom first), by player name.
    piles: tuple[tuple[str, str], ...] = ()


#: Chosen deals.  tre_tretton: you are dealt three threes, all wild in round 1
#: (TT-2); in standard Three Thirteen that is a meld, here a meld needs a
#: natural card (TR-2), so taking the fourth three does not help and you go out
#: only once the stock gives you a natural card (TT-6); Ben then takes your wild
#: on his last turn and completes his hand too (TT-7), Ana's hand is scored (TT-8).
SCRIPTS: dict[str, Script] = {
    # three_thirteen: the open Q♠ does not help (TT-5), the stock gives Q♦, so K♣
    # or Q♦ go (either is fine; 7♥ or 8♥ would keep more points, TT-8); Ana
    # throws 9♥, which completes 7♥ 8♥ 9♥: take it and go out (TT-6), the others
    # get one last turn (TT-7) and are scored (TT-8).
    "three_thirteen": Script(hands={"You": "7h 8h Kc", "Ana": "9h 5d 5c", "Ben": "4s 6d Kd"},
                             upcard="Qs", stock_top="Qd 5h 2s 4c 6c",
                             why="a run completed from the discard pile, then out"),
    # three_thirteen_jokers, with 2 jokers: you hold a joker (wild in every round,
    # TJ-3); the open 7♣ makes 7♣ 7♥ + joker a set, so take it (TT-6) and throw
    # the K♠, which goes out whether you say so or not (TJ-7).
    "three_thirteen_jokers": Script(
        hands={"You": "Jk 7h Ks", "Ana": "9h 5d 2c", "Ben": "Th 6d 4s", "Cleo": "Qc 4d 4h"},
        upcard="7c", stock_top="Qd Ac 2h 5s", options=(("jokers", 2),),
        why="a joker and a pair make a set; the discard that melds everything goes out"),
    # big_table: you hold 7♥ 8♥ K♣; Cleo's pile, on your right, shows Q♠ (no help:
    # draw from the pool, BT-3) and your own pile the 9♥ you may never take (BT-3);
    # throw K♣ (BT-6); Cleo throws 6♥, which completes your run: take it (BT-4), throw
    # the 2♦ and call match (BT-4); the others get one more cycle (BT-5), then the
    # hand is scored (BT-6).
    "big_table": Script(
        hands={"You": "7h 8h Kc", "Ana": "Qd Qh 2c", "Ben": "9c 9d Ah", "Cleo": "6h 4c 4s"},
        upcard="", piles=(("You", "9h"), ("Ana", "5d"), ("Ben", "Td"), ("Cleo", "Qs")),
        stock_top="Qc 5s 4d 2s Jc Jd Js",
        why="a run completed from the pile on your right, then match"),
    # gin_three, hand 1 (seed 41: Ana is in the box, you are captain): take the upcard
    # 3♣ (G-4: it makes 3♣ 3♦ 3♥), throw the kings, draw 2♥ and 5♣, throw the 6♦,
    # which Ana takes; the 4♠ leaves you 12 points of deadwood, too many to knock (G-6),
    # so you throw the 5♦; Ana takes it and knocks with 10: 4♦ 5♦ 6♦, Q♦ Q♥ Q♠ and
    # A♣ 2♣ A♦ 6♠.  Laying your 3♦ off onto her run (G-8) leaves you 2♥ 3♥ 4♠ = 9, less
    # than her 10: you undercut her (G-9).  At no point can you knock first, and the
    # lay-off is the only way to the undercut: every learner meets both.
    "gin_three": Script(hands={"Ana": "Ac 2c 8c Tc 4d 8d Qd Th 6s Qs",
                               "You": "4c Jc 3d 5d 6d 3h Jh Kh Js Ks"},
                        upcard="3c", stock_top="Ad 2h Qh 5c 4s 6c 7c 9c Qc",
                        why="the box knocks; you lay off and undercut"),
    "tre_tretton": Script(hands={"You": "3c 3d 3s", "Ben": "Kc Kd 9h", "Ana": "Qh 5c 2d"},
                          upcard="3h", stock_top="8h 7s",
                          why="three wilds are no meld without a natural card (TR-2)"),
}
#: Scripts of the rounds (hands) a guided hand plays after its first, laid with the
#: family's ``arrange()`` when each begins, so that every move rule of the variant
#: (``rummy.rulebook.MOVE_RULES``) comes up as a decision of yours.
LATER_HANDS: dict[str, tuple[Script, ...]] = {
    # round 2 (fours wild, you deal): Ben, on your left, goes out at once with
    # 5♣ 6♣ 7♣ 8♣; Ana and then you get one last turn each (TT-7), and the T♥ of
    # the stock completes your 8♥ 9♥ + wild, so you go out too and score 0
    "three_thirteen": (Script(hands={"Ben": "5c 6c 7c Kd", "Ana": "2s 9d Jh 5h",
                                     "You": "8h 9h 4s Kc"},
                              upcard="Qh", stock_top="8c Ac Th 2d",
                              why="someone else goes out: your last turn (TT-7)"),),
    "tre_tretton": (Script(hands={"Ben": "5c 6c 7c Kd", "Ana": "2s 9d Jh 5h",
                                  "You": "8h 9h 4s Kc"},
                           upcard="Qh", stock_top="8c Ac Th 2d",
                           why="someone else goes out: your last turn (TT-7)"),),
    "three_thirteen_jokers": (Script(hands={"Ana": "5c 6c 7c Kd", "Ben": "2s 9d Jh 5h",
                                            "Cleo": "Qc 2c 9s 6h", "You": "8h 9h 4s Kc"},
                                     upcard="Qh", stock_top="8c Ac 3d Th 2d",
                                     why="someone else goes out: your last turn (TT-7)"),),
    # gin, hand 2: you undercut the box in hand 1, so you are in the box now (G-11)
    # against Ben; neither of you wants the Q♠ (G-4); the A♠ of the stock lets you
    # knock with 1 point of deadwood, and you choose the melds (G-8a): three sets
    # leave Ben only 3♠ 4♠ 5♠ to lay off, three runs the 2s and 6s of three suits
    "gin_three": (Script(hands={"You": "3c 3d 3h 4c 4d 4h 5c 5d 5h Kc",
                                "Ben": "Ac 7s 9d Jh 2s Ts 8h 6c 2d Kh"},
                         upcard="Qs", stock_top="9c As 7d 8s",
                         why="you knock and choose the melds you lay out (G-8a)"),),
}
#: The rule ids each guided hand brings up in what the learner reads (the
#: situation, the feedback on the weaker moves tried on the way).
SHOWS: dict[str, frozenset[str]] = {
    "three_thirteen": frozenset({"TT-2", "TT-5", "TT-6", "TT-7", "TT-8"}),
    "tre_tretton": frozenset({"TT-2", "TT-5", "TT-6", "TT-7", "TT-8", "TR-2", "TR-3"}),
    "three_thirteen_jokers": frozenset({"TT-2", "TT-5", "TT-6", "TT-7", "TJ-3", "TJ-7"}),
    "big_table": frozenset({"BT-1", "BT-3", "BT-4", "BT-5", "BT-6"}),
    "gin_three": frozenset({"G-2", "G-4", "G-5", "G-6", "G-8", "G-8a", "G-9", "G-11"}),
}
_OTHERS = ("Ana", "Ben", "Cleo", "Dev")
_PLAYERS = {"three_thirteen": 3, "tre_tretton": 3, "three_thirteen_jokers": 4, "big_table": 4,
            "gin_three": 3}
#: The verbs of a draw choice (the open card against a blind one).
_DRAWS = frozenset({"draw stock", "draw discard", "draw pool", "draw pile", "take upcard", "pass"})
#: What a refused move is about when the engine's message names no rule, by phase.
_DEFAULT_RULE = {"three_thirteen": "TT-5", "big_table": "BT-3", "gin": "G-5"}
_PHASE_RULE = {"upcard": "G-4", "lay off": "G-8"}
#: Every verb a move may start with (then a card, if the move needs one).
MOVE_VERBS = ("draw stock", "draw discard", "draw pool", "draw pile", "take upcard", "pass",
              "discard", "go out", "knock", "gin", "lay off", "lay out", "call match", "play on")
_HOW = ("write a move as a verb, then a card if the move needs one: 'draw stock', 'discard 9♣', "
        "'discard 9c' or 'discard nine of clubs'; 'lay off 5♥ onto 6♥ 7♥ 8♥'; 'knock 9c with "
        "3c 3d 3h, 4c 4d 4h'")


def read_move(text: Action | str) -> Action:
    """The move ``text`` names, with its cards in any notation the quizzes
    accept (:func:`rummy.teach.as_card`: ``K♣``, ``Kc``, ``king of clubs``);
    raises :class:`rummy.errors.ActionError` saying how moves are written
    (a spelling matter: it cites no rule of the game).

    >>> str(read_move("discard king of clubs")), str(read_move("Draw  Stock"))
    ('discard Kc', 'draw stock')
    >>> str(read_move("lay off 5♥ onto 6h, 7h and 8h"))
    'lay off 5h onto 6h 7h 8h'
    >>> read_move("discard 9x")
    Traceback (most recent call last):
    ...
    rummy.errors.ActionError: 'discard 9x': '9x' is not a card; write a move as a verb, then a card if the move needs one: 'draw stock', 'discard 9♣', 'discard 9c' or 'discard nine of clubs'; 'lay off 5♥ onto 6♥ 7♥ 8♥'; 'knock 9c with 3c 3d 3h, 4c 4d 4h'
    """
    if isinstance(text, Action):
        return text
    if not isinstance(text, str) or not text.strip():
        raise ActionError(f"{text!r} is not a move: {_HOW}")
    said = " ".join(text.split())
    low = said.lower()
    body, _, onto_text = low.partition(" onto ")
    body, has_with, with_text = body.partition(" with ")
    verb = next((v for v in sorted(MOVE_VERBS, key=len, reverse=True)
                 if body == v or body.startswith(v + " ")), None)
    if verb is None:
        raise ActionError(f"{said!r} is not a move: {_HOW}")
    rest = body[len(verb):].strip()
    card = as_card(rest) if rest else None
    if rest and card is None:
        raise ActionError(f"{said!r}: {rest!r} is not a card; {_HOW}")
    onto: tuple[Card, ...] = ()
    if onto_text:
        got = as_cards(onto_text)
        if got is None:
            raise ActionError(f"{said!r}: the meld after 'onto' is not cards; {_HOW}")
        onto = got
    melds: list[tuple[Card, ...]] = []
    if has_with:
        for part in with_text.split(","):
            meld = as_cards(part)
            if meld is None:
                raise ActionError(f"{said!r}: the melds after 'with' are not cards; {_HOW}")
            melds.append(meld)
    return Action(verb, card, onto, tuple(melds))


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


def _melded(arrangement: Arrangement) -> int:
    """How many cards of an arrangement are in melds."""
    return len(arrangement.cards) - len(arrangement.deadwood)


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
        self.script = SCRIPTS.get(found.name) if seed is None else None
        if self.script is not None and self.family == "three_thirteen":
            names = self._first_to_play(names)
        self.learner = names.index(LEARNER)
        options = dict(self.script.options) if self.script is not None else {}
        self.game = rummy.new_game(found.name, players=names, seed=self.seed, **options)
        if self.script is not None:
            _stack_deal(self.game, self.script)
        #: the scripts of the rounds or hands after the first (LATER_HANDS)
        self.later: tuple[Script, ...] = LATER_HANDS.get(found.name, ()) if seed is None else ()
        self._dealt = 1
        self._hint_step = 0
        self._hint_at = -1
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

    def _first_to_play(self, names: list[str]) -> list[str]:
        """Seat the learner left of the seed's dealer, so that the learner
        plays first (TT-3) and the scripted cards are still where they were put."""
        options = dict(self.script.options) if self.script is not None else {}
        dealer = rummy.new_game(self.variant.name, players=names, seed=self.seed,
                                **options).observe(0).dealer
        others = [n for n in names if n != LEARNER]
        others.insert((dealer + 1) % len(names), LEARNER)
        return others

    def observation(self) -> Any:
        """What the learner may see now (the only thing the guide reads about the table)."""
        return self.game.observe(self.learner)

    def _hand_number(self) -> int:
        return int(self.game.observe(self.learner).number)

    @property
    def hands(self) -> int:
        """How many rounds (hands) the guided hand lasts."""
        return 1 + len(self.later)

    @property
    def done(self) -> bool:
        """True once the guided hand is over (its last round or hand scored)."""
        return self.game.is_over or self._hand_number() >= self._start + self.hands

    def _deal_next(self) -> None:
        """At the start of a later round or hand, lay its script (before anybody acts)."""
        if self._dealt < self.hands and self._hand_number() == self._start + self._dealt:
            _stack_deal(self.game, self.later[self._dealt - 1])
            self._dealt += 1

    def _learner_to_act(self) -> bool:
        return not self.done and self.learner in self.game.to_act()

    def _run_bots(self) -> None:
        """Let the bots play until it is the learner's turn or the hand is over."""
        for _ in range(2000):
            if self.done:
                break
            self._deal_next()
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
        """The meld rules of the round or hand being played."""
        return self.observation().rules

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
            if obs.rules.min_naturals:
                head += " A meld needs at least one natural card here (TR-2)."
            if obs.rules.jokers_wild and obs.jokers:
                head += " Jokers are wild too, in every round (TJ-3)."
            if obs.phase == "draw":
                last = " This is your last turn: someone went out (TT-7)." if obs.went_out is not None else ""
                return (f"{head}{last} The discard pile shows {_show(obs.discard_top)}. Draw the top card of "
                        "the stock or of the discard pile (TT-5).")
            return (f"{head} Now discard one card, or go out if every other card is melded (TT-6); "
                    "not the card you just took from the pile (TT-5).")
        if fam == "big_table":
            wild = rank_name(obs.wild_rank, plural=True)
            right = obs.players[obs.right]
            head = f"Hand {obs.hand_number}: {wild} are wild (BT-1). You hold {hand}."
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
        nxt = self._start + self.hands
        end = next((i for i, line in enumerate(self.narration)
                    if line.startswith((f"Round {nxt} ", f"Hand {nxt} ", f"Hand {nxt}:"))),
                   len(self.narration))
        return "The hand is over. " + " ".join(self.narration[max(0, end - 4):end])

    # -- judging -----------------------------------------------------------------------------
    def legal(self) -> list[Action]:
        """The learner's moves now: the engine's legal moves; in Gin a knock
        that may lay out several arrangements is listed once per arrangement,
        named with its melds (G-8a: you choose what you lay out)."""
        if not self._learner_to_act():
            return []
        legal = list(self.game.legal_actions(self.learner))
        if self.family != "gin" or not any(a.verb == "knock" for a in legal):
            return legal
        options = self._knock_options()
        out: list[Action] = []
        for a in legal:
            named = [o.action for o in options if o.action.card == a.card and o.action.verb == a.verb]
            out.extend(named if a.verb == "knock" and len(named) > 1 else [a])
        return out

    def _knock_options(self) -> list[Any]:
        return list(self.observation().knock_options())

    # -- the decision now: its rules and three-step hints -------------------------------------
    def decision(self) -> tuple[str, ...]:
        """The rule ids that decide the learner's decision now, the deciding
        one first (empty when the learner has nothing to decide)."""
        if not self._learner_to_act():
            return ()
        obs = self.observation()
        legal = self.legal()
        verbs = {a.verb for a in legal}
        fam = self.family
        if fam == "three_thirteen":
            last = ("TT-7",) if obs.went_out is not None else ()
            if obs.phase == "draw":
                return last + ("TT-5",)
            if "go out" in verbs:
                out = ("TJ-7", "TT-6") if self.variant.must_go_out else ("TT-6",)
                return last + out + ("TT-5",)
            return last + ("TT-5", "TT-8")
        if fam == "big_table":
            if "call match" in verbs:
                return ("BT-4",)
            return ("BT-3",) if "draw" in obs.phase else ("BT-3", "BT-6")
        if obs.phase == "upcard":
            return ("G-4",)
        if obs.phase == "draw":
            return ("G-5",)
        if obs.phase == "lay off":
            return ("G-8",)
        if any(a.melds for a in legal):
            return ("G-8a", "G-6")
        return ("G-6", "G-5") if "knock" in verbs or "gin" in verbs else ("G-5", "G-6")

    def hints(self) -> tuple[str, str, str]:
        """The three steps of the hint for the decision now (as the drills'
        :func:`rummy.rulebook.three_hints`): what to look at (a question),
        the rule that decides and why, then the move."""
        rules = self.decision()
        if not rules:
            return ("The hand is over.",) * 3 if self.done else ("It is not your turn yet.",) * 3
        good, legal = self.good_moves(), self.legal()
        move = (("Any of your moves is fine here: " if len(good) == len(legal) else "Play ")
                + " or ".join(map(str, good)) + ".")
        look, why = self._look_and_why(rules[0])
        return three_hints(rules[0], look, why, move)

    def hint(self) -> str:
        """The next step of the hint for this decision: first a question that
        points at what to look at, then the rule that decides and why, then
        the move itself (asked again, the move is repeated)."""
        if self.done:
            return "The hand is over."
        at = len(self.game.history)
        if at != self._hint_at:
            self._hint_at, self._hint_step = at, 0
        step = self.hints()[min(self._hint_step, 2)]
        self._hint_step += 1
        return step

    @property
    def hint_step(self) -> int:
        """Which step (1 to 3) of this decision's hint was given last; 0 before any."""
        if self.done or self._hint_at != len(self.game.history):
            return 0
        return min(self._hint_step, 3)

    def _look_and_why(self, rule: str) -> tuple[str, str]:
        obs = self.observation()
        fam = self.family
        if fam == "three_thirteen":
            top = _show(obs.discard_top)
        elif fam == "big_table":
            pile = obs.piles[obs.right]
            top = _show(pile[-1] if pile else None)
        else:
            top = _show(obs.discard_pile[-1] if obs.discard_pile else None)
        draw_why = ("Take the open card only when it completes a meld or lowers the points you "
                    "keep; a blind card may help, the open one you can already judge.")
        return {
            "TT-5": ((f"Look at the open {top}: does it make a meld with your cards, or lower the "
                      "points you would keep?", draw_why) if obs.phase == "draw" else
                     ("Which card of your hand is in no meld, and which costs the most points?",
                      "Your hand is scored by its best arrangement (M-7): throw the card whose "
                      "loss keeps the fewest points.")),
            "TT-6": ("Are all your cards but one in melds now?",
                     "Then throwing that one goes out, and going out scores 0."),
            "TJ-7": ("Are all your cards but one in melds now?",
                     "Then throwing that one goes out whether you say so or not."),
            "TT-7": ("Someone has gone out: what can you still do on this last turn?",
                     "Draw and discard as usual; if your cards then all meld but the discard, "
                     "you go out too and score 0, otherwise keep the fewest points."),
            "BT-3": ((f"Look at the pile on your right ({top}): does it make a meld with your "
                      "cards, or lower the points you would keep?", draw_why)
                     if "draw" in obs.phase else
                     ("Which card of your hand is in no meld, and which costs the most points?",
                      "The hand is scored by its best arrangement (BT-6): throw the card whose "
                      "loss keeps the fewest points.")),
            "BT-4": ("Is every card of your hand in a meld now?",
                     "A match not called does not count, and the others play on (BT-5)."),
            "G-4": (f"Does the upcard {top} make a meld with your cards, or lower your deadwood?",
                    "Take it only when it helps: whoever takes it must discard at once."),
            "G-5": ((f"Does the top discard {top} make a meld with your cards, or lower your "
                     "deadwood?", draw_why) if obs.phase == "draw" else
                    ("Which card of your hand is in no meld, and which costs the most points?",
                     "Deadwood decides whether you can knock and what you lose (G-6).")),
            "G-6": ("Which discard leaves the least deadwood, and is that 10 points or less?",
                    "Then you may knock: a low deadwood is what wins the hand."),
            "G-8a": ("Which of your ways to lay out gives the defender the fewest cards to lay "
                     "off?", "Every card the defender lays off lowers their deadwood, so it "
                     "lowers what you win, or makes you undercut."),
            "G-8": ("Which of your deadwood cards fit onto the knocker's melds, and does laying "
                    "them off lower the deadwood you end with?",
                    "Lay off only what lowers your deadwood: a card that already sits in a meld "
                    "of your own costs nothing where it is."),
        }.get(rule, ("What does the position show that this move depends on?", ""))

    def good_moves(self) -> list[Action]:
        """Every legal move the guide accepts now (never empty while the learner acts)."""
        legal = self.legal()
        if not legal:
            return []
        good = [a for a in legal if self._weakness(self._goes_out(a, legal) or a, legal) is None]
        return good or legal

    def judge(self, action: Action | str) -> Verdict:
        """How ``action`` would be judged now, without playing it."""
        if self.done:
            return Verdict(False, "", "The hand is over.")
        if not self._learner_to_act():
            return Verdict(False, "", "It is not your turn yet.")
        try:
            move = read_move(action)
        except GameError as e:  # a spelling matter: how moves are written, no game rule
            return Verdict(False, "", str(e) + ". Your moves now: "
                           + ", ".join(map(str, self.legal())) + ".")
        legal = self.legal()
        same = self._goes_out(move, legal)
        if same is not None:
            move = same
        if move not in legal:
            return self._why_not_out(move) or Verdict(False, "", "")  # else the engine says why
        weak = self._weakness(move, legal)
        return weak if weak is not None else Verdict(True, "", "")

    def _goes_out(self, move: Action, legal: Sequence[Action]) -> Action | None:
        """A discard that leaves every other card melded *is* going out (TT-6;
        where going out is not optional the engine lists it as ``go out``
        only, TJ-7): ``discard X`` is read as ``go out X`` when that is legal."""
        if self.family != "three_thirteen" or move.verb != "discard" or move.card is None:
            return None
        out = Action("go out", move.card)
        return out if out in legal else None

    def _why_not_out(self, move: Action) -> Verdict | None:
        """TR-2 in words, for a refused 'go out' that would leave wilds only."""
        rules = self.rules()
        hand = list(self.observation().hand)
        if move.verb != "go out" or move.card is None or move.card not in hand or not rules.min_naturals:
            return None
        rest = _without(hand, move.card)
        if not all(rules.is_wild(c) for c in rest):
            return None
        return Verdict(False, "TR-2", f"without the {move.card.symbol} you keep "
                       f"{' '.join(c.symbol for c in rest)}, wilds only, and a meld needs at least "
                       "one natural card (TR-2); in standard Three Thirteen that would be a meld.")

    def try_move(self, action: Action | str) -> tuple[bool, str]:
        """Play ``action`` if it is a good move; otherwise say why not (and
        leave the table as it was). Returns (accepted, feedback)."""
        verdict = self.judge(action)
        if not verdict.accepted and verdict.why:
            return self._refuse(verdict)
        if not verdict.accepted:  # illegal: let the engine explain, the state stays untouched
            try:
                self.game.apply(read_move(action), player=self.learner)
            except GameError as e:
                found = rules_in(str(e))
                phase = self.observation().phase
                rule = found[0] if found else _PHASE_RULE.get(phase, _DEFAULT_RULE[self.family])
                text = str(e) if found else f"{e} ({rule})"
                return self._refuse(Verdict(False, rule, text))
            raise AssertionError("a move outside legal_actions was accepted")  # pragma: no cover
        said = read_move(action)
        legal = self.legal()
        move = self._goes_out(said, legal) or said
        note = ""
        if move != said:  # a discard that goes out, see _goes_out
            note = (f" Throwing the {_show(move.card)} leaves every other card melded, so you go "
                    "out with it (TT-6)." if not self.variant.must_go_out else
                    f" Throwing the {_show(move.card)} leaves every other card melded, so it goes "
                    "out: here going out is not optional (TJ-7).")
        before = len(self.game.log)
        number = self._hand_number()
        self.game.apply(move, player=self.learner)
        ended = self._hand_number() != number  # your move ended a round or hand: tell it whole
        self.moves += 1
        after_me = len(self.game.log)
        self._run_bots()
        mine, theirs = self.game.log[before:after_me], self.game.log[after_me:]
        if self.done:
            self.feedback = "Good." + note + " " + self.summary()
            return True, self.feedback
        self.feedback = ("Good." + note + " " + " ".join(mine if ended else mine[-2:])).strip()
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
            if top is None or take is None:
                return None
            # TT-5: the card taken can't be thrown back the same turn (Big Table: it can)
            return self._weak_draw(move, take, top, hand, rules, keep_top=fam == "three_thirteen")
        if move.verb in ("go out", "discard") and "discard" in obs.phase:
            outs = [a for a in legal if a.verb == "go out"]
            if outs and move.verb == "discard":
                rest = _without(hand, move.card) if move.card is not None else hand
                natural = ""
                if rules.min_naturals and all(rules.is_wild(c) for c in rest):
                    natural = (f" Throwing the {_show(move.card)} would leave wilds only, and a meld "
                               "needs at least one natural card (TR-2).")
                must = (" Here going out is not optional: a discard that leaves every other card "
                        "melded goes out (TJ-7)." if self.variant.must_go_out else "")
                return Verdict(False, "TT-6", f"you can go out: throw {_show(outs[0].card)} and every "
                               "other card is melded (TT-6); going out scores 0 and leaves the others "
                               f"one last turn each (TT-7).{natural}{must}")
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

    def _weak_draw(self, move: Action, take: Action, top: Card, hand: list[Card],
                   rules: MeldRules, *, keep_top: bool) -> Verdict | None:
        """Judge a draw: the open card ``top`` (taken by ``take``) against a blind draw.

        Taking the open card is clearly better when it lets you go out (call
        match, knock) or completes a meld; it is clearly weaker when it does
        not lower the points of the best hand you can keep (a blind card may
        help, the open one surely does not).  Otherwise both are fine.
        """
        fam = self.family
        now = best_arrangement(hand, rules)
        with_top = hand + [top]
        throws = hand if keep_top else with_top
        after = min((best_arrangement(_without(with_top, c), rules) for c in throws),
                    key=lambda a: (a.penalty, -_melded(a)))
        choice = {"three_thirteen": "TT-5", "big_table": "BT-3"}.get(fam, "G-5")
        if self._upcard_phase():
            choice = "G-4"
        blind = "a card from the stock" if fam != "big_table" else "a card from the pool"
        if move != take:
            if fam == "gin":
                limit = self.variant.knock_limit
                if after.penalty <= limit < now.penalty:
                    return Verdict(False, "G-6", f"take the {top.symbol}: with it you can knock "
                                   f"this turn, with {after.penalty} points of deadwood (G-6); "
                                   f"{blind} may not help at all.")
            elif after.penalty == 0:
                rule = "TT-6" if fam == "three_thirteen" else "BT-4"
                return Verdict(False, rule, f"take the {top.symbol}: with it every card but one is "
                               f"melded, so you can {'go out' if rule == 'TT-6' else 'call match'} "
                               f"this turn ({rule}); {blind} may not help at all.")
            if _melded(after) > _melded(now) and after.penalty < now.penalty:
                meld = next(m for m in after.melds if top in m.cards)
                return Verdict(False, choice, f"take the {top.symbol}: it completes the meld "
                               f"{' '.join(c.symbol for c in meld.cards)}, and the best hand you "
                               f"can keep drops from {now.penalty} to {after.penalty} points; "
                               f"{blind} is blind and may not help ({choice}).")
            return None
        if after.penalty < now.penalty:
            return None
        naturals = [c for c in with_top if not rules.is_wild(c)]
        if rules.min_naturals and rules.is_wild(top) and not naturals:
            return Verdict(False, "TR-2", f"the {top.symbol} is wild too (TT-2), and a meld needs at "
                           "least one natural card (TR-2): wilds alone make no meld, and each "
                           "left unmelded costs its face value (TR-3, TT-8). A card from the stock "
                           f"is natural unless it is a {rank_name(top.rank)}.")
        cost = "deadwood" if fam == "gin" else "points"
        back = (" and you may not throw it back this turn" if keep_top or fam == "gin" else "")
        return Verdict(False, choice, f"the {top.symbol} does not help you: with it the best hand "
                       f"you can keep still costs {after.penalty} {cost} (now {now.penalty}){back}; "
                       f"{blind} may ({choice}).")

    def _upcard_phase(self) -> bool:
        return self.family == "gin" and self.observation().phase == "upcard"

    def _weak_gin(self, move: Action, legal: Sequence[Action], obs: Any, hand: list[Card],
                  rules: MeldRules) -> Verdict | None:
        if obs.phase in ("upcard", "draw"):
            take = next((a for a in legal if a.verb in ("take upcard", "draw discard")), None)
            top = obs.discard_pile[-1] if obs.discard_pile else None
            if take is None or top is None or len(legal) < 2:
                return None
            return self._weak_draw(move, take, top, hand, rules, keep_top=True)
        if obs.phase == "discard":
            points = self._discard_points(hand, legal, ("discard", "knock", "gin"), rules)
            if move not in points:
                return None
            if move.melds:
                weaker = self._weak_layout(move)
                if weaker is not None:
                    return weaker
            best = min(points.values())
            gins = [a for a, p in points.items() if p == 0 and a.verb in ("knock", "gin")]
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
        if obs.phase == "lay off":
            # judged by the engine's outcome: the move, then the best lay-offs after it
            ends = {a: self._layoff_end(a) for a in legal}
            best = max(ends.values())
            if move in ends and ends[move] < best:
                better = next(a for a, v in ends.items() if v == best)
                if move.verb == "lay out":
                    return Verdict(False, "G-8", f"laying out now ends the hand "
                                   f"{best - ends[move]} points worse for you than laying off "
                                   f"first ({better}): a card laid off costs you nothing (G-8).")
                return Verdict(False, "G-8", f"laying off the {_show(move.card)} ends the hand "
                               f"{best - ends[move]} points worse for you than {better}: it does "
                               "more good in a meld of your own (G-8).")
        return None

    def _layoff_end(self, move: Action) -> int:
        """Your points less the knocker's once the hand is scored, if you play
        ``move`` now and then the best lay-offs (on a copy of the engine)."""
        twin = copy.deepcopy(self.game)
        knocker = twin.observe(self.learner).knock.knocker
        before = list(twin.scores)
        twin.apply(move, player=self.learner)
        for _ in range(20):
            if twin.phase != "lay off":
                break
            plan = twin.observe(self.learner).layoff_plan
            twin.apply(plan[0] if plan else Action("lay out"), player=self.learner)
        mine = twin.scores[self.learner] - before[self.learner]
        theirs = twin.scores[knocker] - before[knocker]
        return int(mine - theirs)

    def _weak_layout(self, move: Action) -> Verdict | None:
        """G-8a: among the ways to lay out a knock with this discard, one that
        keeps no less deadwood and offers the defender more cards to lay off
        is weaker."""
        options = [o for o in self._knock_options() if o.action.card == move.card]
        mine = next((o for o in options if o.action == move), None)
        if mine is None:
            return None
        better = [o for o in options if o.deadwood_points <= mine.deadwood_points
                  and o.open_cards < mine.open_cards]
        if not better:
            return None
        b = min(better, key=lambda o: (o.open_cards, o.deadwood_points))
        return Verdict(False, "G-8a", f"you choose the melds you lay out (G-8a), and these leave "
                       f"{mine.open_cards} cards you haven't seen that your opponent could lay off; "
                       f"{' '.join('[' + ' '.join(c.symbol for c in m) + ']' for m in b.melds)} "
                       f"leaves only {b.open_cards}, with {b.deadwood_points} deadwood.")


def _stack_deal(game: Any, script: Script) -> None:
    """Put the scripted cards where the script says, before anybody moves.

    The family's ``arrange()`` lays the position (seats the script does
    not name get cards of the seed's shoe), so the guided game is saved
    with it and reloads and replays exactly; nothing moves cards inside a
    running engine.
    """
    if len(game.history) != getattr(game, "_hand_start", 0):
        raise ValueError("a scripted deal is laid at the start of a round or hand, before anybody "
                         "moves in it")
    if game.family == "gin":  # the box's and the captain's hands, by name; roles as they are
        obs = game.observe(0)
        box, captain = game.players[obs.box], game.players[obs.captain]
        if set(script.hands) != {box, captain}:
            raise ValueError(f"a Gin script gives the hands of the box ({box}) and the captain "
                             f"({captain})")
        game.arrange(script.hands[box], script.hands[captain], script.upcard,
                     stock_top=script.stock_top)
        return
    if game.family == "big_table":  # the Big Table engine lays a chosen position itself
        names = list(game.players)
        piles = dict(script.piles)
        if set(script.hands) != set(names) or set(piles) != set(names):
            raise ValueError("a Big Table script gives every seat's hand and pile: "
                             + ", ".join(names))
        game.arrange(hands=[script.hands[n] for n in names], piles=[piles[n] for n in names],
                     pool_top=script.stock_top)
        return
    seats = {name: i for i, name in enumerate(game.players)}
    unknown = [name for name in script.hands if name not in seats]
    if unknown:
        raise ValueError(f"the script names {', '.join(unknown)}, who is not at the table; "
                         f"the players are {', '.join(game.players)}")
    size = len(game.hands[0])
    chosen = {seats[name]: list(cards(text)) for name, text in script.hands.items()}
    for seat, hand in chosen.items():
        if len(hand) != size:
            raise ValueError(f"{game.players[seat]} is dealt {size} cards, not {len(hand)}")
    up = Card.parse(script.upcard)
    top = list(cards(script.stock_top)) if script.stock_top else []
    # every card of the shoe, in the seed's order: stock bottom first, then hands, then the pile
    shoe = list(game.stock.cards) + [c for hand in game.hands for c in hand] + list(game.pile)
    need = Counter([c for hand in chosen.values() for c in hand] + [up] + top)
    missing = need - Counter(shoe)
    if missing:
        raise ValueError("the shoe does not hold " + ", ".join(map(str, missing.elements())))
    rest = list(shoe)
    for card in need.elements():
        rest.remove(card)
    for seat in range(len(game.players)):
        if seat not in chosen:
            chosen[seat] = [rest.pop() for _ in range(size)]
    hands = [list(chosen[seat]) for seat in range(len(game.players))]
    # the engine lays the position (saved with the game: it reloads and replays exactly)
    game.arrange(hands, [up], top, dealer=game.dealer)
    game.check_invariants()
