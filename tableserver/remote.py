"""A shared table, seen from one seat, with the interface of a local engine.

A table widget (``widgets.tables``) plays a local engine: it asks
``observe(learner)``, shows ``legal_actions``, calls ``apply(action,
player=learner)``.  :class:`RemoteGame` offers the same calls, backed by the
table service over HTTP: the widget stays exactly as it is, and holds no
rule (the service holds the game and runs the bots).  :func:`shared_table`
joins (or, with a token, returns to) a table and builds the right widget
for its variant, kept up to date by a long poll.

This module is plain Python (``urllib``) apart from :func:`shared_table`,
which builds ipywidgets.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import ssl
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from typing import Any
from urllib.parse import quote

from rummy.engine import engine_class
from rummy.game import Action, GameError
from rummy.variants import find_variant
from tableserver.wire import decode, decode_observation

__all__ = ["RemoteGame", "RemoteError", "SeatFinder", "find_seat", "shared_table", "api_base",
           "on_hub", "in_daemon_thread", "SEAT_KEEPER_JS", "GO_JS"]


async def in_daemon_thread(fn: Callable[[], Any]) -> Any:
    """Run ``fn`` in a daemon thread and await its answer.

    For a long poll (the teacher's page; a learner's page polls in a thread of
    its own, ``SharedTable._listen``): ``asyncio.to_thread`` uses the loop's
    executor, whose threads Python joins when the kernel shuts down, so a closed
    page's kernel would stay until the poll was answered (up to 25 s).  A
    daemon thread dies with the kernel, which quits at once.

    >>> asyncio.run(in_daemon_thread(lambda: 6 * 7))
    42
    """
    loop = asyncio.get_running_loop()
    answer: asyncio.Future[Any] = loop.create_future()

    def settle(value: Any, error: BaseException | None) -> None:
        if answer.done():
            return
        if error is not None:
            answer.set_exception(error)
        else:
            answer.set_result(value)

    def run() -> None:
        try:
            value, error = fn(), None
        except BaseException as exc:  # noqa: BLE001 - handed to the awaiting task
            value, error = None, exc
        with contextlib.suppress(RuntimeError):  # the loop closed: nobody waits any more
            loop.call_soon_threadsafe(settle, value, error)

    threading.Thread(target=run, name="rummy-long-poll", daemon=True).start()
    return await answer


class RemoteError(GameError):
    """The service refused or could not be reached; the message says why."""

    def __init__(self, message: str, status: int = 0) -> None:
        super().__init__(message)
        self.status = status


def api_base() -> str:
    """Where this kernel reaches the table service: ``$RUMMY_API`` (set by the
    server that started the kernel), else on a hub the hub's service (its
    public address, ``$JUPYTERHUB_PUBLIC_URL``), else ``make app``'s address."""
    given = os.environ.get("RUMMY_API")
    if given:
        return given.rstrip("/")
    public = os.environ.get("JUPYTERHUB_PUBLIC_URL")
    if public and os.environ.get("JUPYTERHUB_API_TOKEN"):
        return public.rstrip("/") + "/services/rummy-tables/rummy/api"
    return "http://127.0.0.1:8866/rummy/api"


def _hub_headers(url: str) -> dict[str, str]:
    """On a hub, a request to the hub's table service carries this server's
    hub token (``$JUPYTERHUB_API_TOKEN``): the service knows the user by it."""
    token = os.environ.get("JUPYTERHUB_API_TOKEN")
    if token and "/services/" in url:
        return {"Authorization": f"token {token}"}
    return {}


def _tls() -> ssl.SSLContext | None:
    """The context a kernel checks its own server's certificate with:
    ``RUMMY_API_CA`` (``make classroom`` sets it to the certificate it serves)."""
    ca = os.environ.get("RUMMY_API_CA")
    if not ca:
        return None
    ctx = ssl.create_default_context(cafile=ca)
    ctx.verify_flags |= ssl.VERIFY_X509_PARTIAL_CHAIN  # the server's own (self-signed) one
    return ctx


