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
  :mod:`~tableserver.hub_identity` (who a hub user is at the tables),
  :mod:`~tableserver.hub_web` (the handlers with the hub's login),
  :mod:`~tableserver.hub_relay` (each user's server relays its pages' heartbeat) and
  :mod:`~tableserver.hub_users` (the demo hub's users as system users of their own).

**The client**, :mod:`tableserver.client`, runs in a learner's kernel: it
talks to the API over HTTP and holds no widget (the views that use it are in
:mod:`widgets`).  It imports :mod:`rummy`, :mod:`tableserver.wire` and the
standard library, never a server module.

This ``__init__`` exports the server's Python API and imports none of it
until a name is asked for: importing the client loads no server module.

>>> from tableserver import normal_code
>>> normal_code("abcd efgh jkmn")
'ABCD-EFGH-JKMN'
"""

from __future__ import annotations

import importlib
from typing import Any

#: Where each exported name lives.  They load on first use, so that a learner's
#: kernel, which imports only the client (``tableserver.client``), loads no
#: server module.
_HOMES = {
    **dict.fromkeys(("ServiceError", "BadRequest", "Forbidden", "NotFound", "Conflict", "Gone",
                     "NotSaved", "TooMany"), "tableserver.errors"),
    **dict.fromkeys(("TableService", "service_options"), "tableserver.service"),
    **dict.fromkeys(("Store", "StoreLost", "Saved", "tables_path"), "tableserver.store"),
    **dict.fromkeys(("new_code", "normal_code", "CODE_ALPHABET", "STATUSES"), "tableserver.tables"),
    **dict.fromkeys(("encode", "decode", "decode_observation"), "tableserver.wire"),
}

__all__ = [*_HOMES, "_jupyter_server_extension_points"]


def __getattr__(name: str) -> Any:
    if name in _HOMES:
        return getattr(importlib.import_module(_HOMES[name]), name)
    raise AttributeError(f"module 'tableserver' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*globals(), *_HOMES])


def _jupyter_server_extension_points() -> list[dict[str, Any]]:
    """Jupyter server finds the table service's web layer here."""
    return [{"module": "tableserver.web"}]
