"""The learner's side of the record of learning (:mod:`rummy.progress`).

- :func:`remember` is what every judged act of a widget calls (a quiz answer,
  a guided move, a refusal at a table): it records the event for the learner
  of this kernel and, while nobody is named, shows :class:`WhoIsLearning`
  under the widget that needed a name.
- :class:`WhoIsLearning` asks once for a name (a plain default is filled in),
  and remembers it for this browser (``localStorage``, as the classroom pages
  keep a seat): the next page fills it in and confirms it by itself.
  ``?learner=NAME`` in the page's address names the learner too.
- :class:`Progress` is the learner's map of the 58 rules, grouped by variant:
  not seen / practising / mastered in words, with a shape and a colour; the
  rules due again first; a *Practise* link per rule (the practice app,
  ``notebooks/apps/practice.ipynb?rule=ID``); every event kept about the
  learner, and a button to erase them.
- :class:`ProgressLine` is the one line of the landing page
  ("12 of 58 rules mastered, 3 due").
"""

from __future__ import annotations

import base64
import datetime as _dt
import logging
import os
import re
from collections.abc import Sequence
from typing import Any

import ipywidgets as w

from rummy import progress as _p
from rummy import rulebook
from widgets.view import View, button, esc, html_box, safe

__all__ = ["Progress", "ProgressLine", "WhoIsLearning", "who_is_learning", "remember", "judged_move",
           "table_rule", "server_judging", "judge_remotely",
           "practice_url", "app_url", "LEARNER_JS"]

log = logging.getLogger("widgets.progress")

try:  # on a JupyterHub, each event kept also goes to the teacher's class grid
    from tableserver.progress_client import forward_to_hub
except ImportError:  # (a kit without the table service: the static site's wheel)
    pass
else:
    forward_to_hub()

#: The name offered when nobody has given one.
DEFAULT_NAME = "Learner"

#: The page's side of remembering the learner: a learner is a key, not a name.
#: The kernel hands a new key over in ``.rummy-learner-key-out[data-key]``; this
#: script keeps it in the browser's local storage (this site's pages only read
#: it; it never goes in an address) and tells the kernel it is kept.  On a page
#: that asks who is learning (``.rummy-who-asking``, unless the learner asked to
#: change), it gives the kept key to the kernel through a hidden password box:
#: the kernel learns as whoever holds it.  ``data-forget`` makes it drop the key
#: (erased, or not known here).
LEARNER_JS = """
<script>
(function () {
  if (window.rummyLearnerKeeper) { return; }
  window.rummyLearnerKeeper = true;
  var KEY = 'rummy-learner-key';
  window.localStorage.removeItem('rummy-learner');  // an older kit kept a typed name
  // a page being left has given its kernel up (Voila disposes the connection): a
  // widget changed then raises "Cannot send"
  window.addEventListener('beforeunload', function () { window.rummyLeaving = true; });
  function press(box, css) {
    var b = box && box.querySelector('button.' + css);
    if (b) { window.setTimeout(function () { if (!window.rummyLeaving) { b.click(); } }, 50); }
  }
  window.setInterval(function () {
    if (window.rummyLeaving) { return; }
    document.querySelectorAll('.rummy-learner-key-out[data-key]').forEach(function (el) {
      var key = el.getAttribute('data-key');
      el.removeAttribute('data-key');
      if (el.getAttribute('data-forget')) {
        window.localStorage.removeItem(KEY);
      } else if (key) {
        window.localStorage.setItem(KEY, key);
      }
      press(el.closest('.rummy-who'), 'rummy-learner-key-kept');
    });
    var kept = window.localStorage.getItem(KEY);
    if (!kept) { return; }
    document.querySelectorAll('.rummy-who-asking').forEach(function (box) {
      if (box.classList.contains('rummy-who-changing') || box.getAttribute('data-filled')) { return; }
      var input = box.querySelector('.rummy-learner-key-in input');
      if (!input || !box.querySelector('button.rummy-learner-resume')) { return; }
      box.setAttribute('data-filled', '1');
      input.value = kept;
      input.dispatchEvent(new Event('input', {bubbles: true}));
      input.dispatchEvent(new Event('change', {bubbles: true}));
      press(box, 'rummy-learner-resume');
    });
  }, 250);
})();
</script>
"""

