"""A quiz question as a small widget: type an answer, get feedback.

The checking is :mod:`rummy.teach`'s (answers compared by meaning); this
view only shows the question, a text box, a *Check* button and the
feedback, which names what was wrong and, when the answer given is a known
mistake, the hint written for that mistake.
"""

from __future__ import annotations

from typing import Any

import ipywidgets as w

from rummy.rulebook import rules_in
from rummy.teach import Hints, Question
from widgets.progress import remember
from widgets.view import View, button, esc, html_box

__all__ = ["Quiz", "exercise_book", "quiz_book", "unit_from"]


class Quiz(View):
    """``Quiz(question, answer, *, hints=..., hint="", why="", choices=(), digits=2, rule="")``.

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
                 why: str = "", choices: tuple[str, ...] | list[str] = (), digits: int = 2,
                 rule: str = "", unit: str | None = None) -> None:
        super().__init__()
        named = rules_in(question) or rules_in(why)
        self.rule = rule or (named[0] if named else "")
        self.question = Question(question, answer, hints=hints, hint=hint, why=why,
                                 choices=tuple(choices), digits=digits, unit=unit)
        self.solved = False
        self.right_feedback = ""
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
        """Check ``text``; show and keep the feedback; True when right.  An answer
        that can't be read says how to answer and is not counted as a try; once
        right, the right feedback stays shown."""
        if self.solved and (not str(text).strip() or self.question.is_right(text)):
            self._show(self.right_feedback, True)  # the right answer's feedback, again
            return True
        right, feedback = self.question.check(text)
        counted = self.question.readable(text)
        if self.rule and not self.solved and counted:
            remember(self, self.rule, self.question.text, text, right, source="quiz",
                     first=self.tries == 0)
        self.tries += counted
        if right and not self.solved:
            self.right_feedback = feedback
        self.solved = self.solved or right
        self._show(feedback, right)
        return right

    def _show(self, feedback: str, right: bool) -> None:
        self.feedback = feedback
        css = "rummy-quiz-right" if right else "rummy-quiz-wrong"
        role = "status" if right else "alert"
        self.feedback_view.value = f"<span class='{css}' role='{role}'>{esc(feedback)}</span>"


def answer_of(text: Any) -> Any:
    """A quiz file's answer: ``"Kd | Qs"`` is any of several (the first is the one
    shown, the others its synonyms); a student copy's ``{"salt": ..., "hashes": ...}``
    is a :class:`rummy.teach.Sealed` answer.

    >>> answer_of("Kd | Qs")
    AnyOf(answers=('Kd', 'Qs'))
    """
    from rummy.teach import AnyOf, Sealed

    if isinstance(text, dict):
        return Sealed.of(text)
    parts = [p.strip() for p in str(text).split(" | ")]
    return AnyOf(*parts) if len(parts) > 1 else parts[0]


def _answer(data: dict[str, Any]) -> Any:
    return answer_of(data["sealed"]) if "sealed" in data else answer_of(data["answer"])


def unit_from(data: dict[str, Any]) -> str:
    """What a number answering this quiz-file entry counts ("points", "cards",
    ...; "" when nothing says): the sealed answer's unit, else read from the
    question (:func:`rummy.teach.unit_of`), else from the units its right
    spellings carry ("19 points"), else from its hint.  A student copy keeps
    the unit with the sealed answer, so both copies read a number alike.

    >>> unit_from({"question": "", "answer": "19", "right": ["19 points"]})
    'points'
    """
    from rummy.teach import as_number, unit_of

    if "sealed" in data:
        return str(data["sealed"].get("unit") or unit_of(data.get("question", "")) or "")
    found = unit_of(data.get("question", ""))
    if found:
        return found
    for spelling in data.get("right", ()):
        if str(spelling).strip().endswith("%") and as_number(spelling) is not None:
            return "chance"
        unit = unit_of(f"how many {str(spelling).split(' ', 1)[-1]}") if as_number(spelling) is not None else None
        if unit and " " in str(spelling).strip():
            return unit
    return unit_of(data.get("hint", "")) or ""


def question_from(data: dict[str, Any]) -> Question:
    """The :class:`rummy.teach.Question` of one entry of a lesson's quiz file."""
    return Question(data.get("question", ""), _answer(data),
                    hints=[(answer_of(w), h) for w, h in data.get("hints", ())],
                    hint=data.get("hint", ""), why=data.get("why", ""),
                    choices=tuple(data.get("choices", ())), digits=int(data.get("digits", 2)),
                    unit=unit_from(data))


