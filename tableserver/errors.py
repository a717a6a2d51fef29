"""The table service's refusals: one exception class per HTTP status.

A method of :class:`tableserver.service.TableService` that refuses a request
raises one of these and leaves every table as it was; the web layer answers
``{"error": message}`` with the class's ``status`` (and ``"state"`` with a 409).

>>> e = Conflict("the table moved on", state={"version": 7})
>>> e.status, e.message, e.state, isinstance(e, ServiceError)
(409, 'the table moved on', {'version': 7}, True)
"""

from __future__ import annotations

from typing import Any

__all__ = ["ServiceError", "BadRequest", "Forbidden", "NotFound", "Conflict", "TooMany", "Gone",
           "NotSaved"]


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