_CSS = """
<style>
.rummy-progress h3 { margin: 0.6em 0 0.2em; font-size: 110%; }
.rummy-progress ul { list-style: none; padding-left: 0.2em; margin: 0; }
.rummy-progress li { margin: 2px 0; line-height: 1.7; }
.rummy-rule-badge { display: inline-block; min-width: 6.2em; margin-right: 0.5em; padding: 0 0.4em;
  border-radius: 3px; font-size: 85%; font-weight: bold; text-align: center; line-height: 1.5; }
.rummy-rule-not-seen .rummy-rule-badge { color: rgb(66,66,66); background: rgb(238,238,238); }
.rummy-rule-practising .rummy-rule-badge { color: rgb(122,62,0); background: rgb(255,236,204); }
.rummy-rule-mastered .rummy-rule-badge { color: rgb(20,75,24); background: rgb(220,240,222); }
.rummy-rule-not-seen .rummy-rule-status { color: rgb(97,97,97); }
.rummy-rule-practising .rummy-rule-status { color: rgb(153,81,0); }
.rummy-rule-mastered .rummy-rule-status { color: rgb(27,94,32); }
.rummy-progress-step { margin: 0.4em 0; padding: 0.4em 0.6em; border-left: 4px solid rgb(21,101,192);
  background: rgb(227,242,253); }
.rummy-rule-due .rummy-rule-status { font-weight: bold; }
.rummy-practise { margin-left: 0.6em; padding: 0 0.5em; border: 1px solid rgb(21,101,192);
  border-radius: 4px; color: rgb(13,71,161); text-decoration: none; }
.rummy-practise:focus, .rummy-practise:hover { outline: 3px solid rgb(255,179,0); }
.rummy-progress-summary { font-weight: bold; }
.rummy-progress-events table { border-collapse: collapse; font-size: 90%; }
.rummy-progress-events td, .rummy-progress-events th { border: 1px solid rgb(189,189,189);
  padding: 1px 6px; text-align: left; }
</style>
"""

#: status -> the word on its badge (a label, not a control: no circle to tick)
_BADGES = {"not seen": "Not seen", "practising": "Practising", "mastered": "Mastered"}


#: Where the page runs on the static site (``$RUMMY_SITE``, which the site sets): ``voici``
#: on an app's page (``voici/render/apps/NAME.html``), ``lite`` in a lesson in
#: JupyterLite's notebook app (``notebooks/index.html``); unset under a server.
SITE_ENV = "RUMMY_SITE"


def app_url(app: str, query: str = "") -> str:
    """Where the app ``app`` (``notebooks/apps/APP.ipynb``) opens from this page: under a
    server Voilà's page, on the static site its Voici page (relative to this page).

    >>> os.environ.pop(SITE_ENV, None) and None
    >>> app_url("practice", "rule=TT-1")
    '/voila/render/notebooks/apps/practice.ipynb?rule=TT-1'
    >>> os.environ[SITE_ENV] = "voici"; app_url("progress")
    'progress.html'
    >>> os.environ[SITE_ENV] = "lite"; app_url("practice", "rule=TT-1")
    '../voici/render/apps/practice.html?rule=TT-1'
    >>> del os.environ[SITE_ENV]
    """
    tail = f"?{query}" if query else ""
    site = os.environ.get(SITE_ENV)
    if site == "voici":
        return f"{app}.html{tail}"
    if site == "lite":
        return f"../voici/render/apps/{app}.html{tail}"
    base = os.environ.get("VOILA_BASE_URL") or "/"
    base = base if base.endswith("/") else base + "/"
    return f"{base}voila/render/notebooks/apps/{app}.ipynb{tail}"


def practice_url(rule: str) -> str:
    """Where the drill of ``rule`` opens: the practice app (:func:`app_url`), served by
    Voilà (``.../voila/render/notebooks/apps/practice.ipynb?rule=ID``) or on the site."""
    return app_url("practice", f"rule={rule}")


