"""The one small game API every engine speaks, and ``new_game``.

Every variant's state answers the same questions (OpenSpiel style):
``legal_actions(player)``, ``apply(action, player)``, ``observe(player)``,
``is_over``, ``current_player``, ``to_act()``, ``scores``, ``score_sheet()``,
``log``, ``to_json()`` and ``undo()``.  Actions are small values with a text
form that parses back:

>>> a = Action.parse("discard 9c")
>>> a, str(a)
(Action.parse('discard 9c'), 'discard 9c')
>>> Action.parse("draw stock").card is None
True
>>> g = new_game("three_thirteen", players=2, seed=1)
>>> g.variant.name, g.is_over
('three_thirteen', False)
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from rummy.cards import Card, CardError, cards, format_cards
from rummy.errors import ActionError, GameError
from rummy.variants import Variant, find_variant

__all__ = [
    "Action",
    "Game",
    "DEFAULT_NAMES",
    "new_game",
    "load_game",
    "player_names",
    "undo_point",
]

#: Names given to seats when only a number of players is asked for.
DEFAULT_NAMES = (
    "Ana", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hana", "Ivo", "Jun", "Kai", "Lea",
    "Max", "Nia", "Oto", "Pia", "Quin", "Rey", "Sol", "Tess", "Uma", "Vic", "Wes", "Xia",
)


@dataclass(frozen=True, slots=True)
class Action:
    """A move: a verb (``"draw stock"``, ``"discard"``, ``"go out"`` ...), an
    optional card, for lay-offs the meld it goes onto, and for a gin knock
    the melds the knocker lays out (G-8a).

    >>> a = Action.parse("knock Tc with 3c 3d 3h, 4c 4d 4h, 5c 5d 5h")
    >>> len(a.melds), str(a)
    (3, 'knock Tc with 3c 3d 3h, 4c 4d 4h, 5c 5d 5h')
    >>> Action.parse(str(a)) == a
    True
    """

    verb: str
    card: Card | None = None
    onto: tuple[Card, ...] = ()
    melds: tuple[tuple[Card, ...], ...] = ()

    @classmethod
    def parse(cls, text: str | Action) -> Action:
        """Read an action from text: words, then optionally a card, then
        optionally ``onto`` and the cards of a meld.

        >>> Action.parse("lay off 5h onto 6h 7h 8h").onto
        (Card.parse('6h'), Card.parse('7h'), Card.parse('8h'))
        >>> Action.parse("")
        Traceback (most recent call last):
        ...
        rummy.errors.ActionError: '' is not an action: write a verb such as 'draw stock', then a card if the move needs one, e.g. 'discard 9c'
        """
        if isinstance(text, Action):
            return text
        if not isinstance(text, str) or not text.strip():
            raise ActionError(
                f"{text!r} is not an action: write a verb such as 'draw stock', then a card "
                "if the move needs one, e.g. 'discard 9c'"
            )
        body, _, onto_text = text.strip().partition(" onto ")
        body, has_with, with_text = body.partition(" with ")
        melds: list[tuple[Card, ...]] = []
        if has_with:
            for part in with_text.split(","):
                try:
                    meld = cards(part)
                except CardError as e:
                    raise ActionError(f"{text!r}: the melds after 'with' are not cards: {e}") from None
                if not meld:
                    raise ActionError(f"{text!r}: after 'with' write melds separated by commas, "
                                      "e.g. 'knock Tc with 3c 3d 3h, 4c 4d 4h'")
                melds.append(meld)
        words = body.split()
        card = None
        if len(words) > 1:
            try:
                card = Card.parse(words[-1])
                words = words[:-1]
            except CardError:
                card = None
        try:
            onto = cards(onto_text) if onto_text else ()
        except CardError as e:
            raise ActionError(f"{text!r}: the meld after 'onto' is not cards: {e}") from None
        verb = " ".join(w.lower() for w in words)
        return cls(verb, card, onto, tuple(melds))

    def __str__(self) -> str:
        out = self.verb if self.card is None else f"{self.verb} {self.card}"
        if self.melds:
            out += " with " + ", ".join(format_cards(m) for m in self.melds)
        if self.onto:
            out += " onto " + format_cards(self.onto)
        return out

    def __repr__(self) -> str:
        return f"Action.parse('{self}')"


@runtime_checkable
class Game(Protocol):
    """What every engine's state offers (see DESIGN.md); the three engines get
    it from :class:`rummy.engine.Engine`."""

    variant: Variant
    players: tuple[str, ...]
    seed: int | None
    log: list[str]

    @property
    def is_over(self) -> bool: ...

    @property
    def current_player(self) -> int | None: ...

    def to_act(self) -> list[int]: ...

    def legal_actions(self, player: int | None = None) -> list[Action]: ...

    def apply(self, action: Action | str, player: int | None = None) -> None: ...

    def observe(self, player: int) -> Any: ...

    def score_sheet(self) -> Any: ...

    def to_json(self) -> str: ...

    @property
    def number(self) -> int: ...

    def winners(self) -> list[int]: ...

    def undo(self, player: int | str | None = None) -> list[tuple[int, Action]]: ...


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


def new_game(
    variant: str | Variant = "three_thirteen",
    players: int | Sequence[str] | None = None,
    seed: int | None = None,
    **options: Any,
) -> Any:
    """Start a game of ``variant`` for ``players`` (a count or a list of names).

    ``seed`` fixes every shuffle (and so the whole game, given the actions);
    ``options`` are the variant's options (see ``find_variant(v).options``).
    """
    from rummy.engine import engine_class

    v = find_variant(variant)
    v.resolve(**options)  # unknown options fail here, before anything starts
    return engine_class(v).start(v, players, seed, **options)


def load_game(data: str | dict[str, Any]) -> Any:
    """Rebuild a game saved with ``game.to_json()`` (an exact round trip).

    Anything that is not a saved game raises :class:`GameError` saying what
    is wrong; a saved game never loads half-way.

    >>> g = new_game("gin_three", seed=3)
    >>> g.apply("pass")
    >>> load_game(g.to_json()).to_json() == g.to_json()
    True
    >>> load_game('{"variant": "gin_three", "players": 3, "seed": 3, "actions": [[0, 1]]}')
    Traceback (most recent call last):
    ...
    rummy.errors.GameError: a saved game lists its moves under 'actions' as [seat, "move"] pairs, e.g. [[0, "draw stock"]]; entry 1 is [0, 1]
    """
    if isinstance(data, str | bytes):
        try:
            obj = json.loads(data)
        except (ValueError, RecursionError) as e:
            raise GameError(f"a saved game is JSON text; this is not: {e}") from None
    else:
        obj = data
    _check_saved(obj)
    v = find_variant(obj["variant"])
    try:
        from rummy.engine import engine_class

        return engine_class(v).load(obj)
    except GameError:
        raise
    except (ValueError, TypeError, KeyError, IndexError, AttributeError, OverflowError) as e:
        raise GameError(f"the saved {v.name} game does not load: {e!r}") from None


def _check_saved(obj: Any) -> None:
    """The shape every saved game has (see ``to_json``), checked before replaying."""
    if not isinstance(obj, dict):
        raise GameError("a saved game is a JSON object with the keys 'variant', 'players', "
                        "'seed', 'options' and 'actions'")
    for key in ("variant", "players", "seed", "actions"):
        if key not in obj:
            raise GameError(f"a saved game needs the key {key!r}; it has: {', '.join(map(str, obj))}")
    if not isinstance(obj["variant"], str):
        raise GameError(f"a saved game names its variant as text, not {obj['variant']!r}")
    seed = obj["seed"]
    if type(seed) is not int:
        raise GameError(f"a saved game's seed is a whole number, not {seed!r}")
    players = obj["players"]
    if not (type(players) is int or isinstance(players, list)
            and all(isinstance(p, str) for p in players)):
        raise GameError(f"a saved game's players are a number or a list of names, not {players!r}")
    if not isinstance(obj.get("options", {}), dict):
        raise GameError(f"a saved game's options are an object, not {obj.get('options')!r}")
    actions = obj["actions"]
    if not isinstance(actions, list):
        raise GameError(f"a saved game lists its moves under 'actions', not {actions!r}")
    for i, entry in enumerate(actions):
        if not (isinstance(entry, list) and len(entry) == 2 and type(entry[0]) is int
                and isinstance(entry[1], str)):
            raise GameError("a saved game lists its moves under 'actions' as [seat, \"move\"] "
                            f"pairs, e.g. [[0, \"draw stock\"]]; entry {i + 1} is {entry!r}")
