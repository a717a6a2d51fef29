"""The teacher's page: sign in with the teacher key, make a shared table,
read its code out (and show the join address as text and as a QR code), see
who joined, start each hand, lock the table, free a seat, turn a name away,
close the table, and show the class's progress (:mod:`widgets.class_grid`)
(``notebooks/apps/classroom.ipynb``).

It speaks to the table service through its HTTP API (:mod:`tableserver.client`),
like every page, with the teacher key.  No secret ever goes into the page's address: the page's
script keeps the key and the table's code in the tab's session storage and
hands them back to a new kernel after a reload (a hidden box of class
``rummy-classroom-handoff``).  Opened with ``?table=CODE#watch=TOKEN`` (the
spectator token the teacher's page links to, in the fragment, which no
server sees), it is the projector's view: what every seat sees alike, without
a hand, without the teacher's controls and without the teacher key.  No rule
is here: the service checks every request and its refusals are shown as
messages.
"""

from __future__ import annotations

import asyncio
import functools
import html
import json
import os
import time
from typing import Any
from urllib.parse import parse_qs, quote

import ipywidgets as w
from IPython.display import HTML, display

from rummy.big_table import options_for
from rummy.bots import bot_names
from rummy.variants import VARIANTS, VariantError, find_variant
from tableserver.client import RemoteError, api_base, in_daemon_thread, on_hub, request, table_url
from widgets.class_grid import ClassGrid
from widgets.join_box import APP_OF_FAMILY
from widgets.projector import projector_html

__all__ = ["Classroom", "TEACHER_KEEPER_JS", "CLASSROOM_CSS", "qr_svg"]

#: Keeps the teacher key and the table of this tab in its session storage
#: (never in the address) and hands them to the kernel after a reload; on a
#: projector's page, hands over the ``#watch=`` token of the fragment.
TEACHER_KEEPER_JS = """
<script>
(function () {
  var store = window.sessionStorage, key = 'rummy-teacher';
  var kept = {};
  try { kept = JSON.parse(store.getItem(key) || '{}') || {}; } catch (e) { kept = {}; }
  var fragment = new URLSearchParams(window.location.hash.slice(1));
  var watch = fragment.get('watch');
  var told = false, typed = '';
  document.addEventListener('input', function (e) {
    if (e.target && e.target.closest && e.target.closest('.rummy-teacher-key')) {
      typed = e.target.value;
    }
  }, true);
  // a page being left has given its kernel up: a widget changed then raises "Cannot send"
  window.addEventListener('beforeunload', function () { window.rummyLeaving = true; });
  window.setInterval(function () {
    if (window.rummyLeaving) { return; }
    if (!told) {
      var box = document.querySelector('.rummy-classroom-handoff input');
      if (box) {
        box.value = JSON.stringify(watch ? {watch: watch} : {key: kept.key || '', code: kept.code || ''});
        box.dispatchEvent(new Event('input', {bubbles: true}));
        box.dispatchEvent(new Event('change', {bubbles: true}));
        told = true;
      }
    }
    if (watch) { return; }
    var el = document.querySelector('.rummy-classroom-keep [data-signed]');
    if (el) {
      var now = {key: typed || kept.key || '', code: el.getAttribute('data-code') || ''};
      if (now.key !== kept.key || now.code !== kept.code) {
        kept = now;
        store.setItem(key, JSON.stringify(kept));
      }
    }
  }, 400);
})();
</script>
"""


#: The table's code is read across a room: large type.
CLASSROOM_CSS = """<style>
.rummy-classroom .rummy-table-code { font-size: 3rem; font-weight: 800; letter-spacing: 0.08em;
  line-height: 1.2;
  display: inline-block; }
.rummy-classroom-seats td, .rummy-classroom-seats th { padding: 2px 10px; text-align: left; }
</style>"""


def qr_svg(text: str) -> str:
    """``text`` as a QR code, an inline SVG drawn by segno.

    >>> qr_svg("https://192.168.1.5:8866/").startswith("<svg")
    True
    """
    import segno  # loaded when a table's code is shown, not with the page

    return str(segno.make(text, error="m").svg_inline(scale=4, dark="#000", light="#fff"))