class WhoIsLearning(View):
    """Who is learning: a learner is a key kept by this browser, not a name.

    On a learner's first page it asks for a name (a label for people, a
    plain default filled in); *That's me* makes a new learner with a fresh
    key (:func:`rummy.progress.enrol`) that the page keeps in the browser.
    Every later page gives that key to its kernel by itself, and the kernel
    learns as whoever holds it.  On another device the learner types the
    recovery code their progress page shows.  A name taken here (in any
    case) is refused: typing "Ana" never opens Ana's record.  One per
    kernel: :func:`who_is_learning`."""

    def __init__(self) -> None:
        super().__init__()
        self.name = w.Text(value=DEFAULT_NAME, description="Your name",
                           placeholder="your first name", continuous_update=False)
        self.name.add_class("rummy-learner-input")
        self.ok = button("That's me", "rummy-learner-ok", style="primary",
                         tooltip="Start keeping my progress under this name")
        self.ok.on_click(lambda _b: self.confirm())
        self.code = w.Text(value="", description="Recovery code",
                           placeholder="XXXX-XXXX-...", continuous_update=False)
        self.code.add_class("rummy-learner-code")
        self.resume = button("Continue with my code", "rummy-learner-code-ok",
                             tooltip="Continue the record of the recovery code")
        self.resume.on_click(lambda _b: self.recover())
        self.change = button("Somebody else is learning", "rummy-learner-change",
                             tooltip="Learn under another name on this browser")
        self.change.on_click(lambda _b: self.ask(changing=True))
        # the browser's kept key comes in here (filled by the page's script)
        self.key_in = w.Password(value="", description="Learner key", continuous_update=False)
        self.key_in.add_class("rummy-learner-key-in")
        self.key_go = button("Continue", "rummy-learner-resume")
        self.key_go.on_click(lambda _b: self.resume_key())
        self.key_out = html_box("rummy-learner-key-out")
        self.key_kept = button("Kept", "rummy-learner-key-kept")
        self.key_kept.on_click(lambda _b: self._handed_over())
        self.hidden = w.HBox([self.key_in, self.key_go, self.key_out, self.key_kept])
        self.hidden.layout.display = "none"
        self.text = html_box("rummy-learner")
        # the page's script rides in an Output widget's state (as trusted HTML),
        # so it reaches the page wherever the name box is shown, whenever it is built
        keeper = w.Output(outputs=({"output_type": "display_data", "metadata": {},
                                     "data": {"text/html": LEARNER_JS}},))
        keeper.layout.display = "none"
        self.keeper = keeper
        self.widget = w.VBox([self._style, self.text, self.message, self.hidden, keeper])
        self.widget.add_class("rummy-who")
        self.widget.add_class("rummy-root")
        #: answers the server judged while nobody was named: sent again once somebody is
        self.waiting: list[dict[str, Any]] = []
        _p.on_learner(self._named)
        self._render()

    def _named(self, name: str | None) -> None:
        if name is not None and self.waiting:
            from tableserver.client import RemoteError
            from tableserver.progress_client import judge_on_server

            waiting, self.waiting = self.waiting, []
            for body in waiting:  # the server keeps them now, in the order given
                try:
                    judge_on_server(body)
                except RemoteError:
                    log.exception("an answer given before the learner was named was not kept")
        self._render()

    def wait(self, body: dict[str, Any]) -> None:
        """Keep an answer the server judged while nobody was named, to send it
        again once somebody is."""
        self.waiting.append(dict(body))
        self.count_waiting()

    def count_waiting(self) -> None:
        """Say again how many answers wait to be kept (while the box asks)."""
        if _p.learner() is None:
            self.text.value = self._asking_text()

    def _asking_text(self) -> str:
        waiting = len(_p.pending()) + len(self.waiting)
        why = ((" (1 answer is waiting to be kept)" if waiting == 1 else
                f" ({waiting} answers are waiting to be kept)") if waiting else "")
        return ("<span role='status'>Who is learning? Give a name to start your record of "
                f"learning on this browser{esc(why)}. Learned here before on another device? "
                "Type the recovery code your progress page showed you.</span>")

    def _render(self, changing: bool = False) -> None:
        who = _p.learner()
        asking = who is None or changing
        head = self.widget.children[:2]
        tail = self.widget.children[-3:]
        if asking:
            self.text.value = self._asking_text()
            self.widget.children = (*head, w.HBox([self.name, self.ok]),
                                    w.HBox([self.code, self.resume]), *tail)
            self.widget.add_class("rummy-who-asking")
        else:
            shown = _p.label(who) or who
            self.text.value = (f"<span class='rummy-learner-name' data-learner='{esc(shown)}'>"
                               f"You are learning as <b>{esc(shown)}</b>.</span>")
            self.widget.children = (*head, *(() if os.environ.get("JUPYTERHUB_USER")
                                              else (self.change,)), *tail)
            self.widget.remove_class("rummy-who-asking")
            self.widget.remove_class("rummy-who-changing")

    def hand_over(self, key: str | None) -> None:
        """Give this browser ``key`` to keep (a record loaded here is now its learner's)."""
        self._hand_over(key)

    def _hand_over(self, key: str | None) -> None:
        """Give the page ``key`` to keep in this browser (None: forget the kept one)."""
        if key is None:
            self.key_out.value = ("<span class='rummy-learner-key-out' data-key='' "
                                  "data-forget='1'></span>")
        else:
            self.key_out.value = (f"<span class='rummy-learner-key-out' "
                                  f"data-key='{esc(key)}'></span>")

    def _handed_over(self) -> None:
        self.key_out.value = ""

    @safe
    def confirm(self, name: str | None = None) -> str | None:
        """Start a new learner called ``name`` (default: what the box holds);
        their key goes to the browser.  A name taken here is refused."""
        self.clear_message()
        given = self.name.value if name is None else name
        key = _p.enrol(given.strip() or DEFAULT_NAME)
        self._hand_over(key)
        return _p.learner()

    @safe
    def recover(self, code: str | None = None) -> str | None:
        """Continue as the learner of the recovery ``code`` (default: the box)."""
        self.clear_message()
        given = self.code.value if code is None else code
        self.code.value = ""
        who = _p.use_key(given)
        if who is None:
            self.show_error("That recovery code is not known here: check it, or ask your "
                            "teacher for a new one.")
            return None
        self._hand_over(_p.normal_key(given))
        return who

    def resume_key(self) -> str | None:
        """Continue as the learner whose key the browser keeps (the page fills it in)."""
        given = self.key_in.value
        self.key_in.value = ""
        who = _p.use_key(given)
        if who is None and given:
            self._hand_over(None)
            self.show_notice("This browser's key opens no record here (it was erased, or "
                             "the teacher gave you a new one): start with your name, or type "
                             "your recovery code.")
        return who

    def forget(self) -> None:
        """This browser forgets its key and nobody learns in this kernel."""
        self._hand_over(None)
        _p.use_learner(None)

    def ask(self, changing: bool = False) -> None:
        """Show the name box (``changing``: the learner asked; not filled in
        from the browser's memory)."""
        if changing:
            self.widget.add_class("rummy-who-changing")
        self._render(changing=changing)


