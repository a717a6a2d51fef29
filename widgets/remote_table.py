"""A learner's seat at a shared table: the table widget of its family, fed by
the table service (:class:`tableserver.client.RemoteGame` in place of a local
engine), with a line saying where the learner sits.

- :func:`find_seat` (:class:`SeatFinder`) is what an app's page at
  ``?table=CODE&name=...`` shows: it waits for the page's script to say which
  seat this browser kept for the table, returns to it or joins, and asks with
  the "join a table" box (:mod:`widgets.join_box`) when it can't.
- :func:`shared_table` sits down at once (a notebook, a test).
- :class:`SharedTable` keeps the table up to date by a long poll in a daemon
  thread, and shows only the controls that apply at a shared table.
- :data:`SEAT_KEEPER_JS` is the page's side of keeping the seat.

No rule is here: the service checks every move and runs the other seats.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import json
import math
import threading
import time
from collections.abc import Callable
from typing import Any

import ipywidgets as w

from rummy.errors import GameError
from tableserver.client import BEAT_EVERY, RemoteError, RemoteGame, on_hub
from widgets.join_box import GO_JS, JoinBox, check_name, learner_words
from widgets.quiet import built_at_once
from widgets.tables import TABLES

__all__ = ["SharedTable", "SeatFinder", "find_seat", "shared_table", "SEAT_KEEPER_JS", "CLOSED"]

#: The page's side of keeping a seat.  The token never goes into the page's
#: address (a server logs addresses, a projector shows them): it is kept in
#: the browser's local storage, with the name it joined under.  When the page
#: opens, the script hands the kernel what it kept (a hidden box of class
#: ``rummy-seat-handoff``), and only then does the kernel join: a link opened
#: again returns to its seat instead of taking a second one, and a link opened
#: under another name on a shared computer takes a seat of its own.  A
#: ``#token=...`` fragment (never sent to the server) moves a seat to another
#: device.  It brings the join box's script (:data:`widgets.join_box.GO_JS`):
#: a page that finds no seat shows the join box.  Once seated, the page's
#: browser sends the seat's heartbeat every :data:`tableserver.client.BEAT_EVERY`
#: seconds (``POST .../beat``, the token in the body): the seat's presence.
SEAT_KEEPER_JS = """
<script>
(function () {
  var url = new URL(window.location.href);
  var code = (url.searchParams.get('table') || '').toUpperCase().replace(/[^0-9A-Z]/g, '');
  if (!code) { return; }
  var key = 'rummy-seat-' + code;
  var kept = {};
  try { kept = JSON.parse(window.localStorage.getItem(key) || '{}') || {}; } catch (e) { kept = {}; }
  var fragment = new URLSearchParams(window.location.hash.slice(1));
  if (fragment.get('token')) {
    kept = {token: fragment.get('token'), name: ''};
    window.history.replaceState(null, '', url.pathname + url.search);
  }
  var told = false;
  // a page being left has given its kernel up: a widget changed then raises "Cannot send"
  window.addEventListener('beforeunload', function () { window.rummyLeaving = true; });
  var timer = window.setInterval(function () {
    if (window.rummyLeaving) { return; }
    if (!told) {
      var box = document.querySelector('.rummy-seat-handoff input');
      if (box) {
        box.value = JSON.stringify({token: kept.token || '', name: kept.name || ''});
        box.dispatchEvent(new Event('input', {bubbles: true}));
        box.dispatchEvent(new Event('change', {bubbles: true}));
        told = true;
      }
    }
    var el = document.querySelector('.rummy-seat-token [data-token]');
    if (el) {
      window.localStorage.setItem(key, JSON.stringify({
        token: el.getAttribute('data-token'), name: el.getAttribute('data-name') || ''}));
      window.clearInterval(timer);
      heartbeat(el.getAttribute('data-token'));
    }
  }, 300);
  // The page's heartbeat: this browser (not the page's kernel, which lives on when
  // the browser dies) tells the table service every few seconds that the page is
  // open, with the seat's token in the body (never in an address) and the kernel
  // the page runs in (which the server ends when the beats stopped a while ago).
  // A page being left says so, and its seat counts as left within seconds.
  function heartbeat(token) {
    var cfg = {};
    try {
      cfg = JSON.parse(document.getElementById('jupyter-config-data').textContent) || {};
    } catch (e) { return; }  // not a served page: nobody to tell
    var url = (cfg.baseUrl || '/') + 'rummy/api/tables/' + encodeURIComponent(code) + '/beat';
    // (on a hub the page's own server relays the beat, tableserver/hub_relay.py, and
    // asks for the XSRF token of its cookie, as for any POST of the page)
    var xsrf = (document.cookie.match(/(?:^|;\\s*)_xsrf=([^;]*)/) || [])[1];
    var headers = {'Content-Type': 'application/json'};
    if (xsrf) { headers['X-XSRFToken'] = decodeURIComponent(xsrf); }
    var send = function (gone) {
      var body = {token: token};
      if (cfg.kernelId) { body.kernel = cfg.kernelId; }
      if (gone) { body.gone = true; }
      return window.fetch(url, {method: 'POST', credentials: 'same-origin', keepalive: true,
        headers: headers, body: JSON.stringify(body)})
        .catch(function () { return null; });
    };
    send(false);
    var beats = window.setInterval(function () { send(false); }, BEAT_MS);
    window.addEventListener('pagehide', function () {
      window.clearInterval(beats);
      send(true);
    });
  }
})();
</script>
""".replace("BEAT_MS", str(int(BEAT_EVERY * 1000))) + GO_JS


class SeatFinder:
    """A learner's page before it sits down: it waits for the page's script
    to say which seat this browser kept for the table (:meth:`handoff`), and
    returns to it, or joins under ``name`` when it kept none (or kept one
    under another name).  ``.widget`` becomes the table once seated."""

    def __init__(self, table: str, name: str, *, api: str | None = None) -> None:
        self.code = table
        self.name = name
        self.api = api
        self.seat: SharedTable | None = None
        self._seated: list[Callable[[SharedTable], None]] = []
        self.join_box: Any = None  # the "join a table" box, when the page has no seat
        self.box = w.Text(layout=w.Layout(display="none"), description="Kept seat")
        self.box.add_class("rummy-seat-handoff")
        self.note = w.HTML("Finding your seat...")
        self.note.add_class("rummy-shared-note")
        self.widget = w.VBox([self.box, self.note])
        self.widget.add_class("rummy-shared")
        self.box.observe(self._heard, names="value")

    def _heard(self, change: dict[str, Any]) -> None:
        try:
            data = json.loads(change["new"] or "{}")
            self.handoff(data if isinstance(data, dict) else {})
        except Exception as exc:  # noqa: BLE001 - a message on the page, never a traceback
            if self.join_box is None:
                self.note.value = html.escape(str(exc))

    def _ask(self, problem: str) -> None:
        """No seat yet: the "join a table" box, with the code from the
        address and what to fix (:class:`widgets.join_box.JoinBox`)."""
        self.join_box = JoinBox(self.code, self.name, message=problem, api=self.api)
        self.widget.children = (self.box, self.join_box.widget)

    def on_seated(self, fn: Callable[[SharedTable], None]) -> None:
        """Call ``fn(seat)`` once this page sits down (at once if it already
        sat): e.g. the learner learns under the seat's name from then on."""
        self._seated.append(fn)
        if self.seat is not None:
            fn(self.seat)

    def handoff(self, kept: dict[str, Any]) -> SharedTable:
        """Sit down with what the page kept: ``{"token": ..., "name": ...}``."""
        if self.seat is not None:
            return self.seat
        token = kept.get("token") if isinstance(kept.get("token"), str) else ""
        kept_name = kept.get("name") if isinstance(kept.get("name"), str) else ""
        same = not self.name.strip() or not kept_name or \
            kept_name.strip().casefold() == self.name.strip().casefold()
        game = None
        if token and same:
            try:
                game = RemoteGame(self.code, token, api=self.api)
            except RemoteError as e:
                if e.status not in (403,):  # a freed seat joins afresh; other errors show
                    raise
        if game is None:
            problem = ""
            if not self.name.strip() and not on_hub(self.api):
                problem = "Type your name to take a seat at this table."
            else:
                try:
                    if self.name.strip():  # a hub knows its user: no name
                        check_name(self.name)
                    game = RemoteGame.join(self.code, self.name, api=self.api)
                except RemoteError as exc:  # (a GameError, so before ValueError)
                    problem = learner_words(exc, self.code)
                except ValueError as exc:
                    problem = str(exc)
            if game is None:
                self._ask(problem)
                raise GameError(problem)
        with built_at_once():  # the seat's view: a widget's messages once, not one per change
            self.seat = SharedTable(game, asked=self.name)
        self.widget.children = (self.seat.widget,)
        for fn in self._seated:
            fn(self.seat)
        return self.seat


