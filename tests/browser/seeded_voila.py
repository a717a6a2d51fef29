"""``python tests/browser/seeded_voila.py ARGS``: the kit's Voilà server
(``python -m tableserver.voila_app ARGS``) whose shared tables are dealt from
the seeds in ``RUMMY_TEST_SEEDS`` (comma-separated, used in turn), so that a
browser test plays the deal it was written for on every run.

For tests only (``harness.start_voila(seeds=...)``): the kit's own server
always deals from :mod:`secrets`, and nothing in ``tableserver`` reads this
variable.  A deal matters to a test: at a three-seat Big Table about one
deal in seven opens with a match window (BT-4: a hand complete straight
after the deal) in which only that seat acts, so a test that expects every
learner to draw first fails on those deals alone.
"""

from __future__ import annotations

import itertools
import os
import runpy
import sys
from pathlib import Path
from typing import Any


def main() -> None:
    """Serve, the table service's seeds taken from ``RUMMY_TEST_SEEDS``.
    (Nothing happens at import: ``make unit`` imports this file for doctests.)"""
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    from tableserver import service

    seeds = itertools.cycle([int(s) for s in os.environ["RUMMY_TEST_SEEDS"].split(",")])
    init = service.TableService.__init__

    def seeded_init(self: service.TableService, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("seeds", lambda: next(seeds))
        init(self, *args, **kwargs)

    service.TableService.__init__ = seeded_init  # type: ignore[method-assign]
    runpy.run_module("tableserver.voila_app", run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
