"""What every game family shares, written once (issue 14, a first step).

:class:`Engine` is the base class of the three engines
(:class:`~rummy.three_thirteen.ThreeThirteenGame`,
:class:`~rummy.big_table.BigTableGame`, :class:`~rummy.gin.GinGame`).  It
owns the seed (drawn when none is given, and saved) and the saved form of a
game; a family adds what else its save needs with :meth:`Engine._saved_extra`.

>>> Engine.draw_seed(7)
7
>>> isinstance(Engine.draw_seed(None), int)
True
>>> Engine.draw_seed("7")
Traceback (most recent call last):
...
rummy.game.GameError: seed must be a whole number or None, not '7'
"""

from __future__ import annotations

import json
import secrets
from typing import TYPE_CHECKING, Any

from rummy.errors import GameError

if TYPE_CHECKING:
    from rummy.game import Action
    from rummy.variants import Variant

__all__ = ["Engine"]


class Engine:
    """The shared part of a game state: ``variant``, ``players``, ``seed``,
    ``options`` and ``history`` (``(seat, Action)`` pairs), saved by
    :meth:`to_json` as ``{"variant", "players", "seed", "options",
    "actions"}`` plus the family's extra keys."""

    variant: Variant
    players: tuple[str, ...]
    seed: int
    options: dict[str, Any]
    history: list[tuple[int, Action]]

    @staticmethod
    def draw_seed(seed: int | None) -> int:
        """``seed``, or a fresh random one when it is None (so that every
        game can be saved, loaded and undone by replaying it)."""
        if seed is None:
            seed = secrets.randbits(63)
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise GameError(f"seed must be a whole number or None, not {seed!r}")
        return seed

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
        } | self._saved_extra())

    def _saved_extra(self) -> dict[str, Any]:
        """Keys a family adds to the saved game (none by default)."""
        return {}
