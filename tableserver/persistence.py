"""Shared tables on disk: what is written with each change, and how a
restarted service gets every table back.

Every change is queued to the :class:`tableserver.store.Store` before the
service answers (:meth:`Persistence.save`, :meth:`Persistence.save_move`):
a move is one row, written in the same transaction as the table's new
bookkeeping (:meth:`tableserver.tables.Table.to_meta`).  At the end of each
hand (and every 200 moves) the whole game is kept too, so a restart
(:meth:`Persistence.load`) rebuilds a table from its last snapshot and the
moves after it; a finished table's game is unpickled only when somebody
first asks for it.

>>> import tempfile, os
>>> from tableserver.presence import Presence
>>> keeper = Persistence(Store(os.path.join(tempfile.mkdtemp(), "t.sqlite3")),
...                      clock=lambda: 0.0, presence=Presence(bot_pace=0.5))
>>> keeper.load()
{}
"""

from __future__ import annotations

import logging
import pickle
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from typing import Any

import rummy
from rummy.action import Action
from tableserver.bots import make_bots
from tableserver.deals import deal_by_hands, hand_seed
from tableserver.presence import Presence
from tableserver.store import Store
from tableserver.tables import Table

__all__ = ["Persistence", "SNAPSHOT_EVERY"]

log = logging.getLogger("tableserver")

#: A table's whole game is kept at least every this many moves (and at each hand's end).
SNAPSHOT_EVERY = 200


class Persistence:
    """Writes each table's changes to ``store`` (``wake`` is called after
    each, so that the bots look at the table again) and reads them back."""

    def __init__(self, store: Store, *, clock: Callable[[], float], presence: Presence,
                 wake: Callable[[], None] = lambda: None,
                 deal_key: bytes | None = None) -> None:
        self.store = store
        self.deal_key = deal_key
        self.clock = clock
        self.presence = presence
        self.wake = wake

    # -- writing ---------------------------------------------------------------------------
    def created(self, table: Table) -> None:
        """Keep a new table."""
        table.pending = self.store.submit(self.store.create_statements(table.code,
                                                                       table.to_meta()))

    def save(self, table: Table) -> None:
        """Keep the table's new bookkeeping (a join, a status change ...)."""
        table.touched = self.clock()
        table.pending = self.store.submit(self.store.meta_statements(table.code,
                                                                     table.to_meta()))
        self.wake()

    def save_move(self, table: Table, seat: int, action: Action, ended: bool) -> None:
        """Keep the move just made and the bookkeeping after it, in one
        transaction; with ``ended`` (a hand or the game ended) the whole game too."""
        statements = self.store.move_statements(table.code, table.moves, seat, str(action),
                                                table.to_meta())
        if ended or table.moves % SNAPSHOT_EVERY == 0:
            # a snapshot at each hand's end: a restart replays the moves after it only
            statements += self.store.snapshot_statements(table.code, table.moves,
                                                         pickle.dumps(table.game))
        table.pending = self.store.submit(statements)
        self.wake()

    def forget(self, codes: list[str]) -> None:
        """Forget tables ``codes`` and their moves."""
        self.store.submit(self.store.delete_statements(codes))

    @staticmethod
    def pending(table: Table | None) -> Future[None] | None:
        """The write a view of ``table`` must wait for before anybody sees it
        (None: everything is on disk)."""
        fut = None if table is None else table.pending
        return None if fut is None or fut.done() and fut.exception() is None else fut

    # -- reading back ----------------------------------------------------------------------
    def load(self) -> dict[str, Table]:
        """Every table the database keeps, by code; a table that can't be
        rebuilt is kept ``broken`` (one bad table must not stop the others)."""
        tables: dict[str, Table] = {}
        for saved in self.store.load():
            code, meta = saved.code, saved.meta
            try:
                tables[code] = self.rebuild(code, meta, saved.moves, saved.snapshot,
                                            saved.snapshot_moves)
            except Exception as e:
                log.exception("table %s could not be restored", code)
                t = Table.from_meta(code, meta, self.clock())
                t.broken = str(e)
                tables[code] = t
        return tables

    def rebuild(self, code: str, meta: dict[str, Any], moves: Sequence[tuple[int, str]],
                snapshot: bytes | None = None, snapshot_moves: int = 0) -> Table:
        """A table as it was: its bookkeeping, and its game from its last
        snapshot (or its seed) and the saved moves after it."""
        table = Table.from_meta(code, meta, self.clock())
        key = self.deal_key
        if table.keyed:
            if key is None:
                raise ValueError("this table was dealt with the server's deal key "
                                 "(deals.key), which is missing")
            table.seed = hand_seed(key, code, 0)
        if table.names is not None and table.status != "closed":
            if snapshot is not None and table.status == "over" and not moves:
                table.frozen = snapshot  # nothing more to play: unpickled when asked for
                return table
            if snapshot is not None:
                game = pickle.loads(snapshot)  # written by this service, in a 0600 file
                done = snapshot_moves
            else:
                game = rummy.new_game(table.variant, players=table.names, seed=table.seed,
                                      **table.options)
                done = 0
            if table.keyed and key is not None:
                deal_by_hands(game, key, code)
            for seat, action in moves:
                game.apply(action, player=seat)
            done += len(moves)
            if done != table.moves:
                # the bookkeeping is saved with each move, so this never happens
                # unless the file was edited; the moves are the truth
                table.moves = done
            table.game = game
            if table.status == "over":
                return table  # nothing more to play: no bots
            make_bots(table)
            self.presence.restarted(table, self.clock())
        return table
