"""Kernels started ahead for a class: when the teacher makes a table, the
app page its learners will open gets ready kernels for their seats.

Voilà keeps a pool of ready kernels per notebook (``preheat_kernel`` and
``kernel_pools_config`` in ``voila.json``): a page served from the pool is
drawn in a second or two, one that starts its kernel cold takes ten or more
on a loaded laptop.  The configured pools are small (two kernels for the
Big Table page), so a class of twelve arriving at once found ten cold
starts.  :func:`pool_targets` says how large each table page's pool should
be now: its configured size plus the learners' seats still free at the
open tables of its game (at most :data:`MAX_AHEAD` more), and
:func:`preheat_listener` keeps Voilà's pools at that size, on the server's
loop, after every change of a table.  Once the class is seated the pools
fall back to their configured size (kernels already ready stay for the
next pages).

A page that takes a kernel from its pool makes Voilà start another a few
seconds later (``fill_delay``).  While a class arrives, each of those
refills would be a cold start in the middle of the class's own pages,
and useless: the seat the learner takes lowers the pool's target by one.
So while a page's pool holds kernels for free seats, its refills wait
until no page took a kernel for :data:`QUIET` seconds, and then start
only what the pool still lacks (:func:`defer_refills`).

>>> pool_targets({"big_table": 5, "gin": 0}, {TABLE_PAGES["big_table"]: 2})
{'notebooks/apps/big_table.ipynb': 7}
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Mapping
from typing import Any

from tableserver.tables import OPEN_STATUSES

__all__ = ["TABLE_PAGES", "MAX_AHEAD", "QUIET", "free_seats", "pool_targets", "set_pools",
           "defer_refills", "preheat_listener"]

log = logging.getLogger("tableserver")

#: The app page the learners of each game's tables open (``?table=CODE``).
TABLE_PAGES = {"big_table": "notebooks/apps/big_table.ipynb",
               "three_thirteen": "notebooks/apps/three_thirteen.ipynb",
               "gin": "notebooks/apps/gin_three.ipynb"}
#: Kernels started ahead for one page at most, beyond its configured pool
#: (24 learners: two Big Tables of 12).
MAX_AHEAD = 24
#: While a class arrives, a table page's pool is refilled only once no page
#: took a kernel from it for this long (seconds).
QUIET = 15.0


def free_seats(service: Any) -> dict[str, int]:
    """Learners' seats nobody took yet at the open tables, by game family."""
    out: dict[str, int] = {}
    with service.tables_lock:
        for t in service.tables.values():
            if t.status in OPEN_STATUSES and t.broken is None:
                n = sum(1 for s in t.seats if s.human and s.token is None)
                if n:
                    out[t.variant.family] = out.get(t.variant.family, 0) + n
    return out


def pool_targets(free: Mapping[str, int], base: Mapping[str, int]) -> dict[str, int]:
    """Each table page's pool size: its configured size (``base``, by
    page) plus the free seats of its game (at most :data:`MAX_AHEAD`).

    >>> pool_targets({"three_thirteen": 40}, {})
    {'notebooks/apps/three_thirteen.ipynb': 24}
    """
    out = {}
    for family, page in TABLE_PAGES.items():
        ahead = min(MAX_AHEAD, max(0, int(free.get(family, 0))))
        if ahead or page in base:
            out[page] = int(base.get(page, 0)) + ahead
    return out


def set_pools(km: Any, targets: Mapping[str, int]) -> list[str]:
    """Set Voilà's pool sizes to ``targets`` and start the kernels missing
    (on the server's loop: Voilà starts them as tasks there); answers the
    pages whose pool grew."""
    config = dict(km.kernel_pools_config)
    default = dict(config.get("default", {}))
    grown = []
    for page, size in targets.items():
        entry = dict(config.get(page, default))
        if entry.get("pool_size") == size:
            continue
        if size > int(entry.get("pool_size", 0)):
            grown.append(page)
        entry["pool_size"] = size
        config[page] = entry
    km.kernel_pools_config = config
    for page in grown:
        km.fill_if_needed(delay=0, notebook_name=page)
    return grown


