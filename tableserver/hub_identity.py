"""Who a hub user is at the shared tables: the identity layer of the table
service on a JupyterHub (:mod:`tableserver.hub`).

A learner's seat is theirs wherever they open it: its secret is derived
from the table's code and their hub name with the service's secret
(:func:`hub_secret`, :func:`seat_token`), so joining again returns to the
same seat, a request can act only for its own user's seat, and a restarted
service knows them.  Teachers are the hub users whose token holds
:data:`TEACHER_SCOPE`: only they make and run tables, and they see each
table as the teacher does with the key (:class:`Identity`).  No JupyterHub
import here: the handlers that ask the hub who is asking are
:mod:`tableserver.hub_web`.

>>> seat_token(b"0" * 32, "k7qm-x4p9-rt2h", "ana") == seat_token(b"0" * 32, "K7QMX4P9RT2H", "ana")
True
>>> seat_token(b"0" * 32, "K7QM-X4P9-RT2H", "ana") == seat_token(b"0" * 32, "K7QM-X4P9-RT2H", "ben")
False
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import secrets
from pathlib import Path
from typing import Any

from rummy.progress import MAX_NAME, data_dir
from tableserver.errors import Forbidden, ServiceError
from tableserver.service import TableService
from tableserver.tables import normal_code

__all__ = ["SERVICE_NAME", "TEACHER_SCOPE", "SECRET_FILE", "Identity", "seat_token", "hub_secret",
           "display_name"]

#: The service's name on the hub: its address is ``/services/rummy-tables/``.
SERVICE_NAME = "rummy-tables"
#: The hub scope that makes a user a teacher (a custom scope, given by a role).
TEACHER_SCOPE = "custom:rummy-teacher"
#: The file in the data folder that keeps the service's secret.
SECRET_FILE = "hub-secret"


def hub_secret(folder: Path | None = None, env: dict[str, str] | None = None) -> bytes:
    """The service's secret (32 random bytes): ``$RUMMY_HUB_SECRET`` (hex), else
    the ``hub-secret`` file of the data folder, made once (mode 0600).  It
    derives every seat's secret and signs the OAuth cookie, so it is the
    same after a restart; whoever reads it could act for any learner."""
    env = dict(os.environ) if env is None else env
    given = env.get("RUMMY_HUB_SECRET")
    if given:
        try:
            raw = bytes.fromhex(given)
        except ValueError:
            raw = b""
        if len(raw) < 32:
            raise SystemExit("RUMMY_HUB_SECRET must be at least 32 bytes written in hex "
                             "(64 characters, e.g. from `openssl rand -hex 32`)")
        return raw
    path = (folder or data_dir()) / SECRET_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        raw = bytes.fromhex(path.read_text().strip())
        if len(raw) < 32:
            raise SystemExit(f"{path} is not a secret of 32 bytes in hex: remove it and "
                             "restart (learners then join their tables again)") from None
        return raw
    raw = secrets.token_bytes(32)
    with os.fdopen(fd, "w") as f:
        f.write(raw.hex())
        f.flush()
        os.fsync(f.fileno())
    return raw


def seat_token(secret: bytes, code: str, user: str) -> str:
    """The secret of ``user``'s seat at table ``code`` (43 characters): the
    same wherever and whenever they open the table, different for every
    user and table, and of no use without the service's secret."""
    mac = hmac.new(secret, f"seat\0{normal_code(code)}\0{user}".encode(), hashlib.sha256)
    return base64.urlsafe_b64encode(mac.digest()).decode().rstrip("=")


class Identity:
    """Maps a hub user (the model the hub answers for their token) to a seat
    of a table and to the teacher's rights."""

    def __init__(self, service: TableService, secret: bytes) -> None:
        self.service = service
        self.secret = secret

    @staticmethod
    def is_teacher(user: dict[str, Any]) -> bool:
        """Whether the hub gave this user (this request's token) the teacher scope."""
        return TEACHER_SCOPE in (user.get("scopes") or ())

    def seat(self, code: str, user: dict[str, Any]) -> str:
        """The secret of the user's seat at ``code`` (whether or not they sat down)."""
        return seat_token(self.secret, code, str(user["name"]))

    def seated(self, code: str, user: dict[str, Any]) -> bool:
        """Whether the user holds a seat at table ``code``."""
        try:
            self.service.version(code, self.seat(code, user))
        except Forbidden:
            return False
        except ServiceError:
            return True  # no such table: the service says so with the seat's secret
        return True

    def token(self, code: str, user: dict[str, Any]) -> str | None:
        """What the service's calls for a seat get: the user's seat, else for a
        teacher the teacher's view; None for a learner without a seat."""
        if self.seated(code, user):
            return self.seat(code, user)
        if self.is_teacher(user):
            return self.service.teacher_key
        return None

    def teacher_key(self, user: dict[str, Any]) -> str | None:
        """The teacher key for a teacher, None for anybody else."""
        return self.service.teacher_key if self.is_teacher(user) else None

    def join(self, code: str, user: dict[str, Any]) -> dict[str, Any]:
        """Sit the user at table ``code`` under their hub name, or return them
        to the seat they hold.  The answer names the seat; its secret stays here."""
        secret = self.seat(code, user)
        if self.seated(code, user):
            view = self.service.state(code, secret)
            seat = int(view["player"])
            return {"code": view["code"], "seat": seat, "token": "", "returned": True,
                    "name": view["table"]["seats"][seat]["name"]}
        out = self.service.join(code, display_name(str(user["name"])), token=secret)
        out["token"] = ""
        out["returned"] = False
        return out


def display_name(user: str) -> str:
    """The name a hub user sits down under (a table's names are short).

    >>> display_name("ana"), display_name("a.very.long.name@school.example.org")
    ('ana', 'a.very.long.name@school.')
    """
    return user[:MAX_NAME]
