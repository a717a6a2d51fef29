"""The table service's refusals: one exception class per HTTP status.

A method of :class:`tableserver.service.TableService` that refuses a request
raises one of these and leaves every table as it was; the web layer answers
``{"error": message}`` with the class's ``status`` (and ``"state"`` with a 409).

>>> e = Conflict("the table moved on", state={"version": 7})
>>> e.status, e.message, e.state, isinstance(e, ServiceError)
(409, 'the table moved on', {'version': 7}, True)
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["ServiceError", "BadRequest", "Forbidden", "NotFound", "Conflict", "TooMany", "Gone",
           "NotSaved", "without_paths"]

#: An absolute file path of two parts or more (POSIX or Windows), not inside an address.
_PATH = re.compile(r"(?<![\w:/.~-])(?:[A-Za-z]:\\|/)(?:[\w.@+~-]+[/\\])+[\w.@+~-]*")


def without_paths(text: str) -> str:
    """``text`` with the server's file paths left out: a refusal tells a
    client what went wrong, not where the server keeps its files.

    >>> without_paths("the database file /home/t/.local/share/rummy-kit/tables.sqlite3 was deleted")
    'the database file [a file of the server] was deleted'
    >>> without_paths("see docs/API.md or http://127.0.0.1:8866/rummy/api/tables")
    'see docs/API.md or http://127.0.0.1:8866/rummy/api/tables'
    """
    return _PATH.sub("[a file of the server]", text)


class ServiceError(Exception):
    """A request the service refuses; ``status`` is its HTTP status and
    ``state`` (for a 409) the fresh view of the seat that asked."""

    status = 400

    def __init__(self, message: str, state: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.state = state


class BadRequest(ServiceError):
    """Bad input or an illegal move (400); the table is unchanged."""

    status = 400


class Forbidden(ServiceError):
    """A wrong or missing token (403); the table is unchanged."""

    status = 403


class NotFound(ServiceError):
    """No table has this code (404)."""

    status = 404


class Conflict(ServiceError):
    """The table moved on since the page's version, or it is full (409)."""

    status = 409


class TooMany(ServiceError):
    """A client made more tables than its quota allows (429)."""

    status = 429


class Gone(ServiceError):
    """The teacher closed the table (410)."""

    status = 410


class NotSaved(ServiceError):
    """The database refused a write (500): the tables were reloaded from it,
    so the move that could not be saved never happened (or the database file
    was deleted or replaced while the server ran: every move is refused)."""

    status = 500