def defer_refills(km: Any, arriving: Callable[[str], bool], loop: asyncio.AbstractEventLoop,
                  quiet: float = QUIET) -> None:
    """Make the refill Voilà starts after a page took a pool's kernel
    (``fill_if_needed`` without a ``delay``) wait while ``arriving(page)``:
    it runs once no page took a kernel for ``quiet`` seconds, with the pool
    sizes of that moment.  Other fills (a pool that grew, a page nobody is
    arriving at) are Voilà's own.

    >>> class Pools:
    ...     def fill_if_needed(self, delay=None, notebook_name=None, **kw):
    ...         print("fill", notebook_name, delay)
    >>> km, loop = Pools(), asyncio.new_event_loop()
    >>> defer_refills(km, lambda page: page == "big", loop, quiet=0.01)
    >>> km.fill_if_needed(notebook_name="index")     # nobody arriving: at once
    fill index None
    >>> km.fill_if_needed(notebook_name="big")       # a class arriving: later, once
    >>> km.fill_if_needed(notebook_name="big")
    >>> loop.run_until_complete(asyncio.sleep(0.05))
    fill big 0
    >>> loop.close()
    """
    fill = km.fill_if_needed
    waiting: dict[str, asyncio.TimerHandle] = {}

    def fill_if_needed(delay: float | None = None, notebook_name: str | None = None,
                       **kwargs: Any) -> None:
        if delay is not None or notebook_name is None or not arriving(notebook_name):
            fill(delay=delay, notebook_name=notebook_name, **kwargs)
            return
        if notebook_name in waiting:
            waiting.pop(notebook_name).cancel()

        def refill() -> None:
            waiting.pop(notebook_name, None)
            fill(delay=0, notebook_name=notebook_name, **kwargs)

        waiting[notebook_name] = loop.call_later(quiet, refill)

    km.fill_if_needed = fill_if_needed


def preheat_listener(kernels: Callable[[], Any], service: Any,
                     loop: asyncio.AbstractEventLoop, quiet: float = QUIET
                     ) -> Callable[[str], None]:
    """A listener of ``service`` (called after each change of a table, in
    any thread) that keeps the pools of the server's kernel manager
    (``kernels()``, Voilà's) at :func:`pool_targets`; the work is done on
    ``loop``, the server's, and only when a target changed; while a page's
    pool holds kernels for free seats, its refills wait ``quiet`` seconds
    (:func:`defer_refills`).  Without
    Voilà's pools (no ``kernel_pools_config``) it does nothing."""
    km = kernels()
    if km is None or not hasattr(km, "kernel_pools_config") or not hasattr(km, "fill_if_needed"):
        return lambda _code: None
    config = dict(km.kernel_pools_config)
    default = int(dict(config.get("default", {})).get("pool_size", 0))
    base = {page: int(dict(config.get(page, {})).get("pool_size", default))
            for page in TABLE_PAGES.values()}
    last: dict[str, int] = dict(base)
    defer_refills(km, lambda page: last.get(page, 0) > base.get(page, 0), loop, quiet)

    def update() -> None:
        targets = pool_targets(free_seats(service), base)
        if targets == last:
            return
        last.clear()
        last.update(targets)
        try:
            grown = set_pools(kernels(), targets)
        except Exception:  # noqa: BLE001 - a pool not filled is no failure of a table
            log.warning("the kernels for a new table could not be started ahead", exc_info=True)
            return
        if grown:
            log.info("kernels started ahead for the learners' seats: %s", targets)

    def changed(_code: str) -> None:
        with contextlib.suppress(RuntimeError):  # a closed loop: the server is stopping
            loop.call_soon_threadsafe(update)

    return changed