def quiz_from(data: dict[str, Any]) -> Quiz:
    """A :class:`Quiz` from one entry of a lesson's quiz file
    (``notebooks/quizzes/<lesson>.json``, written by ``scripts/build_lessons.py``)."""
    q = question_from(data)
    return Quiz(q.text, q.answer, hints=q.hints, hint=q.hint, why=q.why, choices=q.choices,
                digits=q.digits, rule=data.get("rule", ""), unit=q.unit)


def _entries(path: str, part: str) -> list[dict[str, Any]]:
    import json
    from pathlib import Path

    data = json.loads(Path(path).read_text(encoding="utf-8"))
    if isinstance(data, list):  # an older quiz file: a list of quizzes, no exercises
        data = {"quizzes": data, "exercises": []}
    return list(data.get(part, []))


def quiz_book(path: str, part: str = "quizzes") -> Any:
    """``quiz = quiz_book("quizzes/01_three_thirteen.json")``; then ``quiz(3)``
    shows the lesson's third quiz (numbered from 1).  With ``part="exercises"``
    it shows the lesson's exercises as answer boxes (what a lesson page, which
    has no code to edit, offers instead of ``check(1, answer)``)."""
    entries = _entries(path, part)
    word = part.rstrip("s")

    def quiz(number: int) -> Quiz:
        if not 1 <= number <= len(entries):
            raise IndexError(f"{word} {number}: this lesson has {part} 1 to {len(entries)}")
        return quiz_from(entries[number - 1])

    return quiz


def _record_exercise(number: int, q: Any, answer: Any, right: bool, *, first: bool) -> None:
    """Keep an exercise's answer in the learner's record (rummy.progress) under
    the rule its hint names; an exercise whose hint names none is not kept."""
    named = rules_in(q.hint) or rules_in(q.text)
    if named:
        remember(None, named[0], f"Exercise {number}", answer, right, source="exercise",
                 first=first)


def exercise_book(path: str) -> Any:
    """``check = exercise_book("quizzes/00_start_here.json")``; then
    ``check(1, answer)`` prints whether ``answer`` solves exercise 1, with a hint
    (for this wrong answer, or the exercise's own, naming the rule) when not, and
    keeps the answer in the learner's record (``check(1, answer, worked=True)``,
    a worked answer's cell, keeps nothing).
    The same checker as the quizzes (:mod:`rummy.teach`); it returns True when right.
    """
    entries = _entries(path, "exercises")
    tried: set[int] = set()

    def check(number: int, answer: Any, worked: bool = False) -> bool:
        if not 1 <= number <= len(entries):
            raise IndexError(f"exercise {number}: this lesson has exercises 1 to {len(entries)}")
        q = question_from(entries[number - 1])
        if answer is None:
            print(f"Exercise {number}: no answer yet. Hint: {q.hint}")
            return False
        right, feedback = q.check(answer)
        if right:
            print(f"Exercise {number}: right!")
        else:
            print(f"Exercise {number}: " + feedback[0].lower() + feedback[1:])
        if not worked and q.readable(answer):  # a worked answer's cell (worked=True) is not
            # the learner's, and an answer that can't be read is not a try
            _record_exercise(number, q, answer, right, first=number not in tried)
            tried.add(number)
        return right

    return check
