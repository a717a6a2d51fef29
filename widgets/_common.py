"""Plumbing shared by the views: the root box, messages, safe handlers, CSS.

Nothing here knows a game rule.
"""

from __future__ import annotations

import functools
import html
import re
import traceback
from collections.abc import Callable
from typing import Any, TypeVar

import ipywidgets as w

__all__ = ["View", "STYLE", "esc", "safe", "button", "html_box", "friendly_error"]

F = TypeVar("F", bound=Callable[..., Any])

#: One small stylesheet, added once per view root (an ``HTML`` widget with a
#: ``<style>`` element): the card buttons sit over their SVG pictures, and
#: rows wrap at phone width.
STYLE = """
<style>
.rummy-root { max-width: 100%; }
.rummy-cardbox { position: relative; margin: 0 2px 4px 0; }
.rummy-cardbox .rummy-card, .rummy-cardbox .rummy-pile-button {
  background: transparent !important; border: none !important; box-shadow: none !important;
  color: transparent !important; padding: 0 !important; margin: 0 !important;
  cursor: pointer; z-index: 2; }
.rummy-cardbox .rummy-card:focus, .rummy-cardbox .rummy-pile-button:focus {
  outline: 3px solid #1565c0 !important; }
.rummy-cardbox .widget-html, .rummy-cardbox .widget-html-content { margin: 0; padding: 0;
  line-height: 0; }
.rummy-cardbox button:disabled { cursor: default; }
.rummy-meld-group { border: 2px solid #2e7d32; border-radius: 8px; padding: 3px;
  margin: 0 6px 6px 0; background: #e8f5e9; }
.rummy-deadwood-group { border: 2px dashed #c62828; border-radius: 8px; padding: 3px;
  margin: 0 6px 6px 0; background: #fff3f3; }
.rummy-message { min-height: 1.4em; }
.rummy-message .rummy-error { color: #b71c1c; font-weight: bold; }
.rummy-message .rummy-notice { color: #1b5e20; }
.rummy-log { max-height: 14em; overflow-y: auto; font-size: 90%;
  border: 1px solid #ccc; padding: 4px; background: #fafafa; }
.rummy-opponent { border: 1px solid #bbb; border-radius: 8px; padding: 4px 8px;
  margin: 2px; min-width: 7em; }
.rummy-opponent.rummy-current { border: 2px solid #1565c0; }
.rummy-hint-text { font-style: italic; }
.rummy-review { border: 2px solid #6a1b9a; border-radius: 8px; padding: 6px; }
.rummy-game-over { border: 3px solid #2e7d32; border-radius: 8px; padding: 6px; }
</style>
"""


def esc(text: Any) -> str:
    """HTML-escape anything textual."""
    return html.escape(str(text), quote=True)


def friendly_error(exc: BaseException) -> str:
    """The message a learner sees for an exception: its own text, which in
    this kit says what was wrong and what is allowed."""
    text = str(exc) or type(exc).__name__
    return text[:1].upper() + text[1:]


def safe(method: F) -> F:
    """Wrap a handler so any exception becomes a message in the view
    (``self.show_error``), never a traceback in the page."""

    @functools.wraps(method)
    def wrapper(self: View, *args: Any, **kwargs: Any) -> Any:
        try:
            return method(self, *args, **kwargs)
        except Exception as exc:  # noqa: BLE001 - shown to the learner, by design
            self.show_error(exc)
            self.last_traceback = traceback.format_exc()
            return None

    return wrapper  # type: ignore[return-value]


def button(description: str, css: str, *, tooltip: str = "", style: str = "",
           icon: str = "", width: str | None = None) -> w.Button:
    """A button with a stable CSS class."""
    b = w.Button(description=description, tooltip=tooltip or description, button_style=style,
                 icon=icon)
    if width:
        b.layout.width = width
    b.add_class(css)
    return b


def html_box(css: str, value: str = "") -> w.HTML:
    """An HTML widget with a stable CSS class."""
    h = w.HTML(value=value)
    h.add_class(css)
    return h


class View:
    """Base of every view: a ``.widget`` root, a ``.message`` and display.

    Composition, not subclassing of ipywidgets: the root box is displayed in
    place of the object (``_repr_mimebundle_`` delegates to it).
    """

    widget: w.Box
    last_traceback: str | None = None

    def __init__(self) -> None:
        self.message = html_box("rummy-message")
        self._style = w.HTML(value=STYLE)
        self._style.layout.display = "none"

    def show_error(self, exc: BaseException | str) -> None:
        """Show an error in words in this view's message area."""
        text = exc if isinstance(exc, str) else friendly_error(exc)
        self.message.value = f"<span class='rummy-error' role='alert'>{esc(text)}</span>"

    def show_notice(self, text: str) -> None:
        """Show a neutral notice in the message area."""
        self.message.value = f"<span class='rummy-notice' role='status'>{esc(text)}</span>" \
            if text else ""

    def clear_message(self) -> None:
        self.message.value = ""

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)

    def close(self) -> None:
        """Close the whole widget tree (front-end models included)."""
        _close_tree(self.widget)


def _close_tree(widget: Any) -> None:
    for child in getattr(widget, "children", ()) or ():
        _close_tree(child)
    widget.close()


def walk(widget: Any) -> list[Any]:
    """Every widget in the tree under ``widget`` (itself included)."""
    out = [widget]
    for child in getattr(widget, "children", ()) or ():
        out.extend(walk(child))
    return out


_VERB_FIXES = {"has": "have", "is": "are", "was": "were", "goes": "go", "does": "do"}
_YOU_VERB = re.compile(r"\bYou( \([^)]*\))? ([a-z]+)\b")


def second_person(line: str) -> str:
    """Make an engine log sentence about the seat named "You" read as English.

    The engines narrate every seat in the third person ("Ana draws"); for the
    learner's seat, called "You" by the tables, that would read "You draws".

    >>> second_person("You draws from the stock.")
    'You draw from the stock.'
    >>> second_person("Ben takes 7h from You's pile; You (captain) passes.")
    'Ben takes 7h from your pile; You (captain) pass.'
    >>> second_person("You has 3 cards and goes out.")
    'You have 3 cards and goes out.'
    """

    def fix(m: re.Match[str]) -> str:
        role, verb = m.group(1) or "", m.group(2)
        if verb in _VERB_FIXES:
            verb = _VERB_FIXES[verb]
        elif verb.endswith(("ches", "shes", "sses", "xes")):
            verb = verb[:-2]
        elif verb.endswith("s") and not verb.endswith("ss"):
            verb = verb[:-1]
        return f"You{role} {verb}"

    return _YOU_VERB.sub(fix, line.replace("You's", "your"))
