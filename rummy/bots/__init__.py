"""AI players of graded strength, each able to say why it moves.

One interface for every family: ``choose(observation) -> Action`` and
``explain(observation) -> str``.  ``RandomBot`` picks any legal move,
``GreedyBot`` takes the lowest penalty now, ``ExpertBot`` counts outs,
remembers discards and pick-ups, and avoids feeding the next player.

>>> make_bot("Expert", seed=2)
ExpertBot(seed=2)
>>> make_bot("clever")
Traceback (most recent call last):
...
rummy.bots.base.BotError: unknown bot 'clever'; the bots are: random, greedy, expert
"""

from __future__ import annotations

from typing import Any

from rummy.action import Action
from rummy.bots.base import (
    BOT_NAMES,
    Bot,
    BotError,
    ExpertBot,
    GreedyBot,
    Memory,
    RandomBot,
    strategy_module,
)

__all__ = [
    "Bot",
    "BotError",
    "RandomBot",
    "GreedyBot",
    "ExpertBot",
    "Memory",
    "make_bot",
    "bot_names",
    "hint",
    "strategy_module",
]


def bot_names() -> tuple[str, ...]:
    """The names :func:`make_bot` accepts.

    >>> bot_names()
    ('random', 'greedy', 'expert')
    """
    return tuple(BOT_NAMES)


def make_bot(name: str | Bot, seed: int | None = None) -> Bot:
    """A bot by name (``"random"``, ``"greedy"``, ``"expert"``, any case); a
    :class:`Bot` is returned as it is."""
    if isinstance(name, Bot):
        return name
    key = str(name).strip().lower()
    if key not in BOT_NAMES:
        raise BotError(f"unknown bot {name!r}; the bots are: " + ", ".join(BOT_NAMES))
    return BOT_NAMES[key](seed=seed)


def hint(obs: Any, coach: Bot | None = None) -> tuple[Action, str]:
    """The coach's hint for a learner: the expert's move and its explanation.

    Pass the same ``coach`` (an :class:`ExpertBot`) on every turn so that it
    remembers the game; without one, a fresh expert judges this
    observation alone.

    >>> from rummy import new_game
    >>> g = new_game("three_thirteen", players=2, seed=3)
    >>> move, why = hint(g.observe(g.current_player))
    >>> move in g.legal_actions() and len(why) > 0
    True
    """
    bot = coach if coach is not None else ExpertBot()
    obs_action = bot.choose(obs)
    return obs_action, bot.explain(obs)