_who: WhoIsLearning | None = None


def who_is_learning() -> WhoIsLearning:
    """The kernel's one :class:`WhoIsLearning`."""
    global _who
    if _who is None:
        _who = WhoIsLearning()
    return _who


def _ask_in(view: Any) -> None:
    """Show the name box at the end of ``view`` (once)."""
    box = who_is_learning().widget
    root = getattr(view, "widget", None)
    if root is not None and box not in root.children:
        root.children = (*root.children, box)


def remember(view: Any, rule: str, asked: Any, answered: Any, right: bool, *, source: str,
             first: bool = True, judged: str = "rule") -> Any:
    """Record a judged act of ``view``'s learner (:func:`rummy.progress.record`);
    with nobody named yet, the name box appears under ``view``.  A failure to
    record never breaks the view: it is logged."""
    try:
        kept = _p.record(rule, asked, answered, right, source=source, first=first,
                         judged=judged)
    except Exception:  # noqa: BLE001 - the lesson goes on; the log says why
        log.exception("could not record a %s event for %s", source, rule)
        return None
    if kept is None:
        who_is_learning().count_waiting()  # one more answer waits for a name
        if view is not None:
            _ask_in(view)
    return kept


def server_judging() -> bool:
    """Whether the kit's server judges this kernel's answers (a server of the
    kit started it, or a JupyterHub: :func:`tableserver.progress_client.server_judges`);
    False where there is none (a notebook opened alone, the static site):
    there answers are self-checks."""
    try:
        from tableserver.progress_client import server_judges
    except ImportError:  # (a kit without the table service: the static site's wheel)
        return False
    return server_judges()


def judge_remotely(view: Any, body: dict[str, Any]) -> dict[str, Any] | None:
    """The server's verdict on an answer (``body`` as ``POST
    .../progress/answer`` takes it), kept there for this kernel's learner.
    With nobody named yet the server judges it and keeps nothing: the name
    box appears under ``view`` and the answer waits, to be sent again (and
    kept) once somebody is named.  None when the server refused or can't be
    reached (``view`` says why)."""
    from tableserver.client import RemoteError
    from tableserver.progress_client import judge_on_server

    try:
        verdict = judge_on_server(body)
    except RemoteError as e:
        if view is not None:
            view.show_error(f"Your answer could not be checked: {e}")
        return None
    if not verdict.get("kept") and verdict.get("counted") and _p.learner() is None:
        who_is_learning().wait(body)
        if view is not None:
            _ask_in(view)
    elif verdict.get("kept") and os.environ.get("JUPYTERHUB_USER"):
        _copy_for_my_map(verdict, body)
    return verdict


def _copy_for_my_map(verdict: dict[str, Any], body: dict[str, Any]) -> None:
    """On a hub the server keeps the answer in the hub's record (the teacher's
    grid); the learner's own map reads their own server's record: a copy goes
    there, as the server judged it, and is not sent to the hub again."""
    who = _p.learner()
    if who is None:
        return
    try:
        _p.default_record().add(who, str(verdict["rule"]), verdict["asked"], body["answer"],
                                bool(verdict["right"]), first=bool(verdict["first"]),
                                source=str(verdict["source"]), when=float(verdict["when"]),
                                judged=str(verdict["judged"]), by="server")
    except Exception:  # noqa: BLE001 - the hub kept it; the learner's map lacks it
        log.exception("could not keep a copy of a server-judged answer for the learner's map")