#: Each family's move controls (attributes of its table widget) and the verbs
#: that make each one live: at a shared table a control is enabled only while
#: one of its moves is in the seat's legal list now (:meth:`SharedTable.truthful`).
MOVE_CONTROLS: dict[str, dict[str, tuple[str, ...]]] = {
    "three_thirteen": {"stock": ("draw stock",), "pile": ("draw discard", "discard"),
                       "discard_button": ("discard",), "go_out": ("go out",)},
    # the own pile stays live while the seat draws too: a click there then is the
    # mistake BT-3 forbids, refused at once with its reason (and kept in the record)
    "big_table": {"pool": ("draw pool",), "neighbour_pile": ("draw pile",),
                  "own_pile": ("discard", "draw pool", "draw pile"), "discard_button": ("discard",),
                  "match": ("call match",), "play_on": ("play on",)},
    "gin": {"stock": ("draw stock",), "pile": ("draw discard", "discard", "take upcard"),
            "take_upcard": ("take upcard",), "decline_upcard": ("pass",),
            "discard_button": ("discard",), "knock": ("knock",), "gin": ("gin",),
            "lay_out": ("lay out",)},
}


def move_buttons(table: Any, family: str) -> dict[str, Any]:
    """The buttons of ``table``'s move controls, by name (a pile's own button)."""
    out = {}
    for name in MOVE_CONTROLS.get(family, {}):
        control = getattr(table, name, None)
        button = getattr(control, "button", control)
        if isinstance(button, w.Button):
            out[name] = button
    return out


