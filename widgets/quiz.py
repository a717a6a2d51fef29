"""A quiz question as a small widget: type an answer, get feedback.

The checking is :mod:`rummy.teach`'s (answers compared by meaning); this
view only shows the question, a text box, a *Check* button and the
feedback, which names what was wrong and, when the answer given is a known
mistake, the hint written for that mistake.

Where the kit's server runs (``make app``, ``make classroom``, a
JupyterHub), a lesson's quizzes and exercises are judged there
(:func:`quiz_book`, :func:`exercise_book`): the kernel and the page hold
the question only (:func:`rummy.teach_book.student_entry`), send the answer
and show the server's verdict, which the server keeps in the learner's
record.  Without a server the quiz is a self-check, judged in the kernel,
and says so.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import ipywidgets as w

from rummy.rulebook import rules_in
from rummy.teach import Hints, Question
from rummy.teach_book import answer_of, question_from, student_entry, unit_from
from widgets.progress import judge_remotely, remember, server_judging
from widgets.view import View, button, esc, html_box

__all__ = ["Quiz", "exercise_book", "quiz_book", "unit_from", "answer_of", "question_from",
           "SELF_CHECK", "SERVER_CHECK"]

#: What a quiz says of how it is judged: in the learner's own kernel ...
SELF_CHECK = "A self-check: your answer is checked on this computer."
#: ... or by the kit's server, which holds the answer where the page can't read it.
SERVER_CHECK = "Checked by the kit's server, which keeps your answer in your record."
#: The placeholder of the answer box, by the kind of answer asked.
_PLACEHOLDERS = {"card": "a card, e.g. 8h or eight of hearts", "cards": "cards, e.g. 7h 8h 9h",
                 "number": "a number or a fraction", "yes/no": "yes or no"}


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

    With ``judge`` (and ``answer`` None) the quiz holds no answer: each
    answer goes to ``judge(text)``, which answers the server's verdict
    (``{"right", "feedback", "counted", ...}``, or None when there is none),
    and the server keeps it; ``kind`` says what kind of answer is asked
    (for the box's example).

    >>> q = Quiz("Which pile may you take from?", "discard pile", choices=("stock", "discard pile"))
    >>> q.answer("Discard Pile"), q.feedback
    (True, 'Right: discard pile.')
    """

    def __init__(self, question: str, answer: Any, *, hints: Hints = (), hint: str = "",
                 why: str = "", choices: tuple[str, ...] | list[str] = (), digits: int = 2,
                 rule: str = "", unit: str | None = None,
                 judge: Callable[[str], dict[str, Any] | None] | None = None,
                 kind: str = "") -> None:
        super().__init__()
        named = rules_in(question) or rules_in(why)
        self.rule = rule or (named[0] if named else "")
        self.judge = judge
        self.question: Question | None = None
        if judge is None:
            self.question = Question(question, answer, hints=hints, hint=hint, why=why,
                                     choices=tuple(choices), digits=digits, unit=unit)
            kind = self.question.kind
        self.kind = kind
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
        self.how = html_box("rummy-quiz-how", "<small>" + esc(
            SERVER_CHECK if judge is not None else SELF_CHECK) + "</small>")
        rows += [self.feedback_view, self.how, self.message]
        self.widget = w.VBox(rows)
        self.widget.add_class("rummy-quiz")
        self.widget.add_class("rummy-root")

    def _placeholder(self) -> str:
        return _PLACEHOLDERS.get(self.kind, "your answer")

    def _choose(self, choice: str) -> None:
        self.input.value = choice
        self.answer(choice)

    def answer(self, text: Any) -> bool:
        """Check ``text``; show and keep the feedback; True when right.  An answer
        that can't be read says how to answer and is not counted as a try; once
        right, the right feedback stays shown."""
        if self.judge is not None:
            return self._judged_remotely(text)
        assert self.question is not None
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

    def _judged_remotely(self, text: Any) -> bool:
        """The server judges ``text`` (and keeps it): this quiz holds no answer."""
        given = str(text).strip() if text is not None else ""
        if not given:
            if self.solved:
                self._show(self.right_feedback, True)
                return True
            self._show("Write your answer first.", False)
            return False
        self.clear_message()
        verdict = self.judge(given) if self.judge is not None else None
        if verdict is None:  # nobody named yet, or no server: the view says why
            return False
        right = bool(verdict.get("right"))
        feedback = str(verdict.get("feedback", ""))
        self.tries += bool(verdict.get("counted"))
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


