"""A quiz question as a small widget: type an answer, get feedback.

The checking is :mod:`rummy.teach`'s (answers compared by meaning); this
view only shows the question, a text box, a *Check* button and the
feedback, which names what was wrong and, when the answer given is a known
mistake, the hint written for that mistake.
"""

from __future__ import annotations

from typing import Any

import ipywidgets as w

from rummy.teach import Hints, Question
from widgets._common import View, button, esc, html_box
from widgets.progress import remember

__all__ = ["Quiz"]


class Quiz(View):
    """``Quiz(question, answer, *, hints=..., hint="", why="", choices=(), rule="")``.

    ``answer`` is what :func:`rummy.teach.same_answer` compares with (a card,
    a number, True/False, a named choice, or ``AnyOf(...)``); ``hints`` maps
    wrong answers to hints; ``choices`` (optional) lists the named choices
    offered, shown as buttons.  ``answer(text) -> bool`` checks an answer as
    the *Check* button does, and ``feedback`` is the text last shown.
    Each answer until the right one is kept in the learner's record
    (:mod:`rummy.progress`) under ``rule``, by default the first rule id
    the question names (else its worked answer); a quiz naming no rule is
    not recorded.

    >>> q = Quiz("Which pile may you take from?", "discard pile", choices=("stock", "discard pile"))
    >>> q.answer("Discard Pile"), q.feedback
    (True, 'Right: discard pile.')
    """

    def __init__(self, question: str, answer: Any, *, hints: Hints = (), hint: str = "",
                 why: str = "", choices: tuple[str, ...] | list[str] = (), rule: str = "") -> None:
        super().__init__()
        from rummy.progress import rules_in

        named = rules_in(question) or rules_in(why)
        self.rule = rule or (named[0] if named else "")
        self.question = Question(question, answer, hints=hints, hint=hint, why=why,
                                 choices=tuple(choices))
        self.solved = False
        self.tries = 0
        self.feedback = ""
        self.text = html_box("rummy-quiz-question", f"<b>{esc(question)}</b>")
        self.input = w.Text(placeholder=self._placeholder(), continuous_update=False)
        self.input.add_class("rummy-quiz-input")
        self.check_button = button("Check", "rummy-quiz-check", style="primary")
        self.check_button.on_click(lambda _b: self.answer(self.input.value))
        self.choice_buttons = []
        for choice in choices:
            b = button(str(choice), "rummy-quiz-choice")
            b.on_click(lambda _b, c=choice: self._choose(c))
            self.choice_buttons.append(b)
        self.feedback_view = html_box("rummy-quiz-feedback")
        rows: list[w.Widget] = [self._style, self.text]
        if self.choice_buttons:
            rows.append(w.HBox(self.choice_buttons, layout=w.Layout(flex_flow="row wrap")))
        else:
            rows.append(w.HBox([self.input, self.check_button]))
        rows += [self.feedback_view, self.message]
        self.widget = w.VBox(rows)
        self.widget.add_class("rummy-quiz")
        self.widget.add_class("rummy-root")

    def _placeholder(self) -> str:
        return {"card": "a card, e.g. 8h or eight of hearts", "cards": "cards, e.g. 7h 8h 9h",
                "number": "a number or a fraction", "yes/no": "yes or no"}.get(
                    self.question.kind, "your answer")

    def _choose(self, choice: str) -> None:
        self.input.value = choice
        self.answer(choice)

    def answer(self, text: Any) -> bool:
        """Check ``text``; show and keep the feedback; True when right."""
        right, feedback = self.question.check(text)
        if self.rule and not self.solved and str(text).strip():
            remember(self, self.rule, self.question.text, text, right, source="quiz",
                     first=self.tries == 0)
        self.tries += 1
        self.solved = self.solved or right
        self.feedback = feedback
        css = "rummy-quiz-right" if right else "rummy-quiz-wrong"
        role = "status" if right else "alert"
        self.feedback_view.value = f"<span class='{css}' role='{role}'>{esc(feedback)}</span>"
        return right


def answer_of(text: str) -> Any:
    """A quiz file's answer text: ``"Kd | Qs"`` is any of several.

    >>> answer_of("Kd | Qs")
    AnyOf(answers=('Kd', 'Qs'))
    """
    from rummy.teach import AnyOf

    parts = [p.strip() for p in str(text).split(" | ")]
    return AnyOf(*parts) if len(parts) > 1 else parts[0]


def quiz_from(data: dict[str, Any]) -> Quiz:
    """A :class:`Quiz` from one entry of a lesson's quiz file
    (``notebooks/quizzes/<lesson>.json``, written by ``scripts/build_lessons.py``)."""
    return Quiz(data["question"], answer_of(data["answer"]),
                hints=[(answer_of(w), h) for w, h in data.get("hints", ())],
                hint=data.get("hint", ""), why=data.get("why", ""),
                choices=tuple(data.get("choices", ())), rule=data.get("rule", ""))


def quiz_book(path: str) -> Any:
    """``quiz = quiz_book("quizzes/01_three_thirteen.json")``; then ``quiz(3)``
    shows the lesson's third quiz (numbered from 1)."""
    import json
    from pathlib import Path

    entries = json.loads(Path(path).read_text(encoding="utf-8"))

    def quiz(number: int) -> Quiz:
        if not 1 <= number <= len(entries):
            raise IndexError(f"quiz {number}: this lesson has quizzes 1 to {len(entries)}")
        return quiz_from(entries[number - 1])

    return quiz
