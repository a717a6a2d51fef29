"""A game that outlives its page's kernel: "Continue this game".

An app's table (one built with ``wait_for_page=True``) keeps its game in the
kit's data folder after every move, as the engine's own JSON (seed, options
and every move: :meth:`rummy.engine.GameState.to_json`), in a file named by a
random token (128 bits, :mod:`secrets`).  Only the token goes to the page, so
nothing of the hidden cards reaches the browser: the page's script
(:data:`KEEPER_JS`) keeps it in the browser's local storage, one per app.

When the page lost its kernel (a server restart, a phone asleep for long) and
is opened again, its script hands the kept token to the new kernel through a
hidden box; if that game is still going, the table offers "Continue this game"
and, pressed, replays it to where it was (:meth:`GameTable.new_game` with the
loaded state).  A token that names no game, or a finished one, offers nothing.

Kept games don't pile up: each new table, and each table's first save, drops
the kept files older than :data:`KEEP_DAYS` and all but the
:data:`KEEP_AT_MOST` newest (:func:`prune_saved_games`), never its own.

>>> KEEPER.match("k" + "a" * 32) is not None, KEEPER.match("../../etc/passwd") is None
(True, True)
"""

from __future__ import annotations

import contextlib
import html
import json
import os
import re
import secrets
import time
from pathlib import Path
from typing import Any

import ipywidgets as w

from rummy import load_game
from rummy.progress import data_dir
from widgets.view import button, html_box

__all__ = ["KEEP_AT_MOST", "KEEP_DAYS", "GameKeeper", "KEEPER_JS", "prune_saved_games",
           "saved_games_dir"]

#: A kept game not saved for this many days is dropped.
KEEP_DAYS = 30

#: At most this many kept games stay (the newest), the table's own among them.
KEEP_AT_MOST = 500

#: A token: "k" and 16 random bytes in hex (the letter first, so that no part of
#: it reads as a card, "7c", to a check that the page names no hidden card).
KEEPER = re.compile(r"^k[0-9a-f]{32}$")

#: The page's side: keep the token the kernel hands over in ``.rummy-game-save-out
#: [data-save]`` (per app, ``data-app``), and on a page whose table asks
#: (``.rummy-game-keeper`` without ``data-asked``) give the kept one back through
#: the hidden box and press the hidden "look" button.
KEEPER_JS = """
<script>
(function () {
  if (window.rummyGameKeeper) { return; }
  window.rummyGameKeeper = true;
  window.addEventListener('beforeunload', function () { window.rummyLeaving = true; });
  window.setInterval(function () {
    if (window.rummyLeaving) { return; }
    document.querySelectorAll('.rummy-game-keeper').forEach(function (box) {
      var out = box.querySelector('.rummy-game-save-out [data-app]');
      if (!out) { return; }
      var key = 'rummy-game:' + out.getAttribute('data-app');
      if (!box.getAttribute('data-asked')) {
        var input = box.querySelector('.rummy-game-save-in input');
        var look = box.querySelector('button.rummy-game-look');
        if (!input || !look) { return; }
        box.setAttribute('data-asked', '1');
        var kept = window.localStorage.getItem(key);
        if (!kept) { return; }
        input.value = kept;
        input.dispatchEvent(new Event('input', {bubbles: true}));
        input.dispatchEvent(new Event('change', {bubbles: true}));
        window.setTimeout(function () { if (!window.rummyLeaving) { look.click(); } }, 50);
        return;
      }
      var token = out.getAttribute('data-save');
      if (token) { window.localStorage.setItem(key, token); }
    });
  }, 250);
})();
</script>
"""


def saved_games_dir() -> Path:
    """Where the apps' games are kept: ``games/`` in the kit's data folder."""
    return data_dir() / "games"


def prune_saved_games(keep: str | None = None, *, now: float | None = None) -> list[Path]:
    """Drop the kept games older than :data:`KEEP_DAYS` and all but the
    :data:`KEEP_AT_MOST` newest (by the time each was last saved), never the one
    kept under the token ``keep``; the files dropped, newest first.

    Only the kit's own files (a token's ``.json``, or its ``.tmp`` left by a
    save cut short) are looked at; a file that can't be read or removed stays.

    >>> KEEP_DAYS, KEEP_AT_MOST
    (30, 500)
    """
    now = time.time() if now is None else now
    try:
        entries = list(saved_games_dir().iterdir())
    except OSError:
        return []  # no folder yet: nothing kept
    kept: list[tuple[float, Path]] = []
    for path in entries:
        if path.suffix not in (".json", ".tmp") or not KEEPER.match(path.stem) \
                or path.stem == keep:
            continue
        with contextlib.suppress(OSError):
            kept.append((path.stat().st_mtime, path))
    kept.sort(reverse=True)
    cutoff = now - KEEP_DAYS * 24 * 3600
    room = KEEP_AT_MOST - (1 if keep is not None else 0)
    dropped = [path for i, (mtime, path) in enumerate(kept) if mtime < cutoff or i >= room]
    for path in dropped:
        with contextlib.suppress(OSError):
            path.unlink()
    return dropped


