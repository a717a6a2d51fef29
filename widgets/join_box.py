"""The "join a table" box: a learner types the table's code and their name.

It is on the landing page (``notebooks/apps/index.ipynb``) and on a shared
table's page opened without a name (or with a code or a name that can't be
used).  The box checks the name where it is typed, asks the table service
for a seat, and says what to fix in the learner's words ("There is no table
with that code ...") beside the box, so the learner corrects it on the spot.
Once seated, the page goes to the table's app with the seat's token in the
address's fragment (``#token=...``, which no server sees), where the page's
seat keeper (:data:`widgets.remote_table.SEAT_KEEPER_JS`) moves it into the
browser's local storage and out of the address.

It asks the table service through its client (:mod:`tableserver.client`).
"""

from __future__ import annotations

import html
from collections.abc import Callable
from urllib.parse import quote

import ipywidgets as w
from IPython.display import HTML, display

from rummy.progress import MAX_NAME, ProgressError, normal_name
from tableserver.client import RemoteError, RemoteGame

__all__ = ["JoinBox", "check_name", "GO_JS", "APP_OF_FAMILY", "learner_words"]


#: The table app a learner's page opens for each family (a page of ``notebooks/apps``).
APP_OF_FAMILY = {"three_thirteen": "three_thirteen.ipynb", "big_table": "big_table.ipynb",
                 "gin": "gin_three.ipynb"}

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


def check_name(name: str) -> str:
    """``name`` as the kit keeps it (:func:`rummy.progress.normal_name`), or a
    ValueError saying what to fix, in a learner's words.

    >>> check_name("  Ana ")
    'Ana'
    >>> check_name("")
    Traceback (most recent call last):
    ...
    ValueError: Type your name first (1 to 24 characters).
    >>> check_name("A" * 30)
    Traceback (most recent call last):
    ...
    ValueError: Your name is 30 characters long: use at most 24 (a first name or a nickname is enough).
    """
    try:
        return normal_name(str(name))  # the one rule for a name (the record of learning's)
    except ProgressError:
        clean = " ".join(str(name).split())
    if not clean:
        raise ValueError(f"Type your name first (1 to {MAX_NAME} characters).")
    if len(clean) > MAX_NAME:
        raise ValueError(f"Your name is {len(clean)} characters long: use at most {MAX_NAME} "
                         "(a first name or a nickname is enough).")
    raise ValueError("Your name may hold letters, digits, spaces and punctuation only.")


def learner_words(exc: RemoteError, code: str) -> str:
    """The service's refusal of a join, as a learner reads it.

    >>> learner_words(RemoteError("there is no table K7QM: ...", 404), "k7qm")
    'There is no table with that code (k7qm). Check the code your teacher gave you and type it again.'
    """
    if exc.status == 404:
        return (f"There is no table with that code ({code.strip()}). Check the code your "
                "teacher gave you and type it again.")
    if exc.status == 410:
        return "The teacher closed that table: ask your teacher for the code of a new one."
    text = str(exc).strip().rstrip(".")
    return text[:1].upper() + text[1:] + "."


class JoinBox:
    """The code and name boxes and a Join button; ``.widget`` is the box.

    ``join(code, name)`` is what the button does: it answers the table's
    address (``APP?table=CODE&name=NAME#token=...``) once seated, or None
    with the reason in :attr:`message`.  ``api`` is the table service
    (default: the kernel's server), ``joiner`` how a seat is taken (a test
    may give its own)."""

    def __init__(self, code: str = "", name: str = "", *, message: str = "",
                 api: str | None = None,
                 joiner: Callable[[str, str], RemoteGame] | None = None) -> None:
        self.api = api
        self.joiner = joiner or (lambda c, n: RemoteGame.join(c, n, api=self.api))
        self.code = w.Text(value=code, description="Table code", placeholder="e.g. K7QM-X4P9-RT2H",
                           style={"description_width": "initial"},
                           layout=w.Layout(width="22em"))
        self.code.add_class("rummy-join-code")
        self.name = w.Text(value=name, description="Your name",
                           placeholder=f"at most {MAX_NAME} characters",
                           style={"description_width": "initial"},
                           layout=w.Layout(width="22em"))
        self.name.add_class("rummy-join-name")
        self.button = w.Button(description="Join the table", button_style="primary",
                               layout=w.Layout(width="auto"))
        self.button.add_class("rummy-join-button")
        self.message = w.HTML(html.escape(message))
        self.message.add_class("rummy-join-message")
        self.message.add_class("rummy-live")
        self.go = w.HTML()
        self.go.add_class("rummy-join-go")
        self.button.on_click(lambda _b: self._clicked())
        self.code.on_submit(lambda _t: self._clicked())
        self.name.on_submit(lambda _t: self._clicked())
        self.widget = w.VBox([
            w.HTML("<h3>Join a table</h3><p>Type the code your teacher shows and your name, "
                   "then press <b>Join the table</b>.</p>"),
            w.HBox([self.code, self.name, self.button], layout=w.Layout(flex_flow="row wrap")),
            self.message, self.go])
        self.widget.add_class("rummy-join")

    def _clicked(self) -> None:
        try:
            self.join(self.code.value, self.name.value)
        except Exception as exc:  # noqa: BLE001 - a message beside the box, never a traceback
            self.message.value = html.escape(f"Something went wrong: {exc}")

    def join(self, code: str, name: str) -> str | None:
        """Take a seat at ``code`` as ``name``; the table's address, or None
        with the reason shown beside the box."""
        self.message.value = ""
        if not code.strip():
            self.message.value = "Type the table's code first (your teacher shows it)."
            return None
        try:
            clean = check_name(name)
        except ValueError as exc:
            self.message.value = html.escape(str(exc))
            return None
        try:
            game = self.joiner(code, clean)
        except RemoteError as exc:
            self.message.value = html.escape(learner_words(exc, code))
            return None
        app = APP_OF_FAMILY.get(game.variant.family, "big_table.ipynb")
        href = (f"{app}?table={quote(game.code)}&name={quote(clean)}"
                f"#token={quote(game.token)}")
        self.message.value = html.escape(f"You have a seat at table {game.code}: opening it...")
        self.go.value = f"<span data-href='{html.escape(href)}'></span>"
        return href

    def _ipython_display_(self) -> None:
        display(HTML(GO_JS))
        display(self.widget)