def quiz_from(data: dict[str, Any]) -> Quiz:
    """A :class:`Quiz` from one entry of a lesson's quiz file
    (``notebooks/quizzes/<lesson>.json``, written by ``scripts/build_lessons.py``),
    a self-check judged in this kernel."""
    if "answer" not in data and "sealed" not in data:
        raise ValueError("this quiz file holds no answers (a student copy): its quizzes are "
                         "checked by the kit's server; start the kit with `make app`")
    q = question_from(data)
    return Quiz(q.text, q.answer, hints=q.hints, hint=q.hint, why=q.why, choices=q.choices,
                digits=q.digits, rule=data.get("rule", ""), unit=q.unit)


def _public(data: dict[str, Any], part: str) -> dict[str, Any]:
    """What the page may hold of an entry (a student copy's entry is that already)."""
    return student_entry(data, part) if "answer" in data or "sealed" in data else dict(data)


def judged_quiz(book: str, part: str, number: int, data: dict[str, Any]) -> Quiz:
    """Quiz ``number`` of ``part`` of the lesson ``book``, judged by the kit's
    server: the quiz holds the question only (:func:`rummy.teach_book.student_entry`)."""
    public = _public(data, part)
    quiz: Quiz

    def judge(text: str) -> dict[str, Any] | None:
        return judge_remotely(quiz, {"book": book, "part": part, "number": number,
                                     "answer": text})

    quiz = Quiz(public["question"], None, choices=tuple(public.get("choices", ())),
                rule=public.get("rule", ""), judge=judge, kind=public.get("kind", ""))
    return quiz


def _book(path: str) -> str:
    from pathlib import Path

    return Path(path).stem


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
    remote = server_judging()

    def quiz(number: int) -> Quiz:
        if not 1 <= number <= len(entries):
            raise IndexError(f"{word} {number}: this lesson has {part} 1 to {len(entries)}")
        if remote:
            return judged_quiz(_book(path), part, number, entries[number - 1])
        return quiz_from(entries[number - 1])

    return quiz


def _record_exercise(number: int, q: Any, answer: Any, right: bool, *, first: bool) -> None:
    """Keep an exercise's answer in the learner's record (rummy.progress) under
    the rule its hint names; an exercise whose hint names none is not kept."""
    named = rules_in(q.hint) or rules_in(q.text)
    if named:
        remember(None, named[0], f"Exercise {number}", answer, right, source="exercise",
                 first=first)


def as_text(answer: Any) -> str:
    """An answer written as text, as the server's judge takes it: a card or
    a number as written, cards one after another, True/False as yes/no.

    >>> from rummy.cards import Card
    >>> as_text([Card.parse("7h"), Card.parse("8h")]), as_text(True), as_text(14)
    ('7h 8h', 'yes', '14')
    """
    if isinstance(answer, str):
        return answer
    if isinstance(answer, bool):
        return "yes" if answer else "no"
    if isinstance(answer, list | tuple | set | frozenset):
        return " ".join(str(a) for a in answer)
    return str(answer)


class _Printed:
    """Where a code cell's exercise check says why it could not be judged."""

    @staticmethod
    def show_notice(text: str) -> None:
        print(text)

    @staticmethod
    def show_error(text: Any) -> None:
        print(text)


def exercise_book(path: str) -> Any:
    """``check = exercise_book("quizzes/00_start_here.json")``; then
    ``check(1, answer)`` prints whether ``answer`` solves exercise 1, with a hint
    (for this wrong answer, or the exercise's own, naming the rule) when not, and
    keeps the answer in the learner's record (``check(1, answer, worked=True)``,
    a worked answer's cell, keeps nothing).
    The same checker as the quizzes (:mod:`rummy.teach`); it returns True when right.
    Where the kit's server runs, it judges the answer and keeps it (this
    kernel needs no answer); elsewhere the check is a self-check.
    """
    entries = _entries(path, "exercises")
    tried: set[int] = set()
    remote = server_judging()

    def check(number: int, answer: Any, worked: bool = False) -> bool:
        if not 1 <= number <= len(entries):
            raise IndexError(f"exercise {number}: this lesson has exercises 1 to {len(entries)}")
        data = entries[number - 1]
        if answer is None:
            print(f"Exercise {number}: no answer yet. Hint: {_public(data, 'exercises')['hint']}")
            return False
        if remote and not worked:  # the server judges and keeps it
            verdict = judge_remotely(_Printed(), {"book": _book(path), "part": "exercises",
                                                  "number": number, "answer": as_text(answer)})
            if verdict is None:
                return False
            right, feedback = bool(verdict["right"]), str(verdict["feedback"])
        else:
            q = question_from(data)
            right, feedback = q.check(answer)
        if right:
            print(f"Exercise {number}: right!")
        else:
            print(f"Exercise {number}: " + feedback[0].lower() + feedback[1:])
        if not remote and not worked and q.readable(answer):  # a worked answer's cell
            # (worked=True) is not the learner's, and an answer that can't be read is not a try
            _record_exercise(number, q, answer, right, first=number not in tried)
            tried.add(number)
        return right

    return check
