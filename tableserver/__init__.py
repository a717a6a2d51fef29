"""tableserver: shared classroom tables for the Rummy teaching kit.

The service (:class:`TableService`, pure Python: the engine and the
standard library) holds every shared table, runs its bots, saves each move
to SQLite before answering, and speaks JSON under ``/rummy/api/`` through
the web layer (:mod:`tableserver.web`, a Jupyter server extension; ``make
app`` serves it beside the Voilà apps).  :mod:`tableserver.client` is the
kernel's side of that API (a table widget plays a shared table through it as
if it were a local engine); the views that use it are in :mod:`widgets`.

>>> from tableserver import normal_code
>>> normal_code("abcd efgh jkmn")
'ABCD-EFGH-JKMN'
"""

from __future__ import annotations

from typing import Any

from tableserver.core import (
    CODE_ALPHABET,
    STATUSES,
    BadRequest,
    Conflict,
    Forbidden,
    Gone,
    NotFound,
    NotSaved,
    ServiceError,
    TableService,
    TooMany,
    new_code,
    normal_code,
)
from tableserver.store import Saved, Store, StoreLost, data_dir, default_path
from tableserver.wire import decode, decode_observation, encode

__all__ = [
    "TableService", "ServiceError", "BadRequest", "Forbidden", "NotFound", "Conflict", "Gone", "NotSaved",
    "new_code", "normal_code", "CODE_ALPHABET", "STATUSES",
    "Store", "StoreLost", "Saved", "data_dir", "default_path", "TooMany",
    "encode", "decode", "decode_observation",
    "_jupyter_server_extension_points",
]


def _jupyter_server_extension_points() -> list[dict[str, Any]]:
    """Jupyter server finds the table service's web layer here."""
    return [{"module": "tableserver.web"}]