class GameKeeper:
    """Keeps ``table``'s game after every move and offers a kept one back.

    ``table`` is a :class:`widgets.game_table.GameTable`; ``app`` names the
    game kept (the variant's name), so that each variant offers its own game.
    """

    def __init__(self, table: Any, app: str) -> None:
        self.table = table
        self.app = app
        self.token = "k" + secrets.token_hex(16)
        self._kept_moves = -1
        self._offered: Any = None
        self.save_out = html_box("rummy-game-save-out", self._out_html(False))
        self.save_in = w.Password(value="", description="Kept game", continuous_update=False)
        self.save_in.add_class("rummy-game-save-in")
        self.look = button("Look for a kept game", "rummy-game-look")
        self.look.on_click(lambda _b: self.offer())
        hidden = w.HBox([self.save_in, self.look, self.save_out])
        hidden.layout.display = "none"
        self.note = html_box("rummy-continue-note")
        self.continue_button = button("Continue this game", "rummy-continue-game",
                                      style="primary")
        self.continue_button.on_click(lambda _b: self.continue_game())
        self.offer_box = w.HBox([self.note, self.continue_button],
                                layout=w.Layout(display="none", flex_flow="row wrap",
                                                align_items="center"))
        self.offer_box.add_class("rummy-continue")
        keeper = w.Output(outputs=({"output_type": "display_data", "metadata": {},
                                    "data": {"text/html": KEEPER_JS}},))
        keeper.layout.display = "none"
        self.widget = w.VBox([self.offer_box, hidden, keeper])
        self.widget.add_class("rummy-game-keeper")
        self.widget.layout.display = "none"  # no room taken until there is a game to offer
        self._pruned = False
        prune_saved_games(keep=self.token)  # a new table: old kept games go

    def _out_html(self, saved: bool) -> str:
        save = f" data-save='{html.escape(self.token)}'" if saved else ""
        return f"<span data-app='{html.escape(self.app)}'{save}></span>"

    def path(self, token: str | None = None) -> Path:
        """The file of the game kept under ``token`` (this table's own by default)."""
        token = self.token if token is None else token
        if not KEEPER.match(token):
            raise ValueError("a kept game's token is 'k' and 32 hex digits")
        return saved_games_dir() / f"{token}.json"

    def save(self) -> None:
        """Keep the game as it is now (once per move; a finished game is dropped)."""
        state = self.table.state
        if state is None or self.table.source is not None:
            return
        moves = len(state.history)
        if moves == self._kept_moves:
            return
        self._kept_moves = moves
        path = self.path()
        if state.is_over:
            with contextlib.suppress(OSError):
                path.unlink()
            # the page no longer says a game is kept (its lost-kernel notice reads this)
            self.save_out.value = self._out_html(False)
            return
        if not any(seat == self.table.learner for seat, _a in state.history):
            return  # nothing of the learner's to keep yet (an older kept game stays offered)
        path.parent.mkdir(parents=True, exist_ok=True)
        if not self._pruned:
            self._pruned = True
            prune_saved_games(keep=self.token)
        data = {"app": self.app, "learner": self.table.learner, "game": state.to_json()}
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(data), encoding="utf-8")
        os.replace(tmp, path)
        want = self._out_html(True)
        if self.save_out.value != want:
            self.save_out.value = want

    def offer(self) -> None:
        """The page gave a kept token: offer its game if it is still going."""
        token = self.save_in.value.strip()
        self.save_in.value = ""
        if token == self.token or not KEEPER.match(token):
            return
        try:
            data = json.loads(self.path(token).read_text(encoding="utf-8"))
            state = load_game(data["game"])
        except (OSError, ValueError, KeyError, TypeError):
            return  # nothing kept under that token (or not readable): nothing to offer
        if data.get("app") != self.app or state.is_over \
                or data.get("learner") != self.table.learner:
            return
        self._offered = (token, state)
        obs = state.observe(self.table.learner)
        what = "round" if self.table.variant.family == "three_thirteen" else "hand"
        self.note.value = (f"<b>Your game from before is kept</b> ({what} {obs.number}, "
                           f"{len(state.history)} moves made).")
        self.offer_box.layout.display = ""
        self.widget.layout.display = ""

    def continue_game(self) -> None:
        """Replay the offered game to where it was, and keep it under its token."""
        if self._offered is None:
            self.table.show_error("There is no kept game to continue.")
            return
        token, state = self._offered
        self._offered = None
        self.offer_box.layout.display = "none"
        self.widget.layout.display = "none"
        self.token = token
        self._kept_moves = len(state.history)
        self.save_out.value = self._out_html(True)
        self.table.new_game(state=state)
        self.table.show_notice("Your game goes on where it was.")
