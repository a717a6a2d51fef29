"""The one error family of the engine: every refusal is a :class:`GameError`.

Bad text for a card (``CardError``), an unknown variant or option
(``VariantError``, which also covers a bad number of players) and an illegal
move or a bad saved game (``GameError`` itself) can all be caught as
``GameError``; each is still a ``ValueError``.

>>> from rummy import CardError, GameError, VariantError, Card, find_variant
>>> issubclass(CardError, GameError) and issubclass(VariantError, GameError)
True
>>> try:
...     find_variant("three_thirteen").check_players(1)
... except GameError as e:
...     print(e)
three_thirteen is for 2 to 12 players, not 1
"""

from __future__ import annotations

__all__ = ["GameError", "ActionError"]


class GameError(ValueError):
    """An illegal action or bad game request; says why and what is allowed.

    Raising it never changes the game.
    """


class ActionError(GameError):
    """Text that is not an action."""
