"""rummy: the engine of the Rummy teaching kit (no Jupyter imports).

>>> import rummy
>>> rummy.best_arrangement(rummy.cards("7h 8h 9h Kc")).penalty
10
"""

from __future__ import annotations

from typing import Any

from rummy.action import Action
from rummy.cards import JOKER, Card, CardError, cards, deck, format_cards, shuffled
from rummy.engine import Engine, Observation, engine_class
from rummy.errors import ActionError, GameError
from rummy.game import load_game, new_game
from rummy.melds import Arrangement, Discard, Meld, MeldError, MeldRules, is_meld, why_not
from rummy.search import all_melded, best_arrangement, best_discard, best_discard_choice, penalty
from rummy.variants import VARIANTS, Variant, VariantError, find_variant, variant_names

__version__ = "0.1.0"

__all__ = [
    "JOKER", "Card", "CardError", "cards", "deck", "format_cards", "shuffled",
    "Action", "ActionError", "GameError", "load_game", "new_game",
    "Engine", "Observation", "engine_class",
    "Arrangement", "Discard", "Meld", "MeldError", "MeldRules", "all_melded", "best_arrangement",
    "best_discard", "best_discard_choice", "is_meld", "penalty", "why_not",
    "VARIANTS", "Variant", "VariantError", "find_variant", "variant_names",
    "simulate", "bots", "probability", "render", "teach", "progress",
]

_LAZY = {
    "bots": ("rummy.bots", None),
    "probability": ("rummy.probability", None),
    "render": ("rummy.render", None),
    "teach": ("rummy.teach", None),
    "progress": ("rummy.progress", None),
}


def __getattr__(name: str) -> Any:
    # Heavier parts (pandas, sympy) load on first use, not at import.
    if name in _LAZY:
        import importlib

        module_name, attr = _LAZY[name]
        module = importlib.import_module(module_name)
        return getattr(module, attr) if attr else module
    raise AttributeError(f"module 'rummy' has no attribute {name!r}")


# ``rummy.simulate`` is the function, before and after ``import rummy.simulate``
# (issue 14): a lazy attribute was shadowed by the submodule once that was
# imported.  Importing the submodule here binds the function last; the
# submodule stays importable (``from rummy.simulate import ...``,
# ``python -m rummy simulate``).  pandas still loads only when a table is built.
from rummy.simulate import simulate  # noqa: E402