def table_rule(family: str, verb: str, phase: str = "") -> str:
    """The rule a legal move at a table applies, by the game's family, the
    move's verb and the phase it was made in.

    >>> table_rule("three_thirteen", "draw stock"), table_rule("big_table", "call match")
    ('TT-5', 'BT-4')
    >>> table_rule("gin", "take upcard", "upcard"), table_rule("gin", "knock")
    ('G-4', 'G-6')
    """
    if family == "three_thirteen":
        return "TT-6" if "go out" in verb else "TT-5"
    if family == "big_table":
        return "BT-4" if "match" in verb else "BT-3"
    if phase == "upcard":
        return "G-4"
    if "knock" in verb:
        return "G-6"
    if verb.startswith("gin"):
        return "G-7"
    if "lay" in verb:
        return "G-8"
    return "G-5"


def judged_move(view: Any, action: Any, move: Any) -> Any:
    """``move()`` (the learner's move at a table), judged by the rules: a
    legal move is kept as a right answer about the rule it applies
    (:func:`table_rule`); a move the engine refuses with a rule id is kept
    as a wrong answer about that rule.  What is asked: the learner's own
    hand, nothing of anyone else's.  The refusal goes on."""
    from rummy.errors import GameError

    try:
        obs = view.observation()
        hand = " ".join(c.symbol for c in obs.hand)
        phase = str(getattr(obs, "phase", ""))
    except Exception:  # noqa: BLE001 - the hand is only context
        hand, phase = "", ""
    variant = getattr(view, "variant", None)
    where = getattr(variant, 'title', '') or 'a table'
    try:
        done = move()
    except GameError as exc:
        rules = rulebook.rules_in(str(exc))
        if rules:
            asked = (f"your move at {where}"
                     f"{', holding ' + hand if hand else ''}: {exc}")
            remember(view, rules[0], asked, str(action), False, source="table")
        raise
    family = str(getattr(variant, "family", ""))
    if family:
        verb = str(getattr(action, "verb", action))
        asked = f"your move at {where}{', holding ' + hand if hand else ''}"
        remember(view, table_rule(family, verb, phase), asked, str(action), True,
                 source="table")
    return done


def _when(t: float) -> str:
    return _dt.datetime.fromtimestamp(t).strftime("%Y-%m-%d %H:%M")