def _button(label: str, css: str, style: str = "") -> w.Button:
    b = w.Button(description=label, button_style=style, layout=w.Layout(width="auto"))
    b.add_class(css)
    return b


#: What the teacher's page sends as the key on a hub: the hub's table service
#: ignores keys and asks the hub whether this user is a teacher.
HUB_SIGN_IN = "hub-login"
#: Seconds between two looks at how many pages the server holds (as the table changes).
KERNELS_EVERY = 30.0


def _now(view: dict[str, Any]) -> str:
    """Where the table is, in words: its status, and the phase while it plays.

    >>> _now({"status": "paused", "phase": "draw"})
    'the hand is over: press Start / next hand'
    >>> _now({"status": "playing", "phase": "draw"})
    'playing (draw)'
    """
    status = str(view.get("status", ""))
    words = {"waiting": "waiting for learners", "paused": "the hand is over: press Start / "
             "next hand", "over": "the game is over", "closed": "closed"}
    if status in words:
        return words[status]
    return f"playing ({view.get('phase', '')})"


def _presence(seat: dict[str, Any]) -> str:
    """Whether a learner who joined is at the table, in the teacher's words.

    >>> _presence({"away": False, "left": False})
    'here'
    >>> _presence({"away": True, "left": True})
    'left (their page closed): a bot plays for them'
    >>> _presence({"away": False, "left": True})
    'left (their page closed)'
    >>> _presence({"away": True, "left": False, "not_playing": True, "helped": 3})
    'not playing: a helper answered their last 3 calls'
    """
    if seat.get("left"):
        return "left (their page closed)" + (": a bot plays for them" if seat.get("away")
                                             else "")
    if seat.get("not_playing"):
        return f"not playing: a helper answered their last {seat.get('helped', 0)} calls"
    return "away: a bot plays for them" if seat.get("away") else "here"


