"""rummy: the engine of the Rummy teaching kit.

Cards, melds, the five variants' rules, their games, bots, odds, practice and
the record of learning, as plain Python.  The package is below everything else
in the kit: it imports the standard library (pandas, sympy and tqdm only where
odds and tables need them, on first use) and nothing of ``widgets``,
``tableserver`` or Jupyter, so scripts, the table service, the views and the
static site's Python all use it alike.

>>> import rummy
>>> rummy.best_arrangement(rummy.cards("7h 8h 9h Kc")).penalty
10

The modules, from the bottom up:

==============================  ===================================================
``cards``, ``errors``           cards and their text, packs and shoes; the error family
``melds``                       ``MeldRules``, ``Meld``, ``Arrangement``, ``Discard``,
                                ``is_meld``/``why_not``
``search``                      the one meld search: penalty, best arrangement, best
                                discard, going out, lay-offs (a package, a module
                                per algorithm)
``variants``                    the five variants as data (``find_variant``)
``action``, ``engine``,         moves; the base every game builds on; ``new_game``,
``game``, ``table``             ``load_game``; stock and piles
``three_thirteen``,             the three families' games
``big_table``, ``gin``
``bots``                        AI players that say why they move
``probability``, ``simulate``   exact odds and estimates; many bot games
``rulebook``                    every rule of RULES.md: id, title, one sentence
``teach``                       the one answer checker
``practice``, ``guided``        drills per rule (a package, a module per family);
                                guided hands
``progress``                    the record of learning
``render``                      SVG of cards, hands, melds and tables
==============================  ===================================================

One name for each idea, everywhere in the kit:

* A **variant** is one of the five rule sets (``three_thirteen``,
  ``tre_tretton``, ``three_thirteen_jokers``, ``big_table``, ``gin_three``);
  a **family** is the engine that plays it (``three_thirteen`` plays three
  variants, ``big_table`` and ``gin`` one each).
* A **seat** is a position at the table, a number from 0; a **player** is
  whoever sits there, named in ``game.players``.  A function that takes
  ``player=`` accepts the seat number or the player's name.
* A **hand** is the cards a player holds.  One deal played to its scoring is a
  **round** in the Three-Thirteen family and a **hand** in the Big Table and
  gin, as their rule texts say: ``game.round`` and ``game.hand_number`` (never
  ``hand``, which is the cards); code that serves every family says
  ``number`` (``Engine.number``, ``Observation.number``), and a score sheet's
  row is a ``row_name`` ("round" or "hand").
* **Penalty** is what unmelded cards cost a Three-Thirteen player;
  **deadwood** is the same count in gin, where it decides knocking.
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


# ``rummy.simulate`` is the function, before and after ``import rummy.simulate``:
# a lazy attribute would be shadowed by the submodule once that is imported, so
# the submodule is imported here and binds the function last; it stays
# importable (``from rummy.simulate import ...``, ``python -m rummy simulate``).
# pandas still loads only when a table is built.
from rummy.simulate import simulate  # noqa: E402