def _call(url: str, body: Any = None, token: str | None = None, timeout: float = 30,
          teacher: str | None = None) -> dict[str, Any]:
    data = None if body is None else json.dumps(body).encode()
    headers = {"Content-Type": "application/json", **_hub_headers(url)}
    if token:
        headers["X-Rummy-Token"] = token
    if teacher:
        headers["X-Rummy-Teacher-Key"] = teacher
    req = urllib.request.Request(url, data=data, method="GET" if body is None else "POST",
                                 headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=timeout, context=_tls()) as r:
            return dict(json.loads(r.read()))
    except urllib.error.HTTPError as e:
        try:
            answer = json.loads(e.read())
        except ValueError:
            answer = {"error": f"the table service answered {e.code}"}
        err = RemoteError(str(answer.get("error", e.code)), e.code)
        err.state = answer.get("state")  # type: ignore[attr-defined]
        raise err from None
    except (urllib.error.URLError, OSError) as e:
        raise RemoteError(f"the table service can't be reached ({e}): is `make app` "
                          "running?") from None


def on_hub(api: str | None = None) -> bool:
    """Whether this kernel speaks to the hub's table service as its hub user
    (then no name, token or teacher key is asked for: the hub login is who)."""
    return bool(_hub_headers(api or api_base()))


