"""The one small game API every engine speaks, and ``new_game`` / ``load_game``.

Every variant's state answers the same questions (OpenSpiel style):
``legal_actions(player)``, ``apply(action, player)``, ``observe(player)``,
``is_over``, ``current_player``, ``to_act()``, ``scores``, ``score_sheet()``,
``log``, ``to_json()`` and ``undo()``.  Moves are :class:`rummy.action.Action`
values; :mod:`rummy.engine` is the base every engine builds on.

>>> g = new_game("three_thirteen", players=2, seed=1)
>>> g.variant.name, g.is_over
('three_thirteen', False)
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

from rummy.action import Action
from rummy.engine import engine_class
from rummy.errors import GameError
from rummy.variants import Variant, find_variant

__all__ = ["Game", "new_game", "load_game"]


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
