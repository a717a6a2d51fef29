"""The bot interface shared by every family: ``choose`` and ``explain``.

A bot reads only an observation (``state.observe(player)``), never the
state itself, so it can't see another player's hand.  :class:`GreedyBot` and
:class:`ExpertBot` hold no rule of their own: they dispatch on
``obs.variant.family`` to a strategy module ``rummy.bots.<family>`` that
exposes ``greedy(obs, rng) -> (Action, str)`` and
``expert(obs, rng, memory) -> (Action, str)``.

>>> from rummy import new_game
>>> g = new_game("three_thirteen", players=2, seed=3)
>>> bot = RandomBot(seed=1)
>>> obs = g.observe(g.current_player)
>>> bot.choose(obs) in obs.legal_actions
True
>>> bot.choose(obs) == bot.choose(obs)   # the same observation, the same move
True
"""

from __future__ import annotations

import importlib
import random
import sys
from collections.abc import Callable
from types import ModuleType
from typing import Any

from rummy.action import Action
from rummy.variants import FAMILIES

__all__ = [
    "Bot",
    "BotError",
    "RandomBot",
    "GreedyBot",
    "ExpertBot",
    "Memory",
    "strategy_module",
    "BOT_NAMES",
]

#: Family name -> strategy module (imported on first use).
STRATEGY_MODULES = {family: f"rummy.bots.{family}" for family in FAMILIES}
#: module name -> the module, once imported and found to define both strategies
_CHECKED: dict[str, ModuleType] = {}


class BotError(ValueError):
    """An unknown bot name, a family without a strategy, or an observation
    without a legal move; says what is available."""


def strategy_module(family: str) -> ModuleType:
    """The strategy module of ``family`` (``rummy.bots.<family>``), imported lazily.

    >>> strategy_module("three_thirteen").__name__
    'rummy.bots.three_thirteen'
    >>> strategy_module("bridge")
    Traceback (most recent call last):
    ...
    rummy.bots.base.BotError: no bot strategy for the 'bridge' family; the families are: three_thirteen, big_table, gin
    """
    name = STRATEGY_MODULES.get(family)
    if name is not None:
        checked = _CHECKED.get(name)
        if checked is not None and sys.modules.get(name) is checked:
            return checked  # imported and checked before (a bot asks every move)
    if name is None:
        raise BotError(
            f"no bot strategy for the {family!r} family; the families are: "
            + ", ".join(STRATEGY_MODULES)
        )
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as e:
        if e.name != name:
            raise
        raise BotError(
            f"the {family!r} family has no bot strategy yet: module {name} is missing "
            "(it must define greedy(obs, rng) and expert(obs, rng, memory))"
        ) from None
    for fn in ("greedy", "expert"):
        if not callable(getattr(module, fn, None)):
            raise BotError(f"{name} must define a function {fn}(); it does not")
    _CHECKED[name] = module
    return module


class Memory(dict):  # type: ignore[type-arg]
    """An expert's notes about one game or round, built from observations only.

    A plain dict for the strategy module to fill (for example discards seen,
    cards each opponent took), with ``key``: what game/round the notes are
    about.  :class:`ExpertBot` clears it when a new game or round is seen.
    """

    def __init__(self) -> None:
        super().__init__()
        self.key: Any = None
        self.log_len = 0


def _memory_key(obs: Any) -> tuple[Any, ...]:
    """What identifies "this game, this round" in an observation.

    A strategy module may define ``memory_key(obs)`` to override this.
    """
    return (obs.variant.name, tuple(obs.players), obs.player, obs.number)


