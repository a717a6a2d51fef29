"""What every game family shares, written once.

:class:`Engine` is the base class of the three engines
(:class:`~rummy.three_thirteen.ThreeThirteenGame`,
:class:`~rummy.big_table.BigTableGame`, :class:`~rummy.gin.GinGame`), in the
way OpenSpiel's ``State`` owns ``apply_action`` and the history while a game
writes a handful of hooks.  The base owns:

- the seed (drawn when none is given, and saved), the history of
  ``(seat, Action)`` pairs, the saved form (:meth:`Engine.to_json`) and
  loading it back by replay (:meth:`Engine.load`);
- seats given as a number or a player's name (:meth:`Engine._seat`);
- :meth:`Engine.apply`: refuse a move once the game is over, read the text,
  find the seat, ask the family whether the move is legal, record it, do it;
- :meth:`Engine.undo` (returns the moves it took back), :meth:`Engine.summary`,
  :meth:`Engine.score_sheet`, :meth:`Engine.winners` / :attr:`Engine.winner`,
  :attr:`Engine.number`, :attr:`Engine.is_over` and
  :meth:`Engine.check_invariants` (every card of the shoe in exactly one place).

A family writes only its rules, as these hooks:

======================  ==================================================
``_create`` (class)     a new game from variant, players, seed, options
``legal_actions``       the moves a seat may make now
``_legal_move``         why a move is illegal (raise) or the move to record
``_make_move``          doing a legal move
``observe``             what a seat sees (an :class:`Observation`)
``_card_places``        where the cards are (for the invariant check)
``_decks``              (packs, jokers) of the full shoe
``_score_rows``         one labelled row of points per round or hand played
``_went_out``           per seat, rounds gone out / matched / hands won
======================  ==================================================

and, where it needs them, ``_saved_extra`` / ``_start_replay`` /
``_before_move`` / ``_check_loaded`` (more keys in the saved game),
``_check_more`` (its own invariants), ``_over_text`` and ``_parse``.

>>> Engine.draw_seed(7)
7
>>> isinstance(Engine.draw_seed(None), int)
True
>>> Engine.draw_seed("7")
Traceback (most recent call last):
...
rummy.errors.GameError: seed must be a whole number or None, not '7'
>>> from rummy import new_game
>>> g = new_game("three_thirteen", players=["Ana", "Ben"], seed=7)
>>> g.apply("draw stock", player="Ana")
>>> g.undo()
[(0, Action.parse('draw stock'))]
>>> g.number, g.is_over, g.winners(), g.winner
(1, False, [], None)
"""

from __future__ import annotations

import copy
import functools
import importlib
import json
import secrets
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from rummy.action import Action
from rummy.cards import Card, deck
from rummy.errors import ActionError, GameError
from rummy.variants import FAMILIES, Variant, find_variant

if TYPE_CHECKING:
    from typing import Self

__all__ = ["ENGINES", "Engine", "Observation", "engine_class", "DEFAULT_NAMES", "player_names",
           "undo_point", "standings"]

#: The registry: a game family's name -> its engine class.  A class joins it by
#: naming its family, ``class GinGame(Engine, family="gin")``; the family's
#: module is ``rummy.<family>`` and is imported on first use.
ENGINES: dict[str, type[Engine]] = {}


#: Names given to seats when only a number of players is asked for.
DEFAULT_NAMES = (
    "Ana", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hana", "Ivo", "Jun", "Kai", "Lea",
    "Max", "Nia", "Oto", "Pia", "Quin", "Rey", "Sol", "Tess", "Uma", "Vic", "Wes", "Xia",
)