class Classroom:
    """The teacher's controls; ``.widget`` is the page."""

    def __init__(self, *, api: str | None = None, query: str | None = None) -> None:
        self.api = (api or api_base()).rstrip("/")
        self.code: str | None = None
        self.key: str | None = None  # the teacher key, once it was accepted
        self.spectator: str | None = None
        self.watching: str | None = None  # the spectator token of a projector page
        self.view: dict[str, Any] = {}
        self._task: asyncio.Task[Any] | None = None

        names = [v.name for v in VARIANTS.values()]
        self.variant = w.Dropdown(options=[(find_variant(n).title, n) for n in names],
                                  value="big_table", description="Game",
                                  style={"description_width": "initial"})
        self.variant.add_class("rummy-classroom-variant")
        # up to 24 at one Big Table (the options that allow it are added: options_for)
        self.learners = w.BoundedIntText(value=3, min=1, max=24, description="Learners",
                                         style={"description_width": "initial"})
        self.learners.add_class("rummy-classroom-learners")
        self.bots = w.BoundedIntText(value=2, min=0, max=11, description="Bots",
                                     style={"description_width": "initial"})
        self.bots.add_class("rummy-classroom-bots")
        self.strength = w.Dropdown(options=list(bot_names()), value="greedy",
                                   description="Bot strength",
                                   style={"description_width": "initial"})
        self.speed = w.FloatSlider(value=1.0, min=0.0, max=5.0, step=0.5,
                                   description="Caller speed (s per bot move)",
                                   style={"description_width": "initial"},
                                   layout=w.Layout(width="32em", min_width="20em"))
        self.speed.add_class("rummy-classroom-speed")
        self.timeout = w.BoundedIntText(value=120, min=5, max=3600,
                                        description="A bot plays for an absent learner after (s)",
                                        style={"description_width": "initial"},
                                        layout=w.Layout(width="30em", min_width="24em"))
        self.pace = w.BoundedIntText(value=25, min=0, max=600,
                                     description="Big Table: each call waits for a learner (s; 0: "
                                                 "no limit)",
                                     style={"description_width": "initial"},
                                     layout=w.Layout(width="34em", min_width="24em"))
        self.pace.add_class("rummy-classroom-pace")
        self.pause = w.Checkbox(value=True, description="Wait for me after each hand",
                                indent=False, layout=w.Layout(width="auto"))
        self.hints = w.Checkbox(value=False, indent=False, layout=w.Layout(width="auto"),
                                description="Allow hints (Hint and \u201cDo it for me\u201d "
                                            "on the learners' pages)")
        self.hints.add_class("rummy-classroom-hints")
        self.create = _button("Make the table", "rummy-create-table", "primary")
        self.create.on_click(lambda _b: self._guard(self.make_table))
        self.key_box = w.Password(description="Teacher key",
                                  style={"description_width": "initial"})
        self.key_box.add_class("rummy-teacher-key")
        self.sign = _button("Sign in", "rummy-sign-in", "primary")
        self.sign.on_click(lambda _b: self._guard(lambda: self.sign_in(self.key_box.value)))
        self.signin = w.VBox([
            w.HTML("<h2>Sign in</h2><p>Type the teacher key that the server printed when it "
                   "started (or the one in <code>RUMMY_TEACHER_KEY</code>).</p>"),
            w.HBox([self.key_box, self.sign], layout=w.Layout(flex_flow="row wrap"))],
            layout=w.Layout(display="none"))
        self.handoff_box = w.Text(layout=w.Layout(display="none"), description="Kept")
        self.handoff_box.add_class("rummy-classroom-handoff")
        self.handoff_box.observe(self._heard, names="value")
        self.form = w.VBox([
            w.HTML("<h2>A table for the class</h2>"),
            w.HBox([self.variant, self.strength], layout=w.Layout(flex_flow="row wrap")),
            w.HBox([self.learners, self.bots], layout=w.Layout(flex_flow="row wrap")),
            self.speed, self.timeout, self.pace, self.pause, self.hints, self.create,
        ], layout=w.Layout(display="none"))

        self.keep = w.HTML()
        self.keep.add_class("rummy-classroom-keep")
        self.info = w.HTML()
        self.info.add_class("rummy-classroom-info")
        self.seats = w.HTML()
        self.seats.add_class("rummy-classroom-seats")
        self.next = _button("Start / next hand", "rummy-next-hand", "success")
        self.next.on_click(lambda _b: self._guard(self.next_hand))
        self.seat_choice = w.Dropdown(options=[], description="Seat",
                                      layout=w.Layout(width="auto"))
        self.remove = _button("Free this seat", "rummy-remove-seat", "warning")
        self.remove.on_click(lambda _b: self._guard(self.remove_seat))
        self.close = _button("Close the table", "rummy-close-table", "danger")
        self.close.on_click(lambda _b: self._guard(self.close_table))
        self.lock_box = w.Checkbox(value=False, description="Locked: nobody else may join",
                                   indent=False)
        self.lock_box.add_class("rummy-lock-table")
        self.lock_box.observe(lambda _c: self._guard(self.lock_table), names="value")
        self.away_name = w.Text(description="Turn away the name",
                                style={"description_width": "initial"})
        self.away_name.add_class("rummy-turn-away-name")
        self.away = _button("Turn away", "rummy-turn-away", "warning")
        self.away.on_click(lambda _b: self._guard(self.turn_away))
        self.controls = w.VBox([
            w.HBox([self.next, self.seat_choice, self.remove, self.close],
                   layout=w.Layout(flex_flow="row wrap")),
            w.HBox([self.lock_box, self.away_name, self.away],
                   layout=w.Layout(flex_flow="row wrap"))])
        self.public = w.HTML()
        self.public.add_class("rummy-classroom-public")
        self.class_grid = ClassGrid(self)  # the record of learning
        self.board = w.VBox([self.keep, self.info, self.seats, self.controls, self.public],
                            layout=w.Layout(display="none"))
        self.message = w.HTML()
        self.message.add_class("rummy-message")
        #: how many pages' kernels the server holds, and its limit (make app / make classroom)
        self.kernels = w.HTML(layout=w.Layout(display="none"))
        self.kernels.add_class("rummy-classroom-kernels")
        self._kernels_at = -KERNELS_EVERY
        self._quiet = False  # a redraw sets the lock box without asking the service
        self.style = w.HTML(CLASSROOM_CSS, layout=w.Layout(display="none"))
        self.widget = w.VBox([self.handoff_box, self.signin, self.form, self.message,
                              self.kernels, self.board, self.class_grid.widget, self.style])
        self.widget.add_class("rummy-classroom")
        self.widget.add_class("rummy-root")

        q = {k: v[-1] for k, v in parse_qs(
            (os.environ.get("QUERY_STRING", "") if query is None else query).lstrip("?")).items()}
        self.asked_table = q.get("table")  # a projector's page names its table
        if query is not None:  # no page script to wait for (a test, a notebook)
            self.signin.layout.display = ""

    # -- what the page kept -----------------------------------------------------
    def _heard(self, change: dict[str, Any]) -> None:
        try:
            data = json.loads(change["new"] or "{}")
        except ValueError:
            data = {}
        self._guard(lambda: self.handoff(data if isinstance(data, dict) else {}))

    def handoff(self, kept: dict[str, Any]) -> None:
        """What the page's script kept: ``{"watch": TOKEN}`` on a projector's
        page (with ``?table=CODE``), else ``{"key": ..., "code": ...}`` of the
        teacher's session (empty: the sign-in form)."""
        watch, key, code = (str(kept.get(k) or "") for k in ("watch", "key", "code"))
        if watch and self.asked_table:
            self.code, self.watching = self.asked_table, watch
            self._watch()
            return
        if not key and on_hub(self.api):
            # on a hub the service knows the teacher by the hub login: never a key box
            self.signin.layout.display = "none"
            try:
                self.sign_in(HUB_SIGN_IN, code or None)
            except RemoteError as exc:
                if exc.status != 403:
                    raise
                self.message.value = (
                    "This page is the teacher's. To play, open the join address your teacher "
                    "gives you, or the <b>Join a table</b> box on the kit's first page.")
            return
        self.signin.layout.display = ""
        if key:
            self.sign_in(key, code or None)

    def sign_in(self, key: str, code: str | None = None) -> None:
        """Check the teacher key with the service; then the form (or, with
        ``code``, that table again)."""
        key = (key or "").strip()
        if not key:
            raise RemoteError("type the teacher key first")
        request(self.api + "/tables", teacher=key)  # 403 unless it is the key
        self.key = key
        self.key_box.value = ""
        self.signin.layout.display = "none"
        self.keep.value = "<span data-signed='1' data-code=''></span>"
        self.form.layout.display = ""
        self.class_grid.signed_in(None)
        self.show_kernels()
        if code:
            self.code = code
            self._reload()

    def show_kernels(self) -> None:
        """How many pages the server holds a kernel for, and its limit (the
        server's answer to ``GET kernels``; nothing where it has no pages of
        its own, as the hub's service)."""
        self._kernels_at = time.monotonic()
        try:
            got = request(self.api + "/kernels", teacher=self.key)
        except RemoteError:
            got = {}
        if not isinstance(got, dict) or got.get("in_use") is None:
            self.kernels.layout.display = "none"
            return
        used, limit = int(got["in_use"]), int(got["limit"])
        full = " The server is full: new pages are asked to wait." if used >= limit else ""
        self.kernels.value = (
            f"<p>Pages open on this server: <b>{used}</b> of at most <b>{limit}</b> "
            f"({int(got['per_browser'])} per browser).{full}</p>")
        self.kernels.layout.display = ""

    # -- requests --------------------------------------------------------------
    def _guard(self, fn: Any) -> None:
        try:
            self.message.value = ""
            fn()
        except RemoteError as exc:
            self.message.value = html.escape(str(exc))
        except Exception as exc:  # noqa: BLE001 - a message, never a traceback
            self.message.value = html.escape(f"{type(exc).__name__}: {exc}")

    def _url(self, what: str = "") -> str:
        assert self.code is not None
        return table_url(self.api, self.code, what)

    def make_table(self) -> None:
        """Ask the service for a table with the form's settings."""
        seats = ["human"] * self.learners.value + [self.strength.value] * self.bots.value
        body = {
            "teacher_key": self.key, "variant": self.variant.value, "seats": seats, "speed": float(self.speed.value),
            "timeout": int(self.timeout.value), "pause_between_hands": bool(self.pause.value),
            "hints": bool(self.hints.value)}
        if self.variant.value == "big_table":  # the caller's pace (tableserver.checks.pace_of)
            body["pace"] = int(self.pace.value)
            try:  # more than 12: the limit raised, and packs enough for their cards
                body["options"] = options_for(len(seats))
            except VariantError as exc:  # more than 24
                self.message.value = html.escape(str(exc))
                return
        made = request(self.api + "/tables", body)
        self.code = made["code"]
        self.spectator = made["spectator_token"]
        self._show({"code": made["code"], "status": made["table"]["status"],
                    "version": made["table"]["version"], "table": made["table"]})
        self._listen()

    def _reload(self) -> None:
        view = request(self._url(), teacher=self.key)
        self._show(view)
        if view["status"] != "closed":
            self._show_public(request(self._url("state"), token=self.key))
            self._listen()

    def _watch(self) -> None:
        """The projector's view: the table's code and what every seat sees alike
        (the page's instructions for the teacher are hidden: rummy-projector-mode)."""
        self.widget.add_class("rummy-projector-mode")
        self.form.layout.display = "none"
        self.board.layout.display = ""
        self.controls.layout.display = "none"
        public = request(self._url("state"), token=self.watching)
        self.info.value = ""
        self.seats.layout.display = "none"
        self._show_public(public)
        self.view = {"status": "playing", "table": {"version": int(public.get("version", 0))}}
        self._listen()

    def projector_path(self) -> str | None:
        """The projector's link (the spectator token is shown once, when the table is made)."""
        if not self.spectator:
            return None
        return f"classroom.ipynb?table={quote(self.code or '')}#watch={quote(self.spectator)}"

    def next_hand(self) -> None:
        """Start the table's next hand (the teacher's "Next hand")."""
        self._show(request(self._url("next"), {"teacher_key": self.key}))
        self._show_public(request(self._url("state"), token=self.key))

    def remove_seat(self) -> None:
        """Free the chosen learner's seat: a stand-in bot plays it from now on."""
        if self.seat_choice.value is None:
            raise RemoteError("choose a learner's seat first")
        self._show(request(self._url("remove"), {"teacher_key": self.key,
                                                  "seat": int(self.seat_choice.value)}))

    def lock_table(self) -> None:
        """Lock (or open again) the table as the lock box says."""
        if self._quiet or self.code is None:
            return
        self._show(request(self._url("lock"), {"teacher_key": self.key,
                                                "locked": bool(self.lock_box.value)}))

    def turn_away(self) -> None:
        """Turn the typed name away: its seat is freed and it can't join again."""
        name = self.away_name.value.strip()
        if not name:
            raise RemoteError("type the name to turn away first")
        self._show(request(self._url("turn_away"), {"teacher_key": self.key, "name": name}))
        self.away_name.value = ""

    def close_table(self) -> None:
        """Close the table: the game stops on every learner's page."""
        got = request(self._url("close"), {"teacher_key": self.key})
        self.view["status"] = got["status"]
        self.info.value += "<p><b>The table is closed.</b></p>"
        self.controls.layout.display = "none"

    # -- drawing ---------------------------------------------------------------
    def join_path(self) -> str:
        """The learners' link, relative to this page (both are apps)."""
        family = find_variant(self.view["table"]["variant"]).family
        return f"{APP_OF_FAMILY[family]}?table={quote(self.code or '')}&name="

    def _show(self, view: dict[str, Any]) -> None:
        if self.key and time.monotonic() - self._kernels_at >= KERNELS_EVERY:
            self.show_kernels()
        self.view = view
        table = view["table"]
        code = html.escape(table["code"])
        rel = self.join_path()
        full = self.join_address()
        self.keep.value = f"<span data-signed='1' data-code='{code}'></span>"
        status = {"waiting": "waiting for learners", "playing": "playing",
                  "paused": "the hand is over: press Start / next hand",
                  "over": "the game is over", "closed": "closed"}.get(table["status"],
                                                                       table["status"])
        self.info.value = (
            f"<h2>Table code: <span class='rummy-table-code'>{code}</span></h2>"
            f"<p>{html.escape(table['title'])}; {html.escape(status)}"
            + (f", hand {table['hand']}" if table.get("hand") else "") + "</p>"
            f"<p>Learners join at <a class='rummy-join-link' href='{html.escape(rel)}' "
            f"target='_blank'>{html.escape(full)}</a><i>their name</i></p>"
            f"<p class='rummy-join-address'>Join address: <code>{html.escape(full)}</code>"
            "<i>their name</i></p>"
            "<div class='rummy-join-qr' role='img' aria-label='A QR code of the join address "
            f"(learners add their name after name=)'>{qr_svg(full)}</div>"
            + (f"<p>For the projector (what every player sees, no hand): <a "
               f"class='rummy-projector-link' href='{html.escape(self.projector_path() or '')}' "
               "target='_blank'>open the table's public view</a></p>"
               if self.projector_path() else ""))
        rows = []
        for s in table["seats"]:
            if s["kind"] == "bot":
                who, state = f"{s['name']}", f"bot ({s['bot']})"
            else:
                who = s["name"] if s["joined"] else "(free)"
                state = _presence(s) if s["joined"] else "not joined"
            rows.append(f"<tr class='rummy-classroom-seat'><td>{s['seat'] + 1}</td>"
                        f"<td>{html.escape(who)}</td><td>{html.escape(state)}</td></tr>")
        self.seats.value = ("<table><tr><th>Seat</th><th>Who</th><th>Here?</th></tr>"
                            + "".join(rows) + "</table>")
        options = [(f"{s['seat'] + 1}: {s['name']}", s["seat"]) for s in table["seats"]
                   if s["kind"] == "human" and s["joined"]]
        if list(self.seat_choice.options) != options:
            self.seat_choice.options = options
        self.form.layout.display = "none"
        self.board.layout.display = ""
        self.controls.layout.display = "none" if table["status"] == "closed" else ""
        if self.key:
            self.class_grid.signed_in(table["code"])
        self._quiet = True
        try:
            self.lock_box.value = bool(table.get("locked"))
        finally:
            self._quiet = False

    def join_address(self) -> str:
        """The learners' full address (``RUMMY_PUBLIC_URL``, which the server
        sets to where the room reaches it), or the relative link."""
        base = os.environ.get("RUMMY_PUBLIC_URL")
        rel = self.join_path()
        return f"{base.rstrip('/')}/voila/render/notebooks/apps/{rel}" if base else rel

    def _show_public(self, view: dict[str, Any]) -> None:
        """What every seat sees alike (the admin token's view of the table):
        the projector's picture of the game, never a hand."""
        if self.watching:  # the projector: the table drawn, its code large
            self.public.value = projector_html(view)
            return
        players, scores = view.get("players") or [], view.get("scores") or []
        if not players:
            self.public.value = ""
            return
        rows = "".join(f"<tr><td>{html.escape(str(p))}</td><td>{html.escape(str(s))}</td></tr>"
                       for p, s in zip(players, scores))
        log = "<br>".join(html.escape(str(line)) for line in (view.get("log") or [])[-8:][::-1])
        self.public.value = (
            f"<h3>On the table</h3><p>Now: {html.escape(_now(view))}</p>"
            f"<table><tr><th>Player</th><th>Points</th></tr>{rows}</table>"
            f"<p><small>(newest first)</small><br>{log}</p>")

    def _listen(self) -> None:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        if self._task is None or self._task.done():
            self._task = loop.create_task(self._poll())

    async def _poll(self) -> None:
        """Follow the table: the teacher's page with the admin token (the public
        view and the seats), the projector's page with the spectator token."""
        token = self.watching or self.key
        version = int(self.view.get("table", {}).get("version", 0))
        while self.view.get("status") != "closed":
            try:
                url = self._url(f"wait?version={version}&timeout=25")
                public = await in_daemon_thread(  # a closed page's kernel quits at once
                    functools.partial(request, url, token=token, timeout=45))
                view = (None if self.watching else await asyncio.to_thread(
                    functools.partial(request, self._url(), teacher=self.key, timeout=30)))
            except RemoteError as exc:
                self.message.value = html.escape(str(exc))
                if exc.status in (403, 404, 410):
                    return
                await asyncio.sleep(2)
                continue
            except Exception as exc:  # noqa: BLE001 - a message, never a traceback
                self.message.value = html.escape(f"Lost touch with the table ({exc})")
                await asyncio.sleep(2)
                continue
            self._show_public(public)
            if view is None:
                version = int(public.get("version", version))
            else:
                self._show(view)
                version = int(self.view.get("table", {}).get("version", 0))

    def _ipython_display_(self) -> None:
        display(HTML(TEACHER_KEEPER_JS))
        display(self.widget)