class Bot:
    """Base class: ``choose(obs) -> Action`` and ``explain(obs) -> str``.

    Subclasses implement :meth:`decide`, returning the move and a sentence
    saying why.  The last decision is kept, so ``explain(obs)`` then
    ``choose(obs)`` on the same observation agree and cost one decision.
    (A bot may give its reason as a function that writes the sentence,
    from :meth:`_decide`: ``choose`` alone then writes none.)
    """

    name = "bot"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self.rng = random.Random(seed)
        self._last: tuple[Any, tuple[Action, str | Callable[[], str]]] | None = None

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed!r})"

    def decide(self, obs: Any) -> tuple[Action, str]:
        """The move for ``obs`` and the reason; subclasses implement it."""
        raise NotImplementedError

    def _decide(self, obs: Any) -> tuple[Action, str | Callable[[], str]]:
        """:meth:`decide`, whose reason may be a function that writes it
        (called only when the reason is asked for)."""
        return self.decide(obs)

    def _decision(self, obs: Any) -> tuple[Action, str | Callable[[], str]]:
        last = self._last
        if last is not None:
            seen = last[0]
            if seen is obs:
                return last[1]
            # (two logs of different lengths: certainly different observations)
            la, lb = getattr(seen, "log", None), getattr(obs, "log", None)
            if (la is None or lb is None or len(la) == len(lb)) and seen == obs:
                return last[1]
        if not getattr(obs, "legal_actions", None):
            phase = getattr(obs, "phase", "?")
            raise BotError(f"player {getattr(obs, 'player', '?')} has no legal move now "
                           f"(phase {phase!r}); a bot is asked only when it must act")
        out = self._decide(obs)
        self._last = (obs, out)
        return out

    def choose(self, obs: Any) -> Action:
        """The move this bot makes given what its player sees."""
        return self._decision(obs)[0]

    def explain(self, obs: Any) -> str:
        """Why this bot makes its move, in a sentence with numbers."""
        act, why = self._decision(obs)
        if not isinstance(why, str):  # written now, and kept
            why = why()
            self._last = (obs, (act, why))
        return why

    def reset(self) -> None:
        """Forget everything about the game being played."""
        self._last = None


class RandomBot(Bot):
    """Picks uniformly at random among the legal moves.

    >>> from rummy import new_game
    >>> g = new_game("three_thirteen", players=2, seed=3)
    >>> RandomBot(seed=1).explain(g.observe(g.current_player)).startswith("random pick")
    True
    """

    name = "random"

    def decide(self, obs: Any) -> tuple[Action, str]:
        actions = list(obs.legal_actions)
        a = self.rng.choice(actions)
        return a, f"random pick: {a} (one of {len(actions)} legal moves, each equally likely)"


class GreedyBot(Bot):
    """Makes the move that leaves the lowest penalty now (no memory, no look-ahead).

    >>> from rummy import new_game
    >>> g = new_game("three_thirteen", players=2, seed=3)
    >>> obs = g.observe(g.current_player)
    >>> GreedyBot().choose(obs) in obs.legal_actions
    True
    """

    name = "greedy"

    def decide(self, obs: Any) -> tuple[Action, str]:
        module = strategy_module(obs.variant.family)
        action, why = module.greedy(obs, self.rng)
        return Action.parse(action), why

    def _decide(self, obs: Any) -> tuple[Action, str | Callable[[], str]]:
        # the strategy's greedy_deferred, when it has one and decide is this
        # class's own (a subclass's decide is honoured)
        module = strategy_module(obs.variant.family)
        deferred = getattr(module, "greedy_deferred", None)
        if deferred is None or type(self).decide is not GreedyBot.decide:
            return self.decide(obs)
        action, why = deferred(obs, self.rng)
        return Action.parse(action), why


class ExpertBot(Bot):
    """Counts outs among unseen cards, remembers what was discarded and what
    each opponent picked up, and weighs going out against waiting.

    Its memory (:attr:`memory`) is built from observations only and is
    cleared when a new game or round is observed.

    >>> from rummy import new_game
    >>> g = new_game("three_thirteen", players=2, seed=3)
    >>> obs = g.observe(g.current_player)
    >>> ExpertBot().choose(obs) in obs.legal_actions
    True
    """

    name = "expert"

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.memory = Memory()

    def reset(self) -> None:
        super().reset()
        self.memory = Memory()

    def _remember(self, obs: Any, module: ModuleType) -> Memory:
        keyfn = getattr(module, "memory_key", None)
        key = keyfn(obs) if callable(keyfn) else _memory_key(obs)
        log_len = len(getattr(obs, "log", ()) or ())
        mem = self.memory
        # a new round/game, or a log that got shorter (a new game, or an undo)
        if key != mem.key or log_len < mem.log_len:
            mem = self.memory = Memory()
            mem.key = key
        mem.log_len = log_len
        return mem

    def decide(self, obs: Any) -> tuple[Action, str]:
        module = strategy_module(obs.variant.family)
        memory = self._remember(obs, module)
        action, why = module.expert(obs, self.rng, memory)
        return Action.parse(action), why


#: Names accepted by :func:`make_bot`.
BOT_NAMES = {"random": RandomBot, "greedy": GreedyBot, "expert": ExpertBot}
