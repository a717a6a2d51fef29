"""What the app notebooks (``notebooks/apps/*.ipynb``) share: settings from the
page address, the app's view built from them (:class:`App`), and the variant
chooser of the Three Thirteen app.

An app reads its settings from the address Voilà served it at (Voilà hands the
query string to the kernel as ``QUERY_STRING``), then from ``RUMMY_<NAME>``
environment variables, then from its defaults.  ``?seed=7`` replays the same
deal, which is how the browser tests reach a knock or the end of a round:

>>> settings({"seed": None, "players": 2}, query="seed=7&players=3")
{'seed': 7, 'players': 3}
>>> settings({"variant": "three_thirteen"}, query="variant=tre_tretton&colour=red")
{'variant': 'tre_tretton'}

A bad value is not a crash: it is reported and the default kept.

>>> notes = []
>>> settings({"seed": None}, query="seed=abc", notes=notes)
{'seed': None}
>>> notes
["seed='abc' is not a whole number; using the default (a new random deal)"]

A value out of range is reported the same way, and a long value is cut in the
message:

>>> notes = []
>>> settings({"speed": 0.6, "seed": None}, query="speed=-5&seed=" + "9" * 500, notes=notes)
{'speed': 0.6, 'seed': None}
>>> for n in notes: print(n)
speed=-5 is out of range: it must be 0 to 3; using the default (0.6)
seed='99999999999999999999999999999999999999…' is out of range: it must be 0 to 4294967295; using the default (a new random deal)

``make app`` keeps kernels ready for each app (``preheat_kernel`` in voila.json):
Voilà starts them and runs the notebook before anyone asks for the page.  Such a
kernel has done its imports (and, with :func:`warm_up`, built a throw-away view)
and shows an empty :class:`App` box; when a page asks for it, the page gets the
notebook at once and, while the browser loads Voilà's scripts, the kernel learns
the page's address and builds the view for it.  Every page gets a kernel of its
own, and Voilà starts another one to take its place.

An app page opened with ``?table=CODE`` is a seat at a classroom's shared table
(:mod:`widgets.remote_table`).  That module needs the table service's client,
which the static site's wheel does not hold (no server there): this module
imports it only where a page needs it, so that the static site's apps load.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import json
import os
import re
from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qs

import comm
import ipywidgets as w
from IPython import get_ipython
from IPython.display import HTML, display
from ipywidgets.widgets.widget import _instances

from rummy import find_variant
from widgets.quiet import opened_at_end, unheard

__all__ = ["settings", "App", "warm_up", "notice", "build", "on_demand", "VariantChooser",
           "panel_html", "add_panels"]

#: How each setting is read from text.
_PARSERS: dict[str, Callable[[str], Any]] = {
    "seed": int,
    "players": int,
    "jokers": int,
    "speed": float,
    "round": int,
}


#: The values each setting may take (the bot-speed slider's range; a seed for the
#: engine's shuffle).
_RANGES: dict[str, tuple[float, float]] = {
    "seed": (0, 2**32 - 1),
    "speed": (0.0, 3.0),
    "players": (1, 99),
    "learner": (0, 11),
    "round": (1, 13),
}
#: The longest value a message repeats before cutting it.
_SHOWN = 40


def shown(raw: str) -> str:
    """A value from the address as a message repeats it: quoted, a long one cut.

    >>> shown("abc"), shown("x" * 100)[-3:]
    ("'abc'", "x…'")
    """
    text = str(raw)
    return repr(text if len(text) <= _SHOWN else text[:_SHOWN - 2] + "…")


def _said(value: Any) -> str:
    return shown(value) if isinstance(value, str) else repr(value)


def _describe(key: str, default: Any) -> str:
    return "a new random deal" if key == "seed" and default is None else repr(default)


def settings(defaults: dict[str, Any], *, query: str | None = None,
             env: dict[str, str] | None = None, notes: list[str] | None = None
             ) -> dict[str, Any]:
    """``defaults`` updated from the page's query string and ``RUMMY_<KEY>``
    environment variables (the query wins); unknown keys are ignored.

    >>> settings({"seed": None}, query="", env={"RUMMY_SEED": "11"})
    {'seed': 11}
    """
    query = os.environ.get("QUERY_STRING", "") if query is None else query
    env = dict(os.environ) if env is None else env
    given = {k: v[-1] for k, v in parse_qs(query.lstrip("?")).items()}
    out = dict(defaults)
    for key, default in defaults.items():
        raw = given.get(key, env.get(f"RUMMY_{key.upper()}"))
        if raw is None or raw == "":
            continue
        parse = _PARSERS.get(key, str)
        try:
            value = parse(raw)
        except (ValueError, OverflowError):
            kind = {"seed": "whole number", "players": "whole number", "jokers": "whole number",
                    "speed": "number"}.get(key, "value")
            if notes is not None:
                notes.append(f"{key}={shown(raw)} is not a {kind}; using the default "
                             f"({_describe(key, default)})")
            continue
        low, high = _RANGES.get(key, (None, None))
        if low is not None and high is not None and not (
                low <= value <= high and value == value):  # value == value: not NaN
            if notes is not None:
                said = shown(raw) if len(str(raw)) > _SHOWN else str(raw)
                notes.append(f"{key}={said} is out of range: it must be {low:n} to {high:n}; "
                             f"using the default ({_describe(key, default)})")
            continue
        out[key] = value
    return out


def _preheated() -> bool:
    """Is this a kernel that Voilà started before any page asked for it?"""
    return os.environ.get("VOILA_PREHEAT") == "True" and bool(os.environ.get("VOILA_KERNEL_ID"))


_request: asyncio.Future[None] | None = None


def _page_request() -> asyncio.Future[None]:
    """A preheated kernel's one wait for its page (shared by every :class:`App`
    of the notebook): done once the page's request (``QUERY_STRING`` ...) is in
    ``os.environ``."""
    global _request
    if _request is None:
        _request = asyncio.ensure_future(_receive_request())
    return _request


async def _receive_request() -> None:
    """What ``voila.utils.wait_for_request`` does, without blocking the kernel
    and without importing Voilà's server side (seconds of CPU per kernel):
    Voilà sends the request of the page that took this kernel over a websocket."""
    # websockets: only Voilà's preheated kernels use it (a dependency of Voilà's server)
    try:
        from websockets.asyncio.client import connect
    except ImportError:  # websockets < 13
        from websockets import connect  # type: ignore[no-redef]

    env = os.environ
    base = env.get("VOILA_WS_BASE_URL", env.get("VOILA_SERVER_URL", "/"))
    url = (f"{env.get('VOILA_WS_PROTOCOL', 'ws')}://{env.get('VOILA_APP_IP', '127.0.0.1')}:"
           f"{env.get('VOILA_APP_PORT', '8866')}{base}voila/query/{env['VOILA_KERNEL_ID']}")
    extra: dict[str, Any] = {}
    if url.startswith("wss:") and env.get("RUMMY_API_CA"):  # `make classroom` over HTTPS
        import ssl  # here: the static site's Python (Pyodide) has no ssl module

        ctx = ssl.create_default_context(cafile=env["RUMMY_API_CA"])
        ctx.verify_flags |= ssl.VERIFY_X509_PARTIAL_CHAIN
        extra["ssl"] = ctx
    async with connect(url, open_timeout=10, ping_interval=None, max_size=None,
                       **extra) as ws:
        request = json.loads(await ws.recv())
    env.update({str(k): str(v) for k, v in request.items()})
    env["VOILA_PREHEAT"] = "False"  # the page is here


def warm_up(make: Callable[[], Any]) -> None:
    """In a preheated kernel, build a view with ``make()`` and throw it away:
    what the first view costs (imports such as pandas, the engine's tables) is
    then paid before a learner asks for the page, and the page's own view is
    built in a fraction of the time.  Anywhere else it does nothing.

    The throw-away widgets get ``comm.DummyComm`` s (``comm.create_comm`` is
    meant to be replaced): they send nothing, so neither the server nor the
    page ever hears of them.

    >>> warm_up(lambda: 1 / 0)  # not a preheated kernel: nothing runs
    """
    if not _preheated():
        return
    # ipywidgets' registry of live widgets: its one public accessor (Widget.widgets)
    # is deprecated in ipywidgets 8, and the throw-away widgets must be closed
    before = set(_instances)
    real = comm.create_comm
    comm.create_comm = comm.DummyComm
    try:
        with contextlib.suppress(Exception):  # the page's own build shows any error
            make()
        for key in set(_instances) - before:  # close them: unregistered from the kernel
            widget = _instances.get(key)
            if widget is not None:
                widget.close()
    finally:
        comm.create_comm = real


class App:
    """An app's view, ``make(settings)`` (an object with a ``.widget``), built
    from ``defaults`` updated from the page's address, under any notes about
    the settings (``show_notes``); an error ``make`` raises is shown as a
    message.  ``.view`` is the view once built, ``.widget`` the box shown.

    Anywhere but in a preheated kernel the view is built at once:

    >>> class View:
    ...     def __init__(self, players):
    ...         import ipywidgets as w
    ...         self.widget = w.HTML(f"{players} players")
    >>> app = App({"players": 2}, lambda s: View(s["players"]))
    >>> app.view.widget.value, app.widget.children[1] is app.view.widget
    ('2 players', True)
    >>> App({"players": 2}, lambda s: View(s["players"] // 0)).widget.children[0].value
    'The app could not be built: integer division or modulo by zero.'

    A setting from the address that the view refuses is reported in words and
    its default used, so there is always a working view:

    >>> def make(s):
    ...     if not 2 <= s["players"] <= 12:
    ...         raise ValueError(f"big_table is for 2 to 12 players, not {s['players']}")
    ...     return View(s["players"])
    >>> app = App({"players": 6, "seed": None}, make, query="players=99&seed=3")
    >>> app.view.widget.value
    '6 players'
    >>> print(app.widget.children[0].value)
    players=99 can't be used: big_table is for 2 to 12 players, not 99. Using the default (6).

    In a preheated kernel the box starts empty and the view is built as soon as
    a page has asked for the kernel (see the module's docstring).
    """

    def __init__(self, defaults: dict[str, Any], make: Callable[[dict[str, Any]], Any], *,
                 show_notes: bool = True, query: str | None = None) -> None:
        self.query = query
        self.defaults = defaults
        self.make = make
        self.show_notes = show_notes
        self.view: Any = None
        if _preheated():  # built unheard when its page comes (_page_arrived)
            self.widget = w.VBox()
            self.widget.add_class("rummy-app")
            _keep_seat()
            _page_request().add_done_callback(self._page_arrived)
            return
        with opened_at_end():  # one comm_open a widget, with the state it ends with
            self.widget = w.VBox()
            self.widget.add_class("rummy-app")
            _keep_seat()
            self._build([])

    def _page_arrived(self, request: asyncio.Future[None]) -> None:
        notes = []
        if request.cancelled() or request.exception() is not None:
            why = "cancelled" if request.cancelled() else request.exception()
            notes.append(f"The page's address could not be read ({why}); using the defaults")
        with unheard():  # the page is not connected yet: it will ask for every state
            self._build(notes)

    def _build(self, notes: list[str]) -> None:
        s = settings(self.defaults, query=self.query, notes=notes)
        shared = settings({"table": "", "name": ""}, query=self.query)
        if shared["table"]:  # a seat at a classroom table, fed by the table service
            try:
                made = _shared(shared)
            except Exception as exc:  # noqa: BLE001 - shown to the learner, never a traceback
                notes.append(_table_words(shared["table"], exc))
                made = None
        else:
            made = self._make(s, notes)
        if not self.show_notes:
            notes = []
        if made is None:
            self.widget.children = (notice(notes),)
            return
        self.view = made
        self.widget.children = (notice(notes), self.view.widget)

    def _make(self, s: dict[str, Any], notes: list[str]) -> Any:
        """``make(s)``; if the view refuses a setting, the same with that
        setting's default (then with every default), each refusal a note."""
        try:
            return self.make(s)
        except Exception as exc:  # noqa: BLE001 - reported in words below
            first = exc
        changed = [k for k in s if k in self.defaults and s[k] != self.defaults[k]]
        said = str(first).lower()  # a setting the error names is the likeliest culprit
        changed.sort(key=lambda k: k.rstrip("s") not in said)
        for key in changed:  # which single setting is refused?
            with contextlib.suppress(Exception):
                view = self.make({**s, key: self.defaults[key]})
                notes.append(f"{key}={_said(s[key])} can't be used: {_words(first)}. Using the "
                             f"default ({_describe(key, self.defaults[key])}).")
                return view
        try:
            view = self.make(dict(self.defaults))
        except Exception as exc:  # noqa: BLE001 - shown to the learner, never a traceback
            notes.append(f"The app could not be built: {_words(exc)}.")
            return None
        given = ", ".join(f"{k}={_said(s[k])}" for k in changed)
        notes.append(f"These settings can't be used ({given}): {_words(first)}. "
                     "Using the defaults.")
        return view

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)


def _words(exc: BaseException) -> str:
    """An error's own words (the kit's errors say what was wrong and what is
    allowed), without the exception's class name."""
    text = str(exc).strip().rstrip(".") or type(exc).__name__
    # a long value the error repeats (from the address) is cut, as in the notes
    return re.sub(r"\S{" + str(_SHOWN + 1) + ",}", lambda m: m.group(0)[:_SHOWN - 2] + "…", text)


def _table_words(code: str, exc: BaseException) -> str:
    """Why a learner could not sit at table ``code``, in their words: a code
    that names no table says so (not the service's developer message).

    >>> class Refused(Exception):
    ...     status = 404
    >>> _table_words("<script>" * 20, Refused("no such endpoint: see docs/API.md"))[:60]
    "There is no table with that code ('<script><script><script><"
    """
    status = getattr(exc, "status", 0)
    text = str(exc)
    if status == 404 or "not a table code" in text or "no such" in text.lower():
        return (f"There is no table with that code ({shown(code)}): check the code your "
                "teacher gave you, letter by letter.")
    return _words(exc)


def _shared(where: dict[str, str]) -> Any:
    """The seat at a shared table (``?table=CODE&name=...``), fed by the
    table service: the page's script first says which seat this browser
    kept, so that a link opened again returns to it (:mod:`widgets.remote_table`);
    a token is never read from the address."""
    from widgets.remote_table import find_seat  # needs the client: see the module's docstring

    # the name a seat is taken under is not who is learning: the browser's learner
    # key says that (docs/PROGRESS.md), else the name box asks at the first judged move
    return find_seat(where["table"], where["name"])


def _keep_seat() -> None:
    """The page's script that keeps a shared table's seat token (in local
    storage, never in the address); it does nothing on a page without ``?table=``,
    and is not there on the static site (no table service: see the module's docstring)."""
    with contextlib.suppress(ImportError):
        from widgets.remote_table import SEAT_KEEPER_JS  # needs the client (the docstring)

        if getattr(get_ipython(), "kernel", None) is not None:  # a page will show it
            display(HTML(SEAT_KEEPER_JS))


def notice(notes: list[str]) -> Any:
    """An HTML widget listing ``notes`` (empty and hidden when there are none)."""
    box = w.HTML("<br>".join(html.escape(n, quote=False) for n in notes))
    box.add_class("rummy-message")
    if not notes:
        box.layout.display = "none"
    return box


def build(make: Callable[[], Any], notes: list[str] | None = None) -> Any:
    """The widget of ``make()`` under any notes, or the error as a message
    (a bad setting in the address must not show a traceback).

    >>> def broken():
    ...     raise ValueError("players must be 2 to 12")
    >>> build(broken).children[0].value
    'This could not be built: players must be 2 to 12.'
    """
    notes = list(notes or [])
    try:
        view = make()
    except Exception as exc:  # noqa: BLE001 - shown to the learner, never a traceback
        notes.append(f"This could not be built: {_words(exc)}.")
        return w.VBox([notice(notes)])
    box = w.VBox([notice(notes), view.widget])
    box.add_class("rummy-app")
    return box


def on_demand(label: str, make: Callable[[], Any], css: str) -> Any:
    """A button that builds ``make()``'s view in its place when pressed: the page
    loads faster, and a tool the learner doesn't open costs nothing.

    >>> box = on_demand("Open", lambda: None, "rummy-open-x")
    >>> box.children[0].description, "rummy-open-x" in box.children[0]._dom_classes
    ('Open', True)
    """
    opener = w.Button(description=label, icon="search", layout=w.Layout(width="auto"))
    opener.add_class(css)
    box = w.VBox([opener])

    def open_it(_b: Any) -> None:
        box.children = (build(make),)

    opener.on_click(open_it)
    return box


def panel_html(html_text: str, css: str = "rummy-how-to") -> Any:
    """A panel of text for a table's drawer (how to play ...).

    >>> panel_html("<p>Draw, then discard.</p>").value
    '<p>Draw, then discard.</p>'
    """
    box = w.HTML(html_text)
    box.add_class(css)
    return box


def add_panels(view: Any, panels: list[tuple[str, Any]]) -> Any:
    """Put ``panels`` ((title, widget) pairs: how to play, a meld checker ...)
    in the drawer under the table ``view`` (its ``add_panel``), not stacked
    under the page; returns ``view``.  A view without a drawer is returned as
    it is.

    >>> class Plain:
    ...     widget = None
    >>> add_panels(Plain(), [("How to play", None)]).__class__.__name__
    'Plain'
    """
    add = getattr(view, "add_panel", None)
    if add is not None:
        for title, widget in panels:
            add(title, widget)
    return view


#: The jokers a game of ``three_thirteen_jokers`` starts with unless the address
#: says otherwise: its usual two (the engine's own default is none).
USUAL_JOKERS = 2

#: The Three-Thirteen family, as the chooser offers it.
FAMILY = (
    ("Three Thirteen", "three_thirteen"),
    ("Tre-tretton (Swedish)", "tre_tretton"),
    ("Three Thirteen with jokers, against three AI players", "three_thirteen_jokers"),
)


def _player_range(variant: str) -> tuple[int, int]:
    """(fewest, most) players of ``variant``, from its data.

    >>> _player_range("three_thirteen"), _player_range("three_thirteen_jokers")
    ((2, 12), (4, 4))
    """
    v = find_variant(variant)
    return v.min_players, v.max_players


def _joker_choices(variant: str) -> tuple[int, ...]:
    """The joker counts ``variant`` offers (empty when it has no such option).

    >>> _joker_choices("three_thirteen_jokers"), _joker_choices("tre_tretton")
    ((0, 2, 4), ())
    """
    v = find_variant(variant)
    return tuple(v.option("jokers").choices) if any(o.name == "jokers" for o in v.options) else ()


class VariantChooser:
    """A variant choice (with its player count and jokers) above a table that
    is rebuilt when the learner presses "Deal".

    ``make_table(variant, players, jokers)`` builds the table view; the chooser's
    form (and any ``panels``, (title, widget) pairs) goes in the table's drawer
    (``add_panel``), or under the table if it has none.  ``jokers=None`` means
    the jokers variant's usual two (:data:`USUAL_JOKERS`).  The first
    table's error (a bad setting from the address) is raised, so that
    :class:`App` can report it and use the default; a later one (after
    "Deal") is shown as a message.  Settings the chooser can't offer are
    reported and replaced by the defaults (``players=2``, ``jokers=0``).

    >>> notes = []
    >>> c = VariantChooser(lambda v, p, j: None, variant="nope", players=99, jokers=7,
    ...                    notes=notes, start=False)
    >>> (c.variant.value, c.players.value, c.jokers.value)
    ('three_thirteen', 2, 2)
    >>> for n in notes: print(n)
    variant='nope' is not one of three_thirteen, tre_tretton, three_thirteen_jokers. Using the default (three_thirteen).
    players=99 can't be used: this table seats 2 to 12 players. Using the default (2).
    jokers=7 can't be used: the jokers variant is played with 0, 2 or 4 jokers. Using the default (2).
    >>> VariantChooser(lambda v, p, j: None, variant="three_thirteen_jokers", players=4,
    ...                jokers=None, start=False).jokers.value
    2
    """

    def __init__(self, make_table: Callable[[str, int, int], Any], *, variant: str,
                 players: int, jokers: int | None = None, notes: list[str] | None = None,
                 start: bool = True, panels: list[tuple[str, Any]] | None = None) -> None:
        notes = [] if notes is None else notes
        names = [v for _, v in FAMILY]
        if variant not in names:
            notes.append(f"variant={_said(variant)} is not one of {', '.join(names)}. Using the "
                         "default (three_thirteen).")
            variant = "three_thirteen"
        # the widest player range and the joker choices of the family, from the Variant data
        ranges = [_player_range(v) for v in names]
        fewest, most = min(lo for lo, _ in ranges), max(hi for _, hi in ranges)
        if not fewest <= players <= most:
            notes.append(f"players={players!r} can't be used: this table seats {fewest} to "
                         f"{most} players. Using the default ({fewest}).")
            players = fewest
        offered = sorted({j for v in names for j in _joker_choices(v)})
        usual = USUAL_JOKERS if USUAL_JOKERS in offered else (offered[0] if offered else 0)
        if jokers is None:
            jokers = usual
        if offered and jokers not in offered:
            said = ", ".join(map(str, offered[:-1])) + f" or {offered[-1]}"
            notes.append(f"jokers={jokers!r} can't be used: the jokers variant is played with "
                         f"{said} jokers. Using the default ({usual}).")
            jokers = usual
        self.make_table = make_table
        wide = {"description_width": "initial"}
        self.variant = w.Dropdown(options=FAMILY, value=variant, description="Variant",
                                  style=wide, layout=w.Layout(width="auto", max_width="100%"))
        self.variant.add_class("rummy-variant")
        low, high = _player_range(variant)
        self.players = w.BoundedIntText(value=min(max(players, low), high), min=low, max=high,
                                        description="Players", style=wide,
                                        layout=w.Layout(width="11em"))
        self.players.add_class("rummy-players")
        choices = _joker_choices(variant) or _joker_choices("three_thirteen_jokers")
        self.jokers = w.Dropdown(options=list(choices), value=jokers,  # a bad one is reported
                                 description="Jokers", style=wide,
                                 layout=w.Layout(width="10em"))
        self.jokers.add_class("rummy-jokers")
        self.deal = w.Button(description="Deal", button_style="primary")
        self.deal.add_class("rummy-deal")
        self._dealt = False
        self.message = notice(notes)
        self.slot = w.Box()
        self.table: Any = None
        self.variant.observe(lambda _c: self._sync(), names="value")
        self.deal.on_click(lambda _b: self.start())
        settings_row = w.HBox([self.variant, self.players, self.jokers, self.deal],
                              layout=w.Layout(flex_flow="row wrap"))
        settings_row.add_class("rummy-options")
        self.settings_row = settings_row
        self.panels = [("Variant and players (press Deal)", settings_row), *(panels or [])]
        self.below = w.Box()  # the form, for a table without a drawer
        self.widget = w.VBox([self.message, self.slot, self.below])
        self.widget.add_class("rummy-variant-chooser")
        self._sync()
        if start:
            self.start()

    def _sync(self) -> None:
        # the player range and the joker choices come from the variant's data
        # (three_thirteen_jokers: always you + three AI players, TJ-1)
        variant = self.variant.value
        low, high = _player_range(variant)
        value = min(max(self.players.value, low), high)
        self.players.min, self.players.max = 0, 10**6  # widen first: min <= value <= max
        self.players.value = value
        self.players.min, self.players.max = low, high
        self.players.disabled = low == high
        choices = _joker_choices(variant)
        if choices:
            self.jokers.options = list(choices)
        self.jokers.layout.display = "" if choices else "none"

    def start(self) -> None:
        """Build a new table for the chosen variant."""

        variant = self.variant.value
        jokers = self.jokers.value if _joker_choices(variant) else 0
        first, self._dealt = not self._dealt, True
        try:
            table = self.make_table(variant, self.players.value, jokers)
        except Exception as exc:  # noqa: BLE001 - shown to the learner, never a traceback
            if first:
                raise  # App reports the setting and builds the default
            self.message.value = html.escape(f"This table could not be dealt: {_words(exc)}.")
            self.message.layout.display = ""
            return  # the table in play stays
        if not first:  # the address's notes were about the first deal
            self.message.value = ""
            self.message.layout.display = "none"
        old, self.table = self.table, table
        if old is not None and hasattr(old, "remove_panel"):
            for _title, panel in self.panels:  # kept for the new table, not closed with the old
                old.remove_panel(panel)
        if hasattr(table, "add_panel"):
            add_panels(table, self.panels)
            self.below.children = ()
        else:
            self.below.children = (self.settings_row,)
        self.slot.children = (table.widget,)
        if old is not None:
            old._generation = getattr(old, "_generation", 0) + 1  # stop its bots' task
            old.close()

    def _ipython_display_(self) -> None:
        display(self.widget)