#: What a learner's page says when the table's stand-in answered a call for them.
TOO_SLOW = "You were too slow this time: a helper played for you."
#: ... and when it answered several in a row (the teacher sees "not playing").
NOT_PLAYING_NOTE = ("A helper is playing for you because you did not choose for a while. "
                    "Make your next move to play again.")


def time_words(left: float) -> str:
    """The caller's countdown in a learner's words: rounded to 5 seconds
    while there is time, to the second at the end.

    >>> time_words(24.2), time_words(12.0), time_words(4.1), time_words(0.4)
    ('You have 25 seconds to choose.', 'You have 15 seconds to choose.', '4 seconds left: choose now, or a helper plays for you.', 'Time is up: a helper plays for you.')
    """
    if left < 1:
        return "Time is up: a helper plays for you."
    if left <= 10:
        secs = math.floor(left)
        return (f"{secs} second{'s' if secs != 1 else ''} left: choose now, or a helper plays "
                "for you.")
    return f"You have {5 * math.ceil(left / 5)} seconds to choose."


#: What a learner's page says once the teacher closed the table.
CLOSED = "The teacher closed this table: the game has stopped. You can close this page."


class SharedTable:
    """A table widget fed by the service, with a line saying where you sit.

    ``.widget`` is what the page shows; ``.table`` the table widget once the
    game has started (before that, a note says who is still to come)."""

    def __init__(self, game: RemoteGame, asked: str = "") -> None:
        self.game = game
        self.table: Any = None
        self.header = w.HTML()
        self.header.add_class("rummy-seat-token")
        self.note = w.HTML()
        self.note.add_class("rummy-shared-note")
        #: the caller's countdown for this seat's call (words, see :func:`time_words`)
        self.clock = w.HTML()
        self.clock.add_class("rummy-pace")
        self.clock.layout.display = "none"
        self._helped = 0  # calls the stand-in answered for this seat, as last drawn
        #: at a shared table the page's other cells (how to deal a new game, the
        #: meld checker of a local table) do not apply: only the title and the table
        self.style = w.HTML("<style>body:has(.rummy-shared) .jp-Cell:not(:first-child)"
                            ":not(:has(.rummy-app)) {display: none;}</style>")
        self.style.layout.display = "none"
        self.widget = w.VBox([self.header, self.note, self.clock])
        self.widget.add_class("rummy-shared")
        self.header.value = (
            f"<span data-token='{html.escape(game.token)}' data-name='{html.escape(asked)}'>"
            f"You sit at table <b>{html.escape(game.code)}</b>, seat {game.seat + 1}, as "
            f"<b>{html.escape(game.players[game.seat])}</b>. This browser keeps your seat: "
            "open the same link again to come back to it.</span>")
        self._build_table()
        self._stop = False
        self._drawn = game.version  # the version the table shows
        self._poller: threading.Thread | None = None
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        self._helped = self._my_seat().get("helped", 0)
        self.show_time()
        if loop is not None:
            self._poller = threading.Thread(target=self._listen, args=(loop,),
                                            name="rummy-long-poll", daemon=True)
            self._poller.start()
            self._ticker = loop.create_task(self._count_down())

    def _my_seat(self) -> dict[str, Any]:
        seats = self.game.view.get("table", {}).get("seats") or []
        me = self.game.seat
        return seats[me] if 0 <= me < len(seats) else {}

    def show_time(self, now: float | None = None) -> None:
        """Show how long this seat's call still waits for the learner (the
        table's pace; nothing when no call waits for them)."""
        g = self.game
        pace = (g.view.get("table", {}).get("settings") or {}).get("pace")
        deadline = self._my_seat().get("deadline")
        waits = (pace is not None and deadline is not None and g.status == "playing"
                 and g.obs is not None and bool(g.obs.legal_actions))
        if not waits or pace is None or deadline is None:
            if self.clock.layout.display != "none":
                self.clock.layout.display = "none"
            return
        left = min(float(pace), max(0.0, float(deadline) - (time.time() if now is None else now)))
        text = html.escape(time_words(left))
        if self.clock.value != text:
            self.clock.value = text
        if self.clock.layout.display != "":
            self.clock.layout.display = ""

    async def _count_down(self) -> None:
        """The countdown, redrawn each second on the kernel's loop (a widget
        message only when its words change)."""
        while not self._stop:
            with contextlib.suppress(Exception):
                self.show_time()
            await asyncio.sleep(1.0)

    def _build_table(self) -> None:
        g = self.game
        if self.table is None and g.obs is not None:
            cls = TABLES[g.variant.family]
            kw: dict[str, Any] = {"source": g, "learner": g.seat, "name": g.players[g.seat],
                                  "speed": 0}
            with built_at_once():  # a widget's messages once, not one per change
                if g.variant.family == "three_thirteen":
                    self.table = cls(g.variant.name, **kw, **g.options)
                else:
                    self.table = cls(**kw)
                self._wrap_table()
                self._shared_controls()
            self.widget.children = (self.header, self.note, self.clock, self.table.widget,
                                    self.style)
        self._note()
        self.truthful()

    def _wrap_table(self) -> None:
        """Every redraw of the table ends with :meth:`truthful`, and every
        move goes through :meth:`_act`: the table widget is the local one,
        the shared table's honesty is added here."""
        t = self.table
        drawn, acted, told = t.refresh, t.act, t.end_status

        def refresh() -> None:
            drawn()
            self._shared_controls()  # a review shows its Next round: not here
            self.truthful()

        def end_status(button: str) -> str:
            # the end of the hand, said alike on every seat: the teacher starts the
            # next one (no "press Next round" for the learner whose move ended it)
            text = told(button)
            if not self._teacher_paces():
                return text
            tail = f" Read the review, then press {button}."
            return (text.removesuffix(tail) if text.endswith(tail) else text) \
                + " " + self.wait_words()

        def act(action: Any) -> None:
            self._act(acted, action)

        t.refresh, t.act, t.end_status = refresh, act, end_status  # type: ignore[method-assign]

    def _teacher_paces(self) -> bool:
        settings = self.game.view.get("table", {}).get("settings") or {}
        return bool(settings.get("pause_between_hands", True))

    def wait_words(self) -> str:
        """What every seat reads while the teacher has yet to start the next hand."""
        what = "round" if self.game.variant.family == "three_thirteen" else "hand"
        return f"Now waiting for the teacher to start the next {what}: read the review meanwhile."

    def truthful(self) -> None:
        """Disable each move control whose move is not in this seat's legal
        list now (none while the table is paused, waiting or over, none once
        this seat chose its move for the call): a control that looks live
        can be played.  It never enables one the table widget disabled."""
        t = self.table
        if t is None:
            return
        g = self.game
        legal = (g.obs.legal_actions if g.obs is not None and g.status == "playing" else ())
        verbs = {a.verb for a in legal}
        for name, button in move_buttons(t, g.variant.family).items():
            if not set(MOVE_CONTROLS[g.variant.family][name]) & verbs and not button.disabled:
                button.disabled = True

    def _act(self, acted: Callable[[Any], None], action: Any) -> None:
        """A click's move: refused at once, with why, when this seat has no
        move now (:meth:`RemoteGame.idle_reason`); else every move control is
        disabled while the move travels (a second click can't follow it),
        and the answer redraws them."""
        idle = self.game.idle_reason()
        if idle is not None:
            raise GameError(idle)
        buttons = [b for b in move_buttons(self.table, self.game.variant.family).values()
                   if not b.disabled]
        for b in buttons:
            b.disabled = True
        try:
            acted(action)
        except BaseException:
            self.table.refresh()  # the controls as the (perhaps fresh) state says
            raise

    def _shared_controls(self) -> None:
        """Only the controls that apply at a shared table: no Deal, New game,
        Undo, bot speed or Next round (the teacher starts each hand); Hint
        and "Do it for me" only when the teacher allows hints (the table's
        ``hints`` option)."""
        t = self.table
        settings = self.game.view.get("table", {}).get("settings") or {}
        hints = bool(settings.get("hints"))
        teacher_paces = self._teacher_paces()
        coach = getattr(t, "coach", None)
        for control in (getattr(coach, "hint_button", None), getattr(coach, "do_it", None)):
            if control is not None:
                control.layout.display = "" if hints else "none"
        hidden = [getattr(coach, "undo_button", None), getattr(t, "speed", None),
                  getattr(t, "new_game_button", None)]
        if teacher_paces:  # the teacher starts the next hand; else the learner goes on
            hidden.append(getattr(t, "next_round", None))
        for control in hidden:
            if control is not None:
                control.layout.display = "none"

    def _stop_table(self, text: str) -> None:
        """The table is closed (or gone): say so and stop: no "Your turn",
        no piles to click, no more waiting for news."""
        self._stop = True
        self.note.value = f"<b>{html.escape(text)}</b>"
        t = self.table
        if t is not None:
            t.status.remove_class("rummy-your-turn")
            t.status.value = html.escape(text)
            t.play_area.layout.display = "none"
            t.review_box.layout.display = "none"
            t.seat_label.value = ""
            coach = getattr(t, "coach", None)
            if coach is not None:
                coach.widget.layout.display = "none"
        self.widget.add_class("rummy-shared-closed")

    def _note(self) -> None:
        view = self.game.view
        status = view.get("status")
        seats = view.get("table", {}).get("seats", [])
        if status == "waiting":
            free = [s for s in seats if s["kind"] == "human" and not s["joined"]]
            text = (f"Waiting for {len(free)} more learner{'s' if len(free) != 1 else ''} "
                    "to join, or for the teacher to start the game.")
        elif status == "paused":
            text = ("The hand is over: waiting for the teacher to start the next one. "
                    "Read the review meanwhile.")
        elif status == "closed":
            text = CLOSED
        else:
            away = [s["name"] for s in seats if s.get("away")]
            left = [s["name"] for s in seats if s.get("left") and not s.get("away")]
            text = " ".join(
                ([f"{', '.join(left)} left the table."] if left else [])
                + (["A bot is playing for " + ", ".join(away) + " until they come back."]
                   if away else []))
        self.note.value = html.escape(text)

    def update(self) -> None:
        """Redraw from the game's latest state."""
        self._drawn = self.game.version
        if self.game.status == "closed":
            self._stop_table(CLOSED)
            return
        self._build_table()
        if self.table is not None:
            self.table.after_move()
            settings = self.game.view.get("table", {}).get("settings") or {}
            if (self.table.paused and self.game.status == "playing"
                    and settings.get("pause_between_hands", True)):
                # the teacher started the next hand: the review gives way to it
                self.table.resume()
            self.table.refresh()  # (with the shared controls: no Next round)
            if self.game.status == "paused" and not self.table.paused:
                # a page opened while paused: it saw no hand end, so no review
                self.table.status.remove_class("rummy-your-turn")
                self.table.status.value = html.escape("The hand is over. " + self.wait_words())
            me = self._my_seat()
            helped = int(me.get("helped") or 0)
            if helped > self._helped:  # the stand-in answered this seat's call
                self.table.show_notice(NOT_PLAYING_NOTE if me.get("not_playing") else TOO_SLOW)
            self._helped = helped
        self.show_time()

    def _listen(self, loop: asyncio.AbstractEventLoop) -> None:
        """The page's long poll, in a daemon thread of its own (started when the
        page is built in a running kernel).  It opens the next poll as soon as
        one is answered and hands the news to the kernel's loop, which redraws
        the table: however long a redraw takes on a busy machine, a poll is open
        while the page is, so the service never takes a slow page for gone.  A
        closed page's kernel quits at once (a daemon thread does not hold it),
        which cuts the poll off: the seat counts as left within seconds."""

        def on_loop(fn: Callable[..., Any], *args: Any) -> bool:
            try:
                loop.call_soon_threadsafe(fn, *args)
                return True
            except RuntimeError:  # the loop closed: the kernel is shutting down
                # one more poll, which the kernel's end cuts off: the service
                # sees the page leave within seconds, not after an answered poll
                with contextlib.suppress(Exception):
                    self.game.wait()
                return False

        while not self._stop and self.game.status != "closed":
            try:
                changed = self.game.wait()
            except RemoteError as exc:
                if exc.status in (404, 410):  # closed, or forgotten
                    on_loop(self._stop_table, CLOSED)
                    return
                if not on_loop(self._lost, exc):
                    return
                time.sleep(2)
                continue
            except Exception as exc:  # noqa: BLE001 - shown as a note, then retried
                if not on_loop(self._lost, exc):
                    return
                time.sleep(2)
                continue
            if changed and not on_loop(self._news):
                return

    def _lost(self, exc: BaseException) -> None:
        self.note.value = f"Lost touch with the table ({exc}); trying again..."

    def _news(self) -> None:
        """On the kernel's loop: draw the newest state the poll brought, once
        (news that came while a redraw ran are drawn together)."""
        if self.game.version == self._drawn:
            return
        try:
            self.update()
        except Exception as exc:  # noqa: BLE001 - never a traceback on the page
            self.note.value = f"{type(exc).__name__}: {exc}"

    def close(self) -> None:
        """Stop listening to the table's news (the page is going away)."""
        self._stop = True


def find_seat(table: str, name: str = "", api: str | None = None) -> SeatFinder:
    """A learner's page at shared table ``table``: it sits down once the
    page's script said which seat the browser kept (:class:`SeatFinder`)."""
    return SeatFinder(table, name, api=api)


def shared_table(table: str, name: str = "", token: str = "", api: str | None = None
                 ) -> SharedTable:
    """Sit at shared table ``table`` at once: with ``token`` return to that
    seat, else join under ``name``.  The widget shows the seat's token to the
    page's seat keeper (:data:`SEAT_KEEPER_JS`), which keeps it for reloads."""
    if token:
        game = RemoteGame(table, token, api=api)
    else:
        if not name.strip():
            raise GameError("to join a shared table, add your name to the address: "
                            f"?table={table}&name=YourName")
        game = RemoteGame.join(table, name, api=api)
    return SharedTable(game)
