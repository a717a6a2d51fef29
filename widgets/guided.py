"""GuidedHand: a short guided game of a variant (one or two rounds), played by the learner with a guide.

A thin view over :class:`rummy.guided.Guide`, which owns the table and the
judging (the engine owns the rules): the view shows the situation in words,
the learner's cards, one button per move the engine allows now, a box to
type any other move (a wrong one gets its rule explained), *Hint*, the
feedback and the bots' turns in words.  Every button calls :meth:`try_move`.
"""

from __future__ import annotations

from typing import Any

import ipywidgets as w

from rummy.action import Action
from rummy.guided import Guide
from rummy.render import hand_svg
from widgets.progress import remember
from widgets.view import View, button, esc, html_box, safe, second_person

__all__ = ["GuidedHand"]

_TITLES = {"three_thirteen": "Three Thirteen", "tre_tretton": "Tre-tretton",
           "three_thirteen_jokers": "Three Thirteen with jokers", "big_table": "Big Table",
           "gin_three": "Gin for three"}
#: what a learner does after the guided hand: the lesson's next part
_NEXT = {"three_thirteen": "the rules one at a time, in the order of play, starting with the deal",
         "tre_tretton": "what tre-tretton's rule on natural cards changes",
         "three_thirteen_jokers": "the seats at the table and the jokers",
         "big_table": "the caller's rhythm, one call at a time",
         "gin_three": "the three seats, box, captain and advisor, and what each one does"}


class GuidedHand(View):
    """``GuidedHand(variant, *, seed=None)``: a guided hand of ``variant``
    (its chosen deal, :data:`rummy.guided.SCRIPTS`; with ``seed``, that seed's deal).

    ``try_move(action) -> bool`` (a good move is played; a wrong or weaker one
    is explained, with its rule id, and may be tried again), ``hint()`` (three
    steps: what to look at, the rule that decides and why, the move),
    ``feedback`` (the last sentence shown), ``done`` (the hand is over),
    ``guide`` (the :class:`rummy.guided.Guide` underneath).

    >>> g = GuidedHand("three_thirteen")
    >>> g.try_move("draw stock"), g.done
    (True, False)
    """

    def __init__(self, variant: str, *, seed: int | None = None) -> None:
        super().__init__()
        self.guide = Guide(variant, seed=seed)
        self.feedback = ""
        self._wrong_here = False  # a move was refused at this decision
        name = self.guide.variant.name
        self.title = html_box("rummy-title", f"<b>A guided hand: {esc(_TITLES.get(name, name))}</b>")
        self.situation = html_box("rummy-guided-situation")
        self.cards = html_box("rummy-guided-hand")
        self.moves = w.HBox(layout=w.Layout(flex_flow="row wrap"))
        self.moves.add_class("rummy-guided-moves")
        self.typed = w.Text(placeholder="or type a move, e.g. draw stock", continuous_update=False)
        self.typed.add_class("rummy-guided-input")
        self.play_typed = button("Play", "rummy-guided-play")
        self.play_typed.on_click(lambda _b: self.try_move(self.typed.value))
        self.hint_button = button("Hint", "rummy-hint", icon="lightbulb-o")
        self.hint_button.on_click(lambda _b: self.hint())
        self.feedback_view = html_box("rummy-guided-feedback")
        self.log = html_box("rummy-log")
        self.widget = w.VBox([self._style, self.title, self.situation, self.cards, self.moves,
                              w.HBox([self.typed, self.play_typed, self.hint_button]),
                              self.feedback_view, self.message, self.log])
        self.widget.add_class("rummy-guided")
        self.widget.add_class("rummy-root")
        self._render()

    @property
    def done(self) -> bool:
        """True once the guided hand is over."""
        return self.guide.done

    def _render(self) -> None:
        g = self.guide
        if g.done:
            self._render_done()
            return
        obs = g.observation()
        self.situation.value = f"<p>{esc(second_person(g.situation()))}</p>"
        self.cards.value = hand_svg(obs.hand, wild=g.rules(), title="your hand")
        buttons = []
        for action in g.legal():
            b = button(str(action), "rummy-guided-move")
            b.on_click(lambda _b, a=action: self.try_move(a))
            buttons.append(b)
        for old in self.moves.children:
            old.close()
        self.moves.children = tuple(buttons)
        self.typed.disabled = self.play_typed.disabled = self.hint_button.disabled = g.done
        lines = [second_person(line) for line in g.narration[-12:]]
        self.log.value = "<br>".join(esc(line) for line in lines)

    def _render_done(self) -> None:
        """The end: well done, how the hand ended and what comes next; not the
        next hand's cards under buttons that no longer work."""
        g = self.guide
        name = g.variant.name
        self.situation.value = (
            f"<p><b>Well done: you have played the guided hand to the end.</b> "
            f"{esc(second_person(g.summary()))}</p>"
            f"<p>Next: {esc(_NEXT.get(name, 'the rules of this game'))}, below.</p>")
        self.cards.value = ""
        for old in self.moves.children:
            old.close()
        self.moves.children = ()
        for control in (self.typed, self.play_typed, self.hint_button):
            control.disabled = True
            control.layout.display = "none"
        self.log.value = ""
        self.widget.add_class("rummy-guided-done")

    def _say(self, text: str, good: bool) -> None:
        self.feedback = second_person(text)
        css, role = ("rummy-quiz-right", "status") if good else ("rummy-quiz-wrong", "alert")
        self.feedback_view.value = f"<span class='{css}' role='{role}'>{esc(self.feedback)}</span>"

    def try_move(self, action: Action | str) -> bool:
        """Try the learner's move; True when it was played.  The move is kept
        in the learner's record (:mod:`rummy.progress`): a refused one under
        the rule that explains it, a good one under each rule that makes
        another move here weaker or wrong (a decision with no weaker move
        is not judged)."""
        asked, stake, mistakes = self._asked(), self._at_stake(), len(self.guide.mistakes)
        ok = bool(self._try(action))
        if ok:
            for rule in stake:
                remember(self, rule, asked, str(action), True, source="guided",
                         first=not self._wrong_here)
            self._wrong_here = False
        elif len(self.guide.mistakes) > mistakes and self.guide.mistakes[-1].rule:
            remember(self, self.guide.mistakes[-1].rule, asked, str(action), False,
                     source="guided", first=not self._wrong_here)
            self._wrong_here = True
        return ok

    def _asked(self) -> str:
        g = self.guide
        return "" if g.done else f"{_TITLES.get(g.variant.name, g.variant.name)}: " \
            f"{second_person(g.situation())}"

    def _at_stake(self) -> list[str]:
        """The rules this decision is judged by: those of the moves the guide
        calls weaker (or wrong) here."""
        g = self.guide
        if g.done:
            return []
        rules: dict[str, None] = {}
        try:
            for a in g.legal():
                verdict = g.judge(a)
                if not verdict.accepted and verdict.rule:
                    rules[verdict.rule] = None
        except Exception:  # noqa: BLE001 - judged again by try_move, which shows any error
            return []
        return list(rules)

    @safe
    def _try(self, action: Action | str) -> bool:
        self.clear_message()
        ok, text = self.guide.try_move(action)
        self._say(text, ok)
        self._render()
        return ok

    def hint(self) -> str:
        """Show and return the next step of the hint for the current decision
        (a question, then the rule that decides and why, then the move)."""
        text = self.guide.hint()
        step = self.guide.hint_step
        self._say(f"Hint {step} of 3: {text}" if step else text, True)
        return text

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)