class Progress(View):
    """``Progress(learner=None, *, rules=None)``: the learner's map of the 58 rules.

    ``learner`` names whose map it is (default: the learner of this kernel,
    asked once, see :class:`WhoIsLearning`); ``rules`` (rule ids) keeps the map
    to those rules (a lesson's), the summary line still counting all 58.  ``refresh()`` redraws it,
    ``show_events()`` lists every event kept about the learner, ``erase()``
    asks to confirm, then removes them all.

    >>> import os, tempfile
    >>> before = os.environ.get("RUMMY_DATA")
    >>> os.environ["RUMMY_DATA"] = tempfile.mkdtemp()
    >>> p = Progress("Ana")
    >>> p.summary, p.map.value.count("<li")
    ('0 of 58 rules mastered, 0 due', 58)
    >>> Progress("Ana", rules=["C-1", "M-1"]).map.value.count("<li")
    2
    >>> _ = os.environ.pop("RUMMY_DATA") if before is None else os.environ.update(
    ...     RUMMY_DATA=before)
    """

    def __init__(self, learner: str | None = None, *, clock: Any = None,
                 rules: Sequence[str] | None = None) -> None:
        super().__init__()
        if rules is not None:
            unknown = [r for r in rules if r not in rulebook.RULE_IDS]
            if unknown:
                raise ValueError(f"no rule {', '.join(map(repr, unknown))} in RULES.md; the rule ids "
                                 f"are: {', '.join(rulebook.RULE_IDS)}")
        #: the rules the map shows (None: all of them)
        self.rules = None if rules is None else frozenset(rules)
        self.fixed = None if learner is None else " ".join(str(learner).split())
        self.clock = clock
        self.summary = ""
        self.css = w.HTML(_CSS)
        self.css.layout.display = "none"
        self.title = html_box("rummy-title", "<h2>Your progress</h2>")
        self.map = html_box("rummy-progress-map")
        self.refresh_button = button("Update my map", "rummy-progress-refresh", icon="refresh")
        self.refresh_button.on_click(lambda _b: self.refresh())
        self.events_button = button("Show every event kept about me", "rummy-progress-show")
        self.events_button.on_click(lambda _b: self.show_events())
        self.erase_button = button("Erase my record", "rummy-progress-erase", style="danger")
        self.erase_button.on_click(lambda _b: self.erase())
        self.confirm_erase = button("Yes, erase it", "rummy-progress-erase-yes", style="danger")
        self.confirm_erase.on_click(lambda _b: self.erase(confirmed=True))
        self.keep = button("No, keep it", "rummy-progress-erase-no")
        self.keep.on_click(lambda _b: self._hide_confirm())
        self.confirm_text = html_box("rummy-progress-erase-question")
        self.confirm_box = w.HBox([self.confirm_text, self.confirm_erase, self.keep])
        self.confirm_box.layout.display = "none"
        self.events = html_box("rummy-progress-events")
        self.code_button = button("Show my recovery code", "rummy-progress-code",
                                  tooltip="Continue your record on another device")
        self.code_button.on_click(lambda _b: self.show_code())
        self.recovery = html_box("rummy-progress-recovery")
        # a record that travels: saved as a file, loaded in another browser with the code
        self.save_button = button("Save my record", "rummy-progress-save",
                                  tooltip="Download your record as a file")
        self.save_button.on_click(lambda _b: self.save())
        self.saved = html_box("rummy-progress-saved")
        self.upload = w.FileUpload(accept=".jsonl,.txt", multiple=False,
                                   description="Choose the file")
        self.upload.add_class("rummy-progress-file")
        self.load_code = w.Text(value="", description="Recovery code",
                                placeholder="XXXX-XXXX-...", continuous_update=False)
        self.load_code.add_class("rummy-progress-load-code")
        self.load_button = button("Load my record", "rummy-progress-load",
                                  tooltip="Continue a saved record here: its file and "
                                          "its recovery code")
        self.load_button.on_click(lambda _b: self.load())
        travel = w.VBox([w.HBox([self.save_button, self.saved]),
                         w.HBox([self.upload, self.load_code, self.load_button],
                                layout=w.Layout(flex_flow="row wrap"))])
        travel.add_class("rummy-progress-travel")
        parts: list[w.Widget] = [self._style, self.css, self.title]
        if self.fixed is None:
            parts.append(who_is_learning().widget)
            _p.on_learner(lambda _name: self.refresh())
        parts += [self.map, w.HBox([self.refresh_button, self.events_button, self.code_button,
                                    self.erase_button], layout=w.Layout(flex_flow="row wrap")),
                  travel, self.confirm_box, self.message, self.recovery, self.events]
        self.widget = w.VBox(parts)
        self.widget.add_class("rummy-progress")
        self.widget.add_class("rummy-root")
        self.refresh()

    @safe
    def save(self) -> str | None:
        """Make the learner's record a file to download (:func:`rummy.progress.export_record`):
        a link appears; the file opens nothing without the recovery code."""
        self.clear_message()
        key = _p.current_key()
        if key is None or self.fixed is not None:
            self.show_error("Your record is saved from your own progress page, once you "
                            "learn under your name here.")
            return None
        text = _p.export_record(key)
        count = len(text.splitlines()) - 2
        name = re.sub(r"[^A-Za-z0-9_-]+", "-", _p.label() or "learner").strip("-") or "learner"
        data = base64.b64encode(text.encode("utf-8")).decode()
        self.saved.value = (
            f"<a class='rummy-progress-saved-file' download='rummy-record-{esc(name)}.jsonl' "
            f"href='data:application/x-ndjson;charset=utf-8;base64,{data}'>"
            f"Download your record ({count} answer{'s' if count != 1 else ''})</a>. "
            "Keep it with your recovery code: loading it anywhere needs both.")
        return text

    @safe
    def load(self, text: Any = None, code: str | None = None) -> str | None:
        """Continue a saved record here (default: the chosen file and the typed code):
        its events are kept in this browser's record, under the code's learner, who then
        learns here.  A file changed after it was saved is refused."""
        self.clear_message()
        if text is None:
            files = list(self.upload.value)
            if not files:
                self.show_error("Choose the file of your saved record first.")
                return None
            text = bytes(files[0]["content"])
        given = self.load_code.value if code is None else code
        self.load_code.value = ""
        key = _p.normal_key(given)
        if key is None:
            self.show_error("Type the recovery code your progress page showed you with the "
                            "record (32 letters and digits, dashes allowed).")
            return None
        who, kept = _p.import_record(text, key)
        self.upload.value = ()
        _p.use_key(key)
        if self.fixed is None:
            who_is_learning().hand_over(key)
        self.show_notice(f"Your record is loaded: {len(kept)} answer"
                         f"{'s' if len(kept) != 1 else ''}, learning as {_p.label(who)}.")
        self.refresh()
        return who

    @property
    def learner(self) -> str | None:
        """Whose map this is (None: nobody named yet)."""
        return self.fixed or _p.learner()

    def _now(self) -> float:
        return float(self.clock()) if self.clock is not None else _p.default_record().clock()

    def _events(self) -> list[_p.Event]:
        who = self.learner
        return _p.default_record().events(who) if who else _p.pending()

    @safe
    def refresh(self) -> None:
        """Draw the map from the record as it is now."""
        events = self._events()
        now = self._now()
        ms = _p.mastery(events)
        s = _p.summary(events, now)
        self.summary = s.line()
        who = self.learner
        shown = _p.label(who) if who else None
        head = (f"<p class='rummy-progress-summary' role='status'>{esc(shown or 'You')}: "
                f"{esc(self.summary)}.</p>")
        due = sorted((m for m in ms.values() if m.is_due(now)), key=lambda m: m.due_at or 0.0)
        out = [head, self._next_step(events, ms, now)]
        if s.next_due is not None:
            out.append(f"<p class='rummy-progress-next'>{'The rest are' if due else 'Nothing is'}"
                       f"{'' if due else ' due now; the next rule is'} due again from "
                       f"{esc(_when(s.next_due))}.</p>")
        if due:
            out.append("<h3 id='rummy-due'>Due again now</h3><ul class='rummy-progress-due' "
                       "aria-labelledby='rummy-due'>")
            out += [self._row(m, now) for m in due]
            out.append("</ul>")
        if self.rules is not None:
            out.append(f"<p class='rummy-progress-some'>The {len(self.rules)} rules of this lesson; "
                       "the map in the practice app shows all 58.</p>")
        for group in rulebook.GROUPS:
            rows = [r for r in rulebook.RULES if r.group == group
                    and (self.rules is None or r.id in self.rules)]
            if not rows:
                continue
            gid = "rummy-group-" + "".join(c if c.isalnum() else "-" for c in group.lower())
            out.append(f"<h3 id='{gid}'>{esc(group)}</h3><ul class='rummy-progress-group' "
                       f"aria-labelledby='{gid}'>")
            out += [self._row(ms[r.id], now) for r in rows]
            out.append("</ul>")
        self.map.value = "".join(out)
        self.erase_button.disabled = self.events_button.disabled = who is None
        self.code_button.disabled = self.fixed is not None or _p.current_key() is None
        if self.code_button.disabled:
            self.recovery.value = ""

    @safe
    def show_code(self) -> str | None:
        """Show the learner's recovery code, as text and as a QR code, to
        continue their record on another device (None: no key here)."""
        key = None if self.fixed is not None else _p.current_key()
        if key is None:
            self.show_notice("There is no recovery code here: on a hub you sign in, "
                             "and your record follows you.")
            return None
        import segno  # loaded when the code is asked for, not with the page

        code = _p.show_key(key)
        qr = str(segno.make(code, error="m").svg_inline(scale=3, dark="#000", light="#fff"))
        self.recovery.value = (
            "<div role='region' aria-label='Your recovery code'><p>Your recovery code: "
            f"<code class='rummy-recovery-code'>{esc(code)}</code></p>"
            f"<div class='rummy-recovery-qr' role='img' aria-label='The recovery code as a QR "
            f"code'>{qr}</div><p>On another device, open any page of the kit and type this "
            "code under <i>Recovery code</i>. Whoever has it can read and erase your record: "
            "keep it to yourself.</p></div>")
        return code

    def _next_step(self, events: Sequence[_p.Event], ms: dict[str, _p.Mastery],
                   now: float) -> str:
        """The line that says what to practise next: the rule most overdue by the
        record's schedule (:func:`rummy.progress.due_first`), else the first one
        not seen yet, else the one due again soonest; with its Practise link."""
        order = _p.due_first(events, now, None if self.rules is None
                             else [r for r in rulebook.RULE_IDS if r in self.rules])
        m = ms[order[0]]
        name = f"\u201c{esc(rulebook.rule(m.rule).title)}\u201d ({esc(m.rule)})"
        if m.is_due(now):
            why = (f"go over {name} again. It is due now: this is the best time to "
                   "practise it, before you forget it.")
        elif m.due_at is None:
            why = f"try a rule you have not practised yet: {name}."
        else:
            why = (f"nothing is due now. The first rule to come back is {name}, from "
                   f"{esc(_when(m.due_at))}; you can practise it already.")
        link = (f"<a class='rummy-practise rummy-next-step' href='{esc(practice_url(m.rule))}' "
                f"target='_blank' rel='noopener' aria-label='Practise it: {esc(m.rule)}, "
                f"{esc(rulebook.rule(m.rule).title)}'>Practise it</a>")
        return (f"<p class='rummy-progress-step' data-rule='{esc(m.rule)}'><b>Next step:</b> "
                f"{why}{link}</p>")

    @staticmethod
    def _row(m: _p.Mastery, now: float) -> str:
        rule = rulebook.rule(m.rule)
        status = m.status
        words = "" if m.attempts or m.play_attempts else "not practised yet"
        if m.attempts:
            recall = m.recall(now)
            words += (f"{m.attempts} tr{'ies' if m.attempts != 1 else 'y'}, "
                      f"{m.right_first} right at the first try, on {len(m.days)} "
                      f"day{'s' if len(m.days) != 1 else ''}")
            if recall is not None:
                words += f", you would recall it now with a chance of {round(100 * recall)}%"
        if m.play_attempts:
            words += (("; " if words else "") + "play: the best move "
                      f"{m.play_right_first} of {m.play_attempts} "
                      f"time{'s' if m.play_attempts != 1 else ''}")
        due = m.is_due(now)
        if due:
            words += ", due again now"
        elif m.due_at is not None:
            words += f", due again {_when(m.due_at)}"
        css = f"rummy-rule rummy-rule-{status.replace(' ', '-')}" + (" rummy-rule-due" if due
                                                                       else "")
        link = (f"<a class='rummy-practise' href='{esc(practice_url(m.rule))}' target='_blank' "
                f"rel='noopener' aria-label='Practise {esc(m.rule)}: {esc(rule.title)}'>"
                "Practise</a>")
        return (f"<li class='{css}' data-rule='{esc(m.rule)}'>"
                f"<span class='rummy-rule-badge'>{_BADGES[status]}</span> "
                f"<b>{esc(m.rule)}</b> {esc(rule.title)}: "
                f"<span class='rummy-rule-status'>{esc(words)}</span>{link}</li>")

    @safe
    def show_events(self) -> None:
        """List every event kept about the learner (a table)."""
        events = self._events()
        if not events:
            self.events.value = "<p>Nothing is kept about you yet.</p>"
            return
        rows = "".join(
            f"<tr><td>{esc(_when(e.when))}</td><td>{esc(e.rule)}</td><td>{esc(e.source)}</td>"
            f"<td>{esc(e.asked)}</td><td>{esc(e.answered)}</td>"
            f"<td>{'right' if e.right else 'wrong'}{'' if e.first else ' (a later try)'}</td></tr>"
            for e in events)
        self.events.value = (
            f"<p>{len(events)} event{'s' if len(events) != 1 else ''} kept about you, "
            "on this computer only:</p><table><caption class='rummy-sr'>Every event kept "
            "about you</caption><thead><tr><th scope='col'>When</th><th scope='col'>Rule</th>"
            "<th scope='col'>Where</th><th scope='col'>Asked</th><th scope='col'>Your answer"
            f"</th><th scope='col'>Judged</th></tr></thead><tbody>{rows}</tbody></table>")

    def _hide_confirm(self) -> None:
        self.confirm_box.layout.display = "none"

    @safe
    def erase(self, confirmed: bool = False) -> int:
        """Ask to confirm; once confirmed, remove every event of the learner."""
        who = self.learner
        if who is None:
            self.show_notice("Nothing is kept: nobody is named yet.")
            return 0
        if not confirmed:
            n = len(self._events())
            self.confirm_text.value = (f"Erase all {n} event{'s' if n != 1 else ''} kept about "
                                       f"{esc(who)}? This can't be undone.")
            self.confirm_box.layout.display = "flex"
            return 0
        shown = _p.label(who)
        removed = _p.default_record().erase(who)
        if self.fixed is None and not os.environ.get("JUPYTERHUB_USER"):
            who_is_learning().forget()  # the key opens nothing now: the browser drops it
        self._hide_confirm()
        self.events.value = ""
        said = f"Erased: {removed} event{'s' if removed != 1 else ''} about {shown}"
        try:
            there = self._erase_on_hub() if self.fixed is None else None
        except Exception as e:  # noqa: BLE001 - erased here; say what is left
            self.show_error(f"{said} here, but the copy the hub keeps for your teacher's grid "
                            f"could not be erased ({e}): try again later.")
            self.refresh()
            return removed
        if there is not None:
            said += (f", and the copy the hub kept for your teacher's grid ({there} "
                     f"event{'s' if there != 1 else ''})")
        self.show_notice(said + ".")
        self.refresh()
        return removed

    @staticmethod
    def _erase_on_hub() -> int | None:
        """On a hub, erase the hub's table service's copy too (None elsewhere)."""
        if not os.environ.get("JUPYTERHUB_USER"):
            return None
        try:
            from tableserver.progress_client import erase_on_hub
        except ImportError:  # (a kit without the table service)
            return None
        return erase_on_hub()


class ProgressLine(View):
    """The landing page's line: who is learning and
    "12 of 58 rules mastered, 3 due", with a link to the map."""

    def __init__(self, map_url: str | None = None) -> None:
        super().__init__()
        self.map_url = map_url or ("progress.ipynb" if not os.environ.get(SITE_ENV)
                                   else app_url("progress"))
        self.line = html_box("rummy-progress-line")
        self.widget = w.VBox([self._style, who_is_learning().widget, self.line])
        self.widget.add_class("rummy-root")
        _p.on_learner(lambda _name: self.refresh())
        self.refresh()

    @safe
    def refresh(self) -> None:
        """Say the learner's progress again, from the record."""
        text = _p.summary_line()
        self.line.value = (f"<p>Your progress: <b>{esc(text)}</b>. "
                           f"<a href='{esc(self.map_url)}'>See your map of the rules</a>.</p>")
