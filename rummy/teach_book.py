"""The lessons' quiz files and the drills, judged by the one checker
(:mod:`rummy.teach`): what a page may hold of a question, and the verdict
on an answer, wherever the answer is kept.

A lesson's quiz file (``notebooks/quizzes/<book>.json``, written by
``scripts/build_lessons.py``) holds, per quiz and exercise, the question,
its answer, the spellings and hints.  :func:`question_from` makes the
:class:`rummy.teach.Question` of an entry; :func:`student_entry` is what a
page may hold of it (the question, its choices, the kind of answer and its
general hint: no answer, no hash of one, no hint keyed by a wrong answer);
:func:`judge_entry` and :func:`judge_drill` give the :class:`Judgement` of
an answer: what the kit's server sends back to a page that holds no answer
(``POST /rummy/api/progress/answer``, :mod:`tableserver.progress_api`).

>>> entry = {"question": "How many cards in round 7 (TT-1)?", "answer": "9",
...          "hints": [["7", "That is the round's number."]], "hint": "Round 1 deals 3 (TT-1)."}
>>> student_entry(entry)
{'question': 'How many cards in round 7 (TT-1)?', 'choices': [], 'kind': 'number', 'unit': 'cards', 'hint': 'Round 1 deals 3 (TT-1).', 'rule': 'TT-1'}
>>> judge_entry(entry, "7")
Judgement(right=False, feedback="Not yet. That is the round's number.", counted=True, rule='TT-1', judged='rule', asked='How many cards in round 7 (TT-1)?')
>>> judge_entry(entry, "nine").right
True
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any, NamedTuple

from rummy.rulebook import rules_in
from rummy.teach import AnyOf, Question, Sealed, TeachError, as_number, unit_of

__all__ = ["Judgement", "answer_of", "unit_from", "question_from", "rule_of", "student_entry",
           "judge_entry", "judge_drill", "drill_rules", "answers_folder", "book_entry", "BOOK_PARTS",
           "ANSWERS_ENV"]

#: The parts of a quiz file.
BOOK_PARTS = ("quizzes", "exercises")
#: Where the kit's server finds the quiz files with their answers (default:
#: the kit's own ``notebooks/quizzes``).
ANSWERS_ENV = "RUMMY_ANSWERS"
#: A book's name: a lesson's file name without ``.json`` (``01_three_thirteen``).
_BOOK = re.compile(r"[0-9]{2}_[a-z0-9_]{1,60}")


class Judgement(NamedTuple):
    """The verdict on one answer: ``right``, the ``feedback`` the learner
    reads, whether it ``counted`` as a try (an answer that can't be read
    does not), the ``rule`` it is about ("" for none) and what it
    ``judged`` (``rule`` or ``play``); what was ``asked`` (the question, or
    the drill's position), as the record keeps it."""

    right: bool
    feedback: str
    counted: bool
    rule: str
    judged: str = "rule"
    asked: str = ""


def answer_of(text: Any) -> Any:
    """A quiz file's answer: ``"Kd | Qs"`` is any of several (the first is the one
    shown, the others its synonyms); an older student copy's ``{"salt": ...,
    "hashes": ...}`` is a :class:`rummy.teach.Sealed` answer.

    >>> answer_of("Kd | Qs")
    AnyOf(answers=('Kd', 'Qs'))
    """
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
    spellings carry ("19 points"), else from its hint.

    >>> unit_from({"question": "", "answer": "19", "right": ["19 points"]})
    'points'
    """
    if "sealed" in data:
        return str(data["sealed"].get("unit") or unit_of(data.get("question", "")) or "")
    if "unit" in data and "answer" not in data:  # a student entry says it
        return str(data["unit"] or "")
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
    """The :class:`rummy.teach.Question` of one entry of a lesson's quiz file
    (one with its answer: the kit's own copy, or an older sealed one)."""
    return Question(data.get("question", ""), _answer(data),
                    hints=[(answer_of(w), h) for w, h in data.get("hints", ())],
                    hint=data.get("hint", ""), why=data.get("why", ""),
                    choices=tuple(data.get("choices", ())), digits=int(data.get("digits", 2)),
                    unit=unit_from(data))


def rule_of(data: dict[str, Any], part: str = "quizzes") -> str:
    """The rule an entry's answers are kept under: a quiz's ``rule``, else the
    first rule its question (else its worked answer) names; an exercise's
    ``rule``, else the first its hint (else its question) names; "" for none.

    >>> rule_of({"question": "Who deals in round 2 (TT-3)?"})
    'TT-3'
    """
    if data.get("rule"):
        return str(data["rule"])
    if part == "exercises":
        named = rules_in(data.get("hint", "")) or rules_in(data.get("question", ""))
    else:
        named = rules_in(data.get("question", "")) or rules_in(data.get("why", ""))
    return named[0] if named else ""


def student_entry(data: dict[str, Any], part: str = "quizzes") -> dict[str, Any]:
    """What a page may hold of a quiz-file entry: its question, its choices,
    the kind of answer asked (for the text box's example), the unit a number
    counts, its general hint and its rule; never the answer, a hash of it,
    the spellings, the worked answer or the hints keyed by wrong answers."""
    q = question_from(data)
    return {"question": q.text, "choices": list(q.choices), "kind": q.kind,
            "unit": q.unit or "", "hint": q.hint, "rule": rule_of(data, part)}


def judge_entry(data: dict[str, Any], given: Any, part: str = "quizzes") -> Judgement:
    """The verdict of the one checker on ``given`` for a quiz-file entry
    (one with its answer)."""
    q = question_from(data)
    right, feedback = q.check(given)
    return Judgement(right, feedback, bool(q.readable(given)), rule_of(data, part), "rule",
                     q.text)


def judge_drill(rule: str, seed: int, given: Any, variant: str | None = None) -> Judgement:
    """The verdict on ``given`` for the drill of ``rule`` dealt from ``seed``
    (:func:`rummy.practice.drill`: the same position each time), from
    ``variant`` when a lesson asked for one (a ValueError if it can't be).

    >>> judge_drill("TT-1", 3, "1").right
    False
    """
    from rummy import practice

    d = practice.drill(rule, seed, variant=variant)
    f = d.check(given)
    return Judgement(bool(f.right), f.text, bool(f.counted), d.rule, f.judged, d.question)


def drill_rules() -> frozenset[str]:
    """The rule ids that have drills (:func:`rummy.practice.generators`)."""
    from rummy import practice

    return frozenset(practice.generators())


def answers_folder() -> Path:
    """Where the quiz files with their answers are: ``$RUMMY_ANSWERS``, else
    the kit's own ``notebooks/quizzes``."""
    given = os.environ.get(ANSWERS_ENV)
    return Path(given) if given else Path(__file__).resolve().parents[1] / "notebooks" / "quizzes"


_books: dict[Path, tuple[float, dict[str, Any]]] = {}


def book_entry(book: Any, part: Any, number: Any, folder: Path | None = None
               ) -> dict[str, Any]:
    """Entry ``number`` (from 1) of ``part`` of the quiz file ``book``
    (``01_three_thirteen``) in ``folder`` (default :func:`answers_folder`);
    a :class:`rummy.teach.TeachError` says what was wrong and what is allowed.

    >>> book_entry("../etc/passwd", "quizzes", 1)
    Traceback (most recent call last):
    ...
    rummy.teach.TeachError: unknown book '../etc/passwd': a lesson's quiz file, such as 01_three_thirteen
    """
    if not isinstance(book, str) or not _BOOK.fullmatch(book):
        raise TeachError(f"unknown book {str(book)[:40]!r}: a lesson's quiz file, such as "
                         "01_three_thirteen")
    if part not in BOOK_PARTS:
        raise TeachError(f"unknown part {str(part)[:20]!r}: one of {', '.join(BOOK_PARTS)}")
    path = (folder or answers_folder()) / f"{book}.json"
    try:
        stamp = path.stat().st_mtime
    except OSError:
        raise TeachError(f"unknown book {book!r}: a lesson's quiz file, such as "
                         "01_three_thirteen") from None
    known = _books.get(path)
    if known is None or known[0] != stamp:
        data = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(data, list):  # an older quiz file: quizzes only
            data = {"quizzes": data, "exercises": []}
        known = _books[path] = (stamp, data)
    entries = list(known[1].get(part, []))
    if isinstance(number, bool) or not isinstance(number, int) or \
            not 1 <= number <= len(entries):
        raise TeachError(f"{part[:-1] if part == 'exercises' else 'quiz'} "
                         f"{str(number)[:10]}: {book} has {part} 1 to {len(entries)}")
    entry = entries[number - 1]
    if "answer" not in entry and "sealed" not in entry:
        raise TeachError(f"{book} holds no answers here (a student copy): the kit's server "
                         "judges with its own copy")
    return dict(entry)