def player_names(players: int | Sequence[str] | None, variant: Variant) -> tuple[str, ...]:
    """Seat names from a count or a list of names, checked against the variant."""
    if players is None:
        players = variant.default_players
    if isinstance(players, int) and not isinstance(players, bool):
        variant.check_players(players)  # before any name is made (players=10**30 must not hang)
        names = tuple(DEFAULT_NAMES[i % len(DEFAULT_NAMES)] + ("" if i < len(DEFAULT_NAMES) else
                      str(i // len(DEFAULT_NAMES) + 1)) for i in range(max(players, 0)))
        count = players
    elif isinstance(players, Sequence) and not isinstance(players, str):
        names = tuple(str(p) for p in players)
        count = len(names)
        if len(set(names)) != len(names):
            raise GameError(f"player names must differ: {list(names)}")
    else:
        raise GameError(f"players must be a number or a list of names, not {players!r}")
    variant.check_players(count)
    return names


def undo_point(history: Sequence[tuple[int, Any]], seat: int | None, name: str = "") -> int:
    """Where an undo cuts ``history``: the last move, or with ``seat`` that
    seat's last move (``name`` names the seat in the error).

    >>> undo_point([(0, "draw stock"), (1, "draw stock")], None)
    1
    >>> undo_point([(0, "draw stock"), (1, "draw stock")], 0)
    0
    >>> undo_point([(0, "draw stock")], 1, "Ben")
    Traceback (most recent call last):
    ...
    rummy.errors.GameError: nothing to undo: Ben has not moved yet
    """
    if not history:
        raise GameError("nothing to undo: no move has been made yet")
    cut = len(history) - 1
    if seat is not None:
        while cut >= 0 and history[cut][0] != seat:
            cut -= 1
        if cut < 0:
            raise GameError(f"nothing to undo: {name or f'seat {seat}'} has not moved yet")
    return cut


def standings(scores: Sequence[int], low_wins: bool, over: bool) -> tuple[list[int], list[int]]:
    """The rank of each seat (1 = best, ties share) and the winner, as a list:
    ``[seat]`` once the game is over, ``[]`` while it goes on or when two or
    more tie for the best total (TT-9, BT-7).  The lowest total is best, or the
    highest where ``low_wins`` is False (gin, G-13).

    >>> standings([12, 7, 7], low_wins=True, over=True)
    ([3, 1, 1], [])
    >>> standings([12, 7, 30], low_wins=False, over=True)
    ([2, 3, 1], [2])
    """
    sign = 1 if low_wins else -1
    ranks = [1 + sum(1 for t in scores if sign * t < sign * s) for s in scores]
    if not over or not scores:
        return ranks, []
    top = [i for i, r in enumerate(ranks) if r == 1]
    return ranks, top if len(top) == 1 else []


def engine_class(variant: str | Variant) -> type[Engine]:
    """The engine class of a variant (any name or alias) or of a family name.

    >>> engine_class("tre_tretton").__name__, engine_class("gin").__name__
    ('ThreeThirteenGame', 'GinGame')
    >>> engine_class("big_table").observation.__name__
    'BigTableObservation'
    """
    family = variant if isinstance(variant, str) and variant in FAMILIES else \
        find_variant(variant).family
    if family not in ENGINES:
        importlib.import_module(f"rummy.{family}")
    return ENGINES[family]


@functools.lru_cache(maxsize=32)
def _shoe_indices(packs: int, jokers: int) -> tuple[int, ...]:
    return tuple(sorted(c.index for c in deck(packs, jokers)))


_T = TypeVar("_T")


def frozen_of(cls: type[_T], values: dict[str, Any]) -> _T:
    """An instance of the frozen dataclass ``cls`` (one whose fields live
    in its ``__dict__``, not in slots) that holds ``values``, a value for
    every field, made without calling ``__init__``: one call where
    ``__init__`` stores the fields one by one (an observation per move
    has some 30).  The caller names every field; each family's
    observation is checked against its ``__init__`` in the conformance
    suite.

    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True)
    ... class Seen:
    ...     seat: int
    ...     cards: tuple[str, ...] = ()
    >>> frozen_of(Seen, {"seat": 1, "cards": ("7h",)}) == Seen(1, ("7h",))
    True
    """
    obj = _new(cls)
    _setattr(obj, "__dict__", values)
    return obj  # type: ignore[no-any-return]


_new = object.__new__
_setattr = object.__setattr__


class Observation:
    """The names every family's observation shares (a mixin of the three
    frozen dataclasses :class:`~rummy.three_thirteen.ThreeThirteenObservation`,
    :class:`~rummy.big_table.BigTableObservation` and
    :class:`~rummy.gin.GinObservation`).

    Every observation has ``variant``, ``player`` (the seat observing),
    ``players``, ``phase`` (``"over"`` at the end in every family),
    ``legal_actions`` (a tuple, empty unless this seat must act), ``hand``
    (this seat's own cards), ``scores`` and ``log``; and, from here,
    :attr:`number` (the round or hand), :attr:`is_over` and :attr:`my_turn`.

    >>> from rummy import new_game, variant_names
    >>> for name in variant_names():
    ...     o = new_game(name, seed=1).observe(0)
    ...     assert isinstance(o, Observation) and isinstance(o.legal_actions, tuple)
    ...     print(name, o.number, o.is_over, o.my_turn == bool(o.legal_actions))
    three_thirteen 1 False True
    tre_tretton 1 False True
    three_thirteen_jokers 1 False True
    big_table 1 False True
    gin_three 1 False True
    """

    __slots__ = ()

    # (the fields every family has; declared here for the properties below)
    phase: str
    legal_actions: tuple[Action, ...]
    hand: tuple[Card, ...]

    #: the family's own name for :attr:`number` ("round" or "hand_number")
    number_field: ClassVar[str] = "round"

    @property
    def number(self) -> int:
        """The round (Three-Thirteen) or hand (Big Table, gin) being played."""
        return int(getattr(self, self.number_field))

    @property
    def is_over(self) -> bool:
        """True once the game has ended (``phase == "over"``)."""
        return self.phase == "over"

    @property
    def my_turn(self) -> bool:
        """True when this seat must act now."""
        return bool(self.legal_actions)

    @property
    def hand_in_play(self) -> tuple[Card, ...]:
        """The cards this seat plays or advises on: its own hand (gin's
        advisor, who holds none, sees the captain's)."""
        return self.hand

    def discards_seen(self) -> list[Card]:
        """Cards this seat has seen go out of reach: the discard piles, as far
        as the observation shows them (public facts only)."""
        raise NotImplementedError


class Engine:
    """The shared part of a game state: ``variant``, ``players``, ``seed``,
    ``options``, ``log``, ``scores``, ``phase`` and ``history``
    (``(seat, Action)`` pairs), saved by :meth:`to_json` as ``{"variant",
    "players", "seed", "options", "actions"}`` plus the family's extra keys.
    """

    #: the family this engine plays (its entry in :data:`ENGINES`)
    family: ClassVar[str] = ""
    #: the class :meth:`observe` returns
    observation: ClassVar[type[Observation]] = Observation

    def __init_subclass__(cls, family: str = "", **kw: Any) -> None:
        super().__init_subclass__(**kw)
        if family:
            cls.family = family
            ENGINES[family] = cls

    variant: Variant
    players: tuple[str, ...]
    seed: int
    options: dict[str, Any]
    history: list[tuple[int, Action]]
    log: list[str]
    scores: list[int]
    phase: str
    #: the round (Three-Thirteen) or hand (Big Table, gin) being played
    number: int
    #: True when the lowest total wins (Three-Thirteen, Big Table); gin: highest
    low_wins: ClassVar[bool] = True
    #: what a row of the score sheet is ("round" or "hand")
    row_name: ClassVar[str] = "round"

    # -- hooks a family writes -------------------------------------------------
    @classmethod
    def start(cls, variant: Variant | str, players: Any = None, seed: int | None = None,
              **options: Any) -> Self:
        """A new game (``rummy.new_game`` calls this through :func:`engine_class`)."""
        return cls._create(find_variant(variant), players, seed, options)

    def observe(self, player: int | str) -> Any:
        """Everything seat ``player`` may see now (an :attr:`observation`)."""
        raise NotImplementedError

    @classmethod
    def _create(cls, variant: Variant, players: Any, seed: int | None,
                options: Mapping[str, Any]) -> Self:
        """A new game of this family (the family's constructor)."""
        raise NotImplementedError

    def legal_actions(self, player: int | str | None = None) -> list[Action]:
        """The moves ``player`` (default: whoever is to act) may make now."""
        raise NotImplementedError

    def to_act(self) -> list[int]:
        """Seats that must act now."""
        raise NotImplementedError

    def _legal_move(self, action: Action, seat: int, said: Action | str) -> Action:
        """The move to record if ``action`` is legal for ``seat`` now (the
        family may normalise it); else raise :class:`GameError` saying why and
        what is allowed.  Must not change the game.  (``said``: the move as
        the player gave it, an Action or its text, for the messages.)"""
        raise NotImplementedError

    def _make_move(self, action: Action, seat: int) -> None:
        """Do a legal move (already in the history)."""
        raise NotImplementedError

    def _card_places(self) -> Iterable[Iterable[Card]]:
        """Every place that holds cards (stock, piles, hands, ...)."""
        raise NotImplementedError

    def _decks(self) -> tuple[int, int]:
        """(packs, jokers) of the full shoe."""
        raise NotImplementedError

    def _score_rows(self) -> list[tuple[str, list[int]]]:
        """One ``(label, points per seat)`` row per round or hand played."""
        raise NotImplementedError

    def _went_out(self) -> list[int]:
        """Per seat: rounds gone out, hands matched or hands won."""
        raise NotImplementedError

    def _check_more(self) -> None:
        """The family's own invariants (hand sizes for the phase, ...)."""

    def _hidden_from(self, seat: int) -> tuple[list[Card], list[tuple[list[Card], int]]]:
        """What ``seat`` can't know: the face-down stock (a list, changed in
        place) and the places ``(hand, index)`` of other seats' hidden cards."""
        raise NotImplementedError

    def _after_redeal(self) -> None:
        """Drop caches that depend on where the cards are."""

    @staticmethod
    def _unknown_in(hand: list[Card], seen: Iterable[Card]) -> list[tuple[list[Card], int]]:
        """The places ``(hand, index)`` of the cards of ``hand`` that are not
        among ``seen`` (cards shown face up; each counts once)."""
        left = list(seen)
        out = []
        for i, c in enumerate(hand):
            if c in left:
                left.remove(c)
            else:
                out.append((hand, i))
        return out

    def _over_text(self) -> str:
        return "the game is over: no more moves (start a new game)"

    def _parse(self, action: Action | str) -> Action:
        """Read an action given as text (or check an Action)."""
        if isinstance(action, Action):
            return action
        if not isinstance(action, str):
            raise GameError(f"an action is an Action or text such as 'discard 9c', "
                            f"not {action!r}")
        try:
            return Action.parse(action)
        except GameError:
            raise
        except ValueError as e:
            raise ActionError(str(e)) from None

    # -- seeds and seats ---------------------------------------------------------
    @staticmethod
    def draw_seed(seed: int | None) -> int:
        """``seed``, or a fresh random one when it is None (so that every
        game can be saved, loaded and undone by replaying it)."""
        if seed is None:
            seed = secrets.randbits(63)
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise GameError(f"seed must be a whole number or None, not {seed!r}")
        return seed

    def _seat(self, player: int | str | None) -> int:
        """A seat from a seat number or a player's name; None means the one
        seat to act (an error while several act at once or nobody acts)."""
        n = len(self.players)
        if type(player) is int and 0 <= player < n:
            return player
        if player is None:
            acting = self.to_act()
            if len(acting) == 1:
                return acting[0]
            if not acting:
                raise GameError("nobody has anything to do now: the game is over")
            names = ", ".join(self.players[s] for s in acting)
            raise GameError(
                f"several players act at once now ({names}): say which one with player=seat"
            )
        if isinstance(player, str) and player in self.players:
            return self.players.index(player)
        raise GameError(f"player must be a seat 0..{n - 1} or a name, but {player!r} is not "
                        f"a seat: seats are 0 to {n - 1} ({', '.join(self.players)})")

    # -- moves -------------------------------------------------------------------
    def apply(self, action: Action | str, player: int | str | None = None) -> None:
        """Make a move for ``player`` (a seat or a name; default: the one seat
        to act).

        An illegal move raises :class:`rummy.errors.GameError` saying why and
        what is allowed, and changes nothing.
        """
        if self.is_over:
            raise GameError(self._over_text())
        seat = self._seat(player)
        # the move as given goes along for the messages (turned into text
        # only when one is written: most moves are legal)
        act = self._legal_move(self._parse(action), seat, action)
        self.history.append((seat, act))
        self._make_move(act, seat)

    # -- saving, loading, replay, undo -----------------------------------------
    def to_json(self) -> str:
        """The game as JSON: variant, players, seed, options and every
        action, plus what the family adds (an exact round trip with
        ``rummy.load_game``)."""
        return json.dumps({
            "variant": self.variant.name,
            "players": list(self.players),
            "seed": self.seed,
            "options": self.options,
            "actions": [[seat, str(a)] for seat, a in self.history],
        } | self._setups_saved() | self._saved_extra())

    # -- chosen positions (arrange) ---------------------------------------------
    #: the positions set with ``arrange()``, each with ``"at"``: the number of
    #: moves made before it (saved by :meth:`to_json`, replayed in order)
    setups: list[dict[str, Any]]
    #: where the current round or hand began in ``history`` (arrange() is
    #: allowed only there)
    _hand_start: int = 0

    def _setups_saved(self) -> dict[str, Any]:
        setups = getattr(self, "setups", None)
        return {"setups": [dict(s) for s in setups]} if setups else {}

    def _apply_setup(self, setup: dict[str, Any]) -> None:
        """Lay the chosen position ``setup`` (the family's own keys); check it
        whole first and raise :class:`GameError` before changing anything."""
        raise NotImplementedError(f"{type(self).__name__} has no arrange()")

    def _arrange(self, setup: dict[str, Any]) -> None:
        """Check that a round or hand has just begun, lay ``setup`` and keep it
        for saving and replay (every family's ``arrange()`` ends here).  A bad
        setup raises :class:`GameError` and leaves the game as it was."""
        if self.is_over or len(self.history) != self._hand_start:
            raise GameError(f"arrange() works only at the start of a {self.row_name}, "
                            "before anybody acts in it")
        setup = {"at": len(self.history), **setup}
        self._apply_setup(setup)  # checks everything before it changes anything
        if not hasattr(self, "setups") or self.setups is None:
            self.setups = []
        self.setups.append(setup)

    def _saved_extra(self) -> dict[str, Any]:
        """Keys a family adds to the saved game (none by default)."""
        return {}

    def _start_replay(self, saved: Mapping[str, Any], moves: int) -> None:
        """Read the positions set with ``arrange()`` up to move ``moves``, in order."""
        setups = saved.get("setups", [])
        if not isinstance(setups, list) or not all(
                isinstance(s, Mapping) and isinstance(s.get("at"), int) for s in setups):
            raise GameError(f"a saved game lists its setups as objects with 'at', not {setups!r}")
        self._pending_setups = sorted((dict(s) for s in setups if s["at"] <= moves),
                                      key=lambda s: s["at"])

    def _before_move(self, i: int) -> None:
        """Called before replaying move ``i`` (and once after the last): lays
        the positions set with ``arrange()`` at that point."""
        pending = getattr(self, "_pending_setups", None)
        while pending and pending[0]["at"] == i:
            setup = pending.pop(0)
            self._apply_setup(setup)
            if not hasattr(self, "setups") or self.setups is None:
                self.setups = []
            self.setups.append(setup)

    def _check_loaded(self, saved: Mapping[str, Any]) -> None:
        """Compare the replayed game with what ``saved`` says (raise GameError)."""

    def _replay(self, actions: Sequence[Any], saved: Mapping[str, Any]) -> None:
        """Replay ``actions`` (``(seat, action)`` pairs) on this fresh game."""
        self._start_replay(saved, len(actions))
        for i, item in enumerate(actions):
            self._before_move(i)
            try:
                seat, act = item
                self.apply(act, player=int(seat))
            except (GameError, ValueError, TypeError) as e:
                raise GameError(f"move {i + 1} ({item[0]}: {item[1]}) does not replay: {e}"
                                if isinstance(item, Sequence) and len(item) == 2
                                else f"move {i + 1} ({item!r}) does not replay: {e}") from None
        self._before_move(len(actions))

    @classmethod
    def load(cls, obj: Mapping[str, Any] | str) -> Self:
        """Rebuild a game saved with :meth:`to_json` by replaying its moves
        from the seed (``rummy.load_game`` checks the shape first, then calls
        this on the family's class, :func:`engine_class`)."""
        if isinstance(obj, str):
            try:
                obj = json.loads(obj)
            except ValueError as e:
                raise GameError(f"a saved game is JSON text; this is not: {e}") from None
        if not isinstance(obj, Mapping):
            raise GameError("a saved game is a JSON object")
        for key in ("variant", "players", "seed", "actions"):
            if key not in obj:
                raise GameError(f"a saved game needs the key {key!r}; it has: "
                                f"{', '.join(map(str, obj))}")
        g = cls._create(find_variant(obj["variant"]), obj["players"], obj["seed"],
                        obj.get("options") or {})
        g._replay(obj["actions"], obj)
        g._check_loaded(obj)
        return g

    def undo(self, player: int | str | None = None) -> list[tuple[int, Action]]:
        """Take back the last move (or, with ``player``, a seat or a name,
        everything back to and including that player's last move) and return
        the ``(seat, Action)`` pairs taken back, oldest first.

        The game is replayed from its seed without them, so the stock keeps
        its order: a card drawn again after an undo is the same card.
        """
        seat = None if player is None else self._seat(player)
        cut = undo_point(self.history, seat, "" if seat is None else self.players[seat])
        undone = self.history[cut:]
        fresh = self._create(self.variant, list(self.players), self.seed, self.options)
        fresh._replay(self.history[:cut], self._saved_extra() | self._setups_saved())
        self.__dict__.update(fresh.__dict__)
        return undone

    # -- scores and the end ------------------------------------------------------
    @property
    def is_over(self) -> bool:
        """True once the game has ended (``phase == "over"``)."""
        return self.phase == "over"

    def winners(self) -> list[int]:
        """``[seat]`` of the winner once the game is over; ``[]`` while it
        goes on or when two or more tie for the best total (TT-9, BT-7)."""
        return standings(self.scores, self.low_wins, self.is_over)[1]

    @property
    def winner(self) -> int | None:
        """The winning seat once the game is over; None on a tie or while playing."""
        won = self.winners()
        return won[0] if won else None

    def summary(self) -> list[dict[str, Any]]:
        """Per seat: ``seat``, ``player``, ``score`` (total), ``rank`` (1 =
        best, ties share), ``won`` (bool; False for everyone on a tie) and
        ``went_out`` (rounds gone out first, hands matched or hands won)."""
        ranks, won = standings(self.scores, self.low_wins, self.is_over)
        went = self._went_out()
        return [{
            "seat": seat,
            "player": self.players[seat],
            "score": total,
            "rank": ranks[seat],
            "won": seat in won,
            "went_out": went[seat],
        } for seat, total in enumerate(self.scores)]

    def score_rows(self) -> list[tuple[str, list[int]]]:
        """The score sheet without pandas: one ``(label, points per seat)`` row per
        round or hand played (labelled as :attr:`row_name` counts them), then
        ``("Total", totals)``.

        >>> from rummy import new_game
        >>> new_game("three_thirteen", players=["Ana", "Ben"], seed=1).score_rows()
        [('Total', [0, 0])]
        """
        return [(str(label), list(r)) for label, r in self._score_rows()] + [
            ("Total", list(self.scores))]

    def score_sheet(self) -> Any:
        """The scores as a pandas DataFrame: one row per round or hand played,
        one column per player, and a ``Total`` row (:meth:`score_rows` without pandas)."""
        import pandas as pd

        rows = self.score_rows()
        df = pd.DataFrame([r for _, r in rows], index=[label for label, _ in rows],
                          columns=list(self.players), dtype="int64")
        df.index.name = self.row_name
        return df

    def redeal_hidden(self, seat: int | str, rng: Any) -> Self:
        """A copy of the game in which every card ``seat`` can't know (the
        stock and the other seats' hidden cards) is dealt afresh with ``rng``
        (a ``random.Random``): a world ``seat`` can't tell from this one.
        ``observe(seat)`` and every error shown to ``seat`` are the same in
        both (tests/test_conformance.py checks it); a bot may search over such
        worlds.

        >>> import random
        >>> from rummy import new_game
        >>> g = new_game("gin_three", seed=5)
        >>> h = g.redeal_hidden(g.box, random.Random(1))
        >>> h.observe(g.box) == g.observe(g.box), h.hands[g.captain] != g.hands[g.captain]
        (True, True)
        """
        s = self._seat(seat)
        h = copy.deepcopy(self)
        stock, slots = h._hidden_from(s)
        pool = list(stock) + [hand[i] for hand, i in slots]
        rng.shuffle(pool)
        stock[:] = pool[:len(stock)]
        for (hand, i), c in zip(slots, pool[len(stock):]):
            hand[i] = c
        h._after_redeal()
        return h

    # -- checks --------------------------------------------------------------------
    def check_invariants(self) -> None:
        """Raise AssertionError if a card is lost, duplicated or misplaced:
        every card of the shoe is in exactly one place; then the family's own
        checks (hand sizes that fit the phase, ...)."""
        every = [c for place in self._card_places() for c in place]
        if tuple(sorted(c.index for c in every)) != _shoe_indices(*self._decks()):
            shoe = Counter(deck(*self._decks()))
            held = Counter(every)
            raise AssertionError(f"cards lost or duplicated: {(held - shoe) + (shoe - held)}")
        self._check_more()
