"""Each hand of a shared table dealt from a key only the server holds.

The server keeps 32 bytes from :mod:`secrets` in ``deals.key`` beside its
database (0600; never in the database, an answer or a log).  A table's
hand ``n`` is shuffled by a generator seeded with HMAC-SHA256(key, code and
``n``): the database holds the moves and, at each hand's end, the game as it
stands (its generator's state is this hand's only), so somebody who reads the
database, or a backup of it, learns nothing of the hands to come, and a
restarted server, holding the same key, deals them exactly as before.

>>> key = bytes(32)
>>> hand_seed(key, "K7QM-X4P9-RT2H", 2) == hand_seed(key, "K7QM-X4P9-RT2H", 2)
True
>>> hand_seed(key, "K7QM-X4P9-RT2H", 2) != hand_seed(key, "K7QM-X4P9-RT2H", 3)
True
>>> hand_seed(key, "K7QM-X4P9-RT2H", 2).bit_length() > 128
True
"""

from __future__ import annotations

import hashlib
import hmac
import os
import random
import secrets
from pathlib import Path
from typing import Any

__all__ = ["KEY_FILE", "KEY_BYTES", "deal_key", "hand_seed", "HandDeals", "deal_by_hands"]

#: The server's deal key, beside its database.
KEY_FILE = "deals.key"
#: Bytes of the key (from :mod:`secrets`).
KEY_BYTES = 32


def deal_key(folder: str | os.PathLike[str]) -> bytes:
    """The server's deal key from ``folder``/:data:`KEY_FILE`, made there
    (0600) the first time."""
    path = Path(folder) / KEY_FILE
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        key = path.read_bytes()
        if len(key) != KEY_BYTES:
            raise ValueError(f"{KEY_FILE} holds {len(key)} bytes, not {KEY_BYTES}: the "
                             "tables dealt with it cannot be restored (move it away to "
                             "start afresh)") from None
        return key
    key = secrets.token_bytes(KEY_BYTES)
    with os.fdopen(fd, "wb") as f:
        f.write(key)
    return key


def hand_seed(key: bytes, code: str, hand: int) -> int:
    """The seed of table ``code``'s hand ``hand`` (0: the game's start)."""
    mac = hmac.new(key, f"rummy deal|{code}|{int(hand)}".encode(), hashlib.sha256)
    return int.from_bytes(mac.digest(), "big")


class HandDeals(random.Random):
    """A table game's generator: the same as the one it replaces, until the
    game starts another hand, whose shuffles then come from
    :func:`hand_seed`.  Pickled or copied, it keeps its state but not the key
    (:class:`random.Random` pickles its state only): the copy goes on as a
    plain generator, and a restored table is given the key again
    (:func:`deal_by_hands`)."""

    def __init__(self, x: Any = None) -> None:
        self._key: bytes | None = None
        self._code = ""
        self._game: Any = None
        self._hand: int | None = None
        super().__init__(x)

    def attach(self, game: Any, key: bytes, code: str) -> None:
        """Deal ``game``'s next hands from ``key`` (the current hand goes on as it is)."""
        self._key, self._code, self._game = key, code, game
        self._hand = int(game.number)

    def _fresh(self) -> None:
        if self._game is None or self._key is None:
            return
        hand = int(self._game.number)
        if hand != self._hand:
            self._hand = hand
            self.seed(hand_seed(self._key, self._code, hand))

    def random(self) -> float:
        self._fresh()
        return super().random()

    def getrandbits(self, k: int) -> int:
        self._fresh()
        return super().getrandbits(k)


def deal_by_hands(game: Any, key: bytes, code: str) -> None:
    """From now on, deal each new hand of ``game`` (table ``code``) from ``key``."""
    rng = game.rng if isinstance(game.rng, HandDeals) else HandDeals()
    if rng is not game.rng:
        rng.setstate(game.rng.getstate())
    rng.attach(game, key, code)
    game.rng = rng