class RemoteGame:
    """One seat's side of a shared table, speaking the engine's interface.

    ``observe(seat)`` answers the last state the service sent (only for this
    seat); ``apply`` sends the move and raises :class:`GameError` with the
    service's reason when it is refused (a stale page gets the fresh state
    and a message).  ``wait()`` blocks for news (a long poll)."""

    def __init__(self, code: str, token: str, *, api: str | None = None) -> None:
        self.api = (api or api_base()).rstrip("/")
        self.code = code
        self.token = token
        self._lock = threading.Lock()
        self.view: dict[str, Any] = {}
        self.obs: Any = None
        #: the moves this page made (a shared table has no undo)
        self.history: list[tuple[int, Action]] = []
        self._take(_call(self._url("state"), token=token))
        self.seat: int = int(self.view["player"])
        self.variant = find_variant(self.view["table"]["variant"])
        self.options = dict(self.view["table"]["options"])
        self.seed: int | None = None  # the service keeps the seed

    @classmethod
    def join(cls, code: str, name: str, *, api: str | None = None) -> RemoteGame:
        """Take the next free seat at table ``code`` under ``name``."""
        base = (api or api_base()).rstrip("/")
        got = _call(f"{base}/tables/{quote(code)}/join", {"name": name})
        return cls(got["code"], got["token"], api=base)

    def _url(self, what: str) -> str:
        return f"{self.api}/tables/{quote(self.code)}/{what}"

    def _take(self, view: dict[str, Any]) -> bool:
        """Keep ``view`` if it is newer; answers whether it was.  A view that
        can't be read raises and leaves the page's state as it was (the view
        and its observation are always of the same version)."""
        with self._lock:
            if self.view and view.get("version", 0) <= self.view.get("version", 0):
                return False
            obs = decode_observation(view) if view.get("phase") != "waiting" else None
            self.view, self.obs = view, obs
            return True

    # -- the engine's interface ------------------------------------------------
    @property
    def version(self) -> int:
        return int(self.view.get("version", 0))

    @property
    def status(self) -> str:
        return str(self.view.get("status", ""))

    @property
    def players(self) -> tuple[str, ...]:
        if self.obs is not None:
            return tuple(self.obs.players)
        return tuple(s["name"] for s in self.view["table"]["seats"])

    @property
    def is_over(self) -> bool:
        return self.status in ("over", "closed")

    @property
    def current_player(self) -> int | None:
        return getattr(self.obs, "current_player", None)

    def to_act(self) -> list[int]:
        """This seat if it has a move to make (other seats' turns are the
        service's business)."""
        return [self.seat] if self.obs is not None and self.obs.legal_actions else []

    def observe(self, player: int) -> Any:
        if player != self.seat:
            raise GameError(f"at a shared table you see your own seat only (seat {self.seat})")
        if self.obs is None:
            raise GameError("the game has not started yet: wait for the teacher")
        return self.obs

    def legal_actions(self, player: int | None = None) -> list[Action]:
        return list(self.observe(self.seat if player is None else player).legal_actions)

    def apply(self, action: Action | str, player: int | None = None) -> None:
        if player is not None and player != self.seat:
            raise GameError(f"at a shared table you move for your own seat only (seat {self.seat})")
        text = str(Action.parse(action))
        try:
            view = _call(self._url("act"), {"token": self.token, "action": text,
                                            "version": self.version})
        except RemoteError as e:
            fresh = getattr(e, "state", None)
            if e.status == 409 and fresh:
                self._take(fresh)
                raise GameError(f"The table moved on before your move ({text}) arrived, so it "
                                "was not made: the table now shows where play is.") from None
            raise GameError(str(e)) from None
        self._take(view)
        self.history.append((self.seat, Action.parse(text)))

    def undo(self, player: int | None = None) -> None:
        raise GameError("at a shared table a move can't be taken back")

    def advise(self, action: Action | str, player: int | None = None, reason: str = "") -> Any:
        """Gin: the advisor's suggestion for the captain, through the service."""
        self.apply(Action.parse(f"advise {Action.parse(action)}"))
        return self.obs.advice if self.obs is not None else None

    def advice(self, bot: str = "expert", seed: int | None = None) -> Any:
        raise GameError("at a shared table the advisor is a player: ask them")

    def summary(self) -> list[dict[str, Any]]:
        """Per seat: ``seat``, ``player``, ``score``, ``rank``, ``won`` (from
        the public scores; a tie for the lowest total wins nobody)."""
        scores = list(self.obs.scores) if self.obs is not None else []
        best = min(scores) if scores else 0
        winners = [i for i, s in enumerate(scores) if s == best]
        if not engine_class(self.variant).low_wins:  # gin: the first to the target wins (G-13)
            best = max(scores) if scores else 0
            winners = [i for i, s in enumerate(scores) if s == best]
            ranks = [1 + sum(1 for t in scores if t > s) for s in scores]
        else:
            ranks = [1 + sum(1 for t in scores if t < s) for s in scores]
        return [{"seat": i, "player": self.players[i], "score": s, "rank": ranks[i],
                 "won": self.is_over and len(winners) == 1 and winners[0] == i}
                for i, s in enumerate(scores)]

    def score_sheet(self) -> Any:
        """Scores per round or hand (every family, from the service's
        ``score_rows``) and the totals, as a DataFrame."""
        import pandas as pd

        obs = self.obs
        names = list(self.players)
        sent = self.view.get("score_rows") or []  # every family: a row per round or hand
        rows = [list(r) for _label, r in sent]
        index = [str(label) for label, _r in sent]
        rows.append(list(obs.scores) if obs is not None else [0] * len(names))
        index.append("Total")
        return pd.DataFrame(rows, index=index, columns=names)

    # -- news ----------------------------------------------------------------------
    def refresh(self) -> bool:
        """Ask for the state now; answers whether it changed."""
        return self._take(_call(self._url("state"), token=self.token))

    def wait(self, timeout: float = 25) -> bool:
        """Block until the table changes (or ``timeout`` seconds); answers
        whether the state this page holds changed."""
        view = _call(self._url(f"wait?version={self.version}&timeout={timeout:g}"),
                     token=self.token, timeout=timeout + 15)
        return self._take(view)

    def advice_now(self) -> Any:
        """The advice in this seat's view (Gin), decoded."""
        from rummy.gin import Advice

        raw = self.view.get("advice")
        return None if raw is None else decode(Advice | None, raw)


