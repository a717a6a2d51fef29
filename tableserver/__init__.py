"""tableserver: shared classroom tables for the Rummy teaching kit.

Several learners play one table, each on their own screen, with bots in the
seats nobody takes; the teacher makes and runs the tables.  The package has
two sides, and the arrows go one way: widgets -> client -> HTTP -> server.

**The server** holds every shared table, runs its bots, saves each move to
SQLite before answering, and speaks JSON under ``/rummy/api/``
(``docs/API.md``).  Its modules import only :mod:`rummy`, the standard
library and, where they serve HTTP, tornado, jupyter_server, Voilà or
JupyterHub; never ipywidgets, :mod:`widgets` or the client:

- :mod:`tableserver.service`: :class:`TableService`, the API as Python
  methods; it works through :mod:`~tableserver.tables` (the table and seat
  records, codes, tokens, what each token may see), :mod:`~tableserver.checks`
  (a request's input), :mod:`~tableserver.presence` (who is there, deadlines,
  pace), :mod:`~tableserver.bots` (the bots and their thread) and
  :mod:`~tableserver.persistence` (what is written, and the restart), over
  :mod:`~tableserver.store` (the SQLite database); its refusals are
  :mod:`~tableserver.errors`;
- :mod:`tableserver.wire`: observations as JSON and back (the client reads
  it too);
- the web: :mod:`~tableserver.handler` (the request handlers' base),
  :mod:`~tableserver.web` (the table API, also a Jupyter server extension),
  :mod:`~tableserver.progress_api` (the record of learning's endpoints),
  :mod:`~tableserver.voila_app` (Voilà with the API: ``make app``),
  ``python -m tableserver`` (the API alone), and on a JupyterHub
  :mod:`~tableserver.hub` (the service's process),
  :mod:`~tableserver.hub_identity` (who a hub user is at the tables) and
  :mod:`~tableserver.hub_web` (the handlers with the hub's login).

**The client**, :mod:`tableserver.client`, runs in a learner's kernel: it
talks to the API over HTTP and holds no widget (the views that use it are in
:mod:`widgets`).  It imports :mod:`rummy`, :mod:`tableserver.wire` and the
standard library, never a server module.

This ``__init__`` exports the server's Python API and imports nothing that
serves HTTP.

>>> from tableserver import normal_code
>>> normal_code("abcd efgh jkmn")
'ABCD-EFGH-JKMN'
"""

from __future__ import annotations

from typing import Any

from tableserver.errors import (
    BadRequest,
    Conflict,
    Forbidden,
    Gone,
    NotFound,
    NotSaved,
    ServiceError,
    TooMany,
)
from tableserver.service import TableService, service_options
from tableserver.store import Saved, Store, StoreLost, tables_path
from tableserver.tables import CODE_ALPHABET, STATUSES, new_code, normal_code
from tableserver.wire import decode, decode_observation, encode

__all__ = [
    "TableService", "ServiceError", "BadRequest", "Forbidden", "NotFound", "Conflict", "Gone",
    "NotSaved", "TooMany", "service_options",
    "new_code", "normal_code", "CODE_ALPHABET", "STATUSES",
    "Store", "StoreLost", "Saved", "tables_path",
    "encode", "decode", "decode_observation",
    "_jupyter_server_extension_points",
]


def _jupyter_server_extension_points() -> list[dict[str, Any]]:
    """Jupyter server finds the table service's web layer here."""
    return [{"module": "tableserver.web"}]