#: The page's side of keeping a seat.  The token never goes into the page's
#: address (a server logs addresses, a projector shows them): it is kept in
#: the browser's local storage, with the name it joined under.  When the page
#: opens, the script hands the kernel what it kept (a hidden box of class
#: ``rummy-seat-handoff``), and only then does the kernel join: a link opened
#: again returns to its seat instead of taking a second one, and a link opened
#: under another name on a shared computer takes a seat of its own.  A
#: ``#token=...`` fragment (never sent to the server) moves a seat to another
#: device.
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
    }
  }, 300);
})();
</script>
"""


#: The page's side: once seated, the box names the table's address in a
#: ``data-href`` (an address relative to the apps' folder) and the page goes
#: there.
GO_JS = """
<script>
(function () {
  if (window.rummyJoinGo) { return; }
  window.rummyJoinGo = window.setInterval(function () {
    var el = document.querySelector('.rummy-join-go [data-href]');
    if (el) {
      window.clearInterval(window.rummyJoinGo);
      window.location.assign(el.getAttribute('data-href'));
    }
  }, 200);
})();
</script>
"""

SEAT_KEEPER_JS += GO_JS


class SeatFinder:
    """A learner's page before it sits down: it waits for the page's script
    to say which seat this browser kept for the table (:meth:`handoff`), and
    returns to it, or joins under ``name`` when it kept none (or kept one
    under another name).  ``.widget`` becomes the table once seated."""

    def __init__(self, table: str, name: str, *, api: str | None = None) -> None:
        import ipywidgets as w

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
        import html

        try:
            data = json.loads(change["new"] or "{}")
            self.handoff(data if isinstance(data, dict) else {})
        except Exception as exc:  # noqa: BLE001 - a message on the page, never a traceback
            if self.join_box is None:
                self.note.value = html.escape(str(exc))

    def _ask(self, problem: str) -> None:
        """No seat yet: the "join a table" box, with the code from the
        address and what to fix (:class:`tableserver.join.JoinBox`)."""
        from tableserver.join import JoinBox

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
            from tableserver.join import check_name, learner_words

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
        self.seat = SharedTable(game, asked=self.name)
        self.widget.children = (self.seat.widget,)
        for fn in self._seated:
            fn(self.seat)
        return self.seat


def _table_class(family: str) -> Any:
    from widgets.tables import TABLES

    return TABLES[family]


#: What a learner's page says once the teacher closed the table.
CLOSED = "The teacher closed this table: the game has stopped. You can close this page."


class SharedTable:
    """A table widget fed by the service, with a line saying where you sit.

    ``.widget`` is what the page shows; ``.table`` the table widget once the
    game has started (before that, a note says who is still to come)."""

    def __init__(self, game: RemoteGame, asked: str = "") -> None:
        import html

        import ipywidgets as w

        self.game = game
        self.table: Any = None
        self.header = w.HTML()
        self.header.add_class("rummy-seat-token")
        self.note = w.HTML()
        self.note.add_class("rummy-shared-note")
        #: at a shared table the page's other cells (how to deal a new game, the
        #: meld checker of a local table) do not apply: only the title and the table
        self.style = w.HTML("<style>body:has(.rummy-shared) .jp-Cell:not(:first-child)"
                            ":not(:has(.rummy-app)) {display: none;}</style>")
        self.style.layout.display = "none"
        self.widget = w.VBox([self.header, self.note])
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
        if loop is not None:
            self._poller = threading.Thread(target=self._listen, args=(loop,),
                                            name="rummy-long-poll", daemon=True)
            self._poller.start()

    def _build_table(self) -> None:
        g = self.game
        if self.table is None and g.obs is not None:
            cls = _table_class(g.variant.family)
            kw: dict[str, Any] = {"source": g, "learner": g.seat, "name": g.players[g.seat],
                                  "speed": 0}
            if g.variant.family == "three_thirteen":
                self.table = cls(g.variant.name, **kw, **g.options)
            else:
                self.table = cls(**kw)
            self._shared_controls()
            self.widget.children = (self.header, self.note, self.table.widget, self.style)
        self._note()

    def _shared_controls(self) -> None:
        """Only the controls that apply at a shared table: no Deal, New game,
        Undo, bot speed or Next round (the teacher starts each hand); Hint
        and "Do it for me" only when the teacher allows hints (the table's
        ``hints`` option)."""
        t = self.table
        settings = self.game.view.get("table", {}).get("settings") or {}
        hints = bool(settings.get("hints"))
        teacher_paces = bool(settings.get("pause_between_hands", True))
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
        import html

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
        import html

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
            self.table._after_move()
            settings = self.game.view.get("table", {}).get("settings") or {}
            if (self.table._paused and self.game.status == "playing"
                    and settings.get("pause_between_hands", True)):
                # the teacher started the next hand: the review gives way to it
                self.table._resume()
            self.table.refresh()
            self._shared_controls()  # a review shows its Next round: not here
            if self.game.status == "paused":
                self.table.status.remove_class("rummy-your-turn")
                self.table.status.value = "The hand is over: waiting for the teacher."

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
