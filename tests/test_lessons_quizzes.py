"""The lessons' quizzes and exercises, and the student copies.

Every quiz and exercise of every lesson is answered right in its answer's own
spelling and in at least two more (its ``right:`` line), and wrong with each of
its ``wrong:`` answers, which must get the hint written for them; any other
wrong answer gets the question's general hint, which names a rule id.  The
same holds for the sealed copy of each answer that a student copy carries.
The answer files the notebooks read (``notebooks/quizzes/*.json``) must be
those of the sources, every lesson 01-05 opens with a guided hand, and the
student copies carry no answer in any form.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

from rummy.teach import kind_of, seal, show_answer
from widgets.quiz import answer_of, exercise_book, question_from, quiz_from

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
import build_lessons  # noqa: E402
import student_copy  # noqa: E402

SOURCES = ROOT / "scripts" / "lessons"
NOTEBOOKS = ROOT / "notebooks"
GUIDED = {"01_three_thirteen": "three_thirteen", "02_tre_tretton": "tre_tretton",
          "03_three_thirteen_jokers": "three_thirteen_jokers", "04_big_table": "big_table",
          "05_gin_three": "gin_three"}
STEMS = sorted(p.stem for p in SOURCES.glob("0*.txt"))
RULE_ID = re.compile(r"\b[A-Z]{1,2}-\d+[a-z]?\b")


def _questions(part: str) -> list[tuple[str, int, dict]]:
    out = []
    for stem in STEMS:
        data = build_lessons.questions_of((SOURCES / f"{stem}.txt").read_text(encoding="utf-8"))
        out += [(stem, n, q) for n, q in enumerate(data[part], 1)]
    return out


QUIZZES = _questions("quizzes")
EXERCISES = _questions("exercises")
EVERY = [("quiz", *q) for q in QUIZZES] + [("exercise", *q) for q in EXERCISES]
IDS = [f"{s}-{kind}{n}" for kind, s, n, _ in EVERY]


def cells(stem: str) -> list[dict]:
    return json.loads((NOTEBOOKS / f"{stem}.ipynb").read_text(encoding="utf-8"))["cells"]


def a_wrong_answer(entry: dict) -> str:
    """A wrong answer no hint foresaw, of the right kind."""
    kinds = [kind_of(a) for a in (answer_of(entry["answer"]).answers
                                  if " | " in entry["answer"] else [entry["answer"]])]
    return {"number": "997", "card": "2c" if "2c" not in entry["answer"].lower() else "3d",
            "cards": "2c 3c 4c", "yes/no": "maybe not"}.get(kinds[0], "somebody else entirely")


@pytest.mark.parametrize("kind,stem,number,entry", EVERY, ids=IDS)
def test_every_question_takes_right_answers_and_refuses_wrong_ones(kind: str, stem: str, number: int,
                                                                    entry: dict) -> None:
    """Right in three spellings (two more than the answer's own), wrong with each
    foreseen answer (its own hint) and with an unforeseen one (the general hint,
    naming a rule id): by the teacher's answer and by the student copy's seal."""
    assert len(entry["right"]) >= 2, "two more spellings of the right answer"
    assert entry["hints"], "at least one wrong answer with its own hint"
    # a question on play, not on a rule (which AI player remembers the discards), names
    # no rule: neither its hint nor its worked answer
    on_play = kind == "quiz" and not RULE_ID.search(entry["why"] + entry["question"])
    assert on_play or RULE_ID.search(entry["hint"]), f"the general hint names no rule id: {entry['hint']!r}"
    assert kind == "exercise" or entry["why"], "a worked answer"
    rights = entry["right"] + [entry["answer"].split(" | ")[0]]
    sealed = student_copy.sealed_entry(entry)
    assert "answer" not in sealed and "right" not in sealed and "why" not in sealed
    for q in (question_from(entry), question_from(sealed)):
        for right in rights:
            assert q.check(right)[0], right
        for wrong, hint in entry["hints"]:
            assert q.check(wrong) == (False, f"Not yet. {hint}"), wrong
        other = a_wrong_answer(entry)
        right_, feedback = q.check(other)
        assert not right_ and entry["hint"] in feedback, (other, feedback)


def test_every_lesson_has_quizzes_and_exercises() -> None:
    assert {s for s, _n, _q in QUIZZES} == set(STEMS)  # 00, 06 and 07 too
    assert {s for s, _n, _q in EXERCISES} == set(STEMS)


def test_06_asks_chances_as_fraction_decimal_or_percentage() -> None:
    chances = [q for s, _n, q in QUIZZES if s == "06_meld_odds"]
    assert len(chances) >= 2
    for q in chances:
        widget = quiz_from(q)
        spellings = q["right"]
        assert q.get("digits") == 3, "the question states its rounding"
        assert any("/" in r for r in spellings + [q["answer"]])
        assert any(re.fullmatch(r"0\.\d+", r) for r in spellings)
        assert any(r.endswith("%") for r in spellings)
        assert all(widget.answer(r) for r in spellings)
    # the one-draw chance for the five-draw question gets its own hint
    five = quiz_from(next(q for q in chances if "5 draws" in q["question"]))
    assert not five.answer("2/40") and "one draw" in five.feedback
    assert not five.answer("0.24")  # two significant digits, where the question asks for three


#: answers as learners write them, per question: (lesson, quiz number, right answers in
#: other words, wrong answers that look like right ones)
AS_WRITTEN = [
    ("01_three_thirteen", 8, ["10 points"], []),
    ("01_three_thirteen", 4, ["5 and 6 of spades", "five and six of spades"], ["5 and 6 of hearts"]),
    ("01_three_thirteen", 1, ["9 cards"], []),
    ("01_three_thirteen", 11, ["2 packs"], []),
    ("01_three_thirteen", 3, ["9 clubs"], []),
    ("01_three_thirteen", 6, ["K clubs"], []),
    ("01_three_thirteen", 10, ["no-one", "no winner", "it's a tie"], ["0", "zero", "nothing"]),
    ("02_tre_tretton", 6, ["bjorn"], []),
    ("03_three_thirteen_jokers", 1, ["the player on my left"], []),
    ("03_three_thirteen_jokers", 6, ["Q-K-A", "Q♥-K♥-A♥"], ["A-2-3"]),
    ("04_big_table", 3, ["right neighbor", "my right neighbour"], ["yes", "y", "true"]),
    ("04_big_table", 4, ["call match"], []),
    ("04_big_table", 10, ["no-one", "no winner", "it's a tie"], ["0", "zero", "nothing"]),
    ("05_gin_three", 4, ["the box player"], []),
    ("05_gin_three", 5, ["Q hearts"], []),
]
#: exercises' right answers as learners write them: (lesson, exercise number, right answers)
EXERCISES_AS_WRITTEN = [
    ("00_start_here", 1, ["nineteen", "19"]), ("00_start_here", 2, ["8♥", "eight of hearts"]),
    ("01_three_thirteen", 2, ["8♥", "eight of hearts"]), ("02_tre_tretton", 2, ["four"]),
    ("06_meld_odds", 1, ["52/22100", "0.00235"]), ("06_meld_odds", 3, ["34/90"]),
]


@pytest.mark.parametrize("stem,number,rights,wrongs", AS_WRITTEN, ids=[f"{s}-{n}" for s, n, _r, _w in AS_WRITTEN])
def test_quizzes_take_answers_as_learners_write_them(stem: str, number: int, rights: list[str], wrongs: list[str]) -> None:
    entry = next(q for s, n, q in QUIZZES if s == stem and n == number)
    for q in (question_from(entry), question_from(student_copy.sealed_entry(entry))):
        for right in rights:
            assert q.check(right)[0], right
        for wrong in wrongs:
            assert not q.check(wrong)[0], wrong


@pytest.mark.parametrize("stem,number,rights", EXERCISES_AS_WRITTEN,
                         ids=[f"{s}-{n}" for s, n, _r in EXERCISES_AS_WRITTEN])
def test_exercises_take_answers_as_learners_write_them(stem: str, number: int, rights: list[str],
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    check = exercise_book(str(NOTEBOOKS / "quizzes" / f"{stem}.json"))
    for right in rights:
        assert check(number, right), right
    assert capsys.readouterr().out.count(f"Exercise {number}: right!") == len(rights)
    assert not check(number, "997")
    assert "Hint:" in capsys.readouterr().out


def test_exercise_book_prints_a_hint_for_no_answer(capsys: pytest.CaptureFixture[str]) -> None:
    check = exercise_book(str(NOTEBOOKS / "quizzes" / "01_three_thirteen.json"))
    assert not check(1, None)
    out = capsys.readouterr().out
    assert out.startswith("Exercise 1: no answer yet. Hint: ") and RULE_ID.search(out)
    with pytest.raises(IndexError, match="exercises 1 to 3"):
        check(9, "x")


@pytest.mark.parametrize("stem", list(GUIDED))
def test_a_quiz_after_every_rule_group(stem: str) -> None:
    text = (SOURCES / f"{stem}.txt").read_text(encoding="utf-8")
    quizzes = [q for s, _n, q in QUIZZES if s == stem]
    # a quiz closes each group: every rule section holds one, except the overview
    # that sets the two Three-Thirteen variants side by side (its rules are quizzed
    # in the sections after it)
    body = text.split("## Exercises")[0]
    for part in re.split(r"^## ", body, flags=re.MULTILINE)[1:]:
        head = part.splitlines()[0]
        if head.startswith(("Play first", "The two variants side by side", "At other tables",
                            "How to play well")):
            continue
        assert "%% quiz" in part, f"{stem}: no quiz after the section {head!r}"
    # most ask for a card, a number or a choice, not yes/no
    kinds = [kind_of(answer_of(q["answer"])) for q in quizzes]
    assert kinds.count("yes/no") * 4 <= len(kinds)
    assert {"card", "number"} & set(kinds)


@pytest.mark.parametrize("stem", STEMS)
def test_quiz_file_is_the_sources_and_every_quiz_is_in_the_notebook(stem: str) -> None:
    text = (SOURCES / f"{stem}.txt").read_text(encoding="utf-8")
    saved = json.loads((NOTEBOOKS / "quizzes" / f"{stem}.json").read_text(encoding="utf-8"))
    assert saved == build_lessons.questions_of(text)
    code = ["".join(c["source"]) for c in cells(stem) if c["cell_type"] == "code"]
    assert [c for c in code if re.fullmatch(r"quiz\(\d+\)", c)] == [
        f"quiz({n})" for n in range(1, len(saved["quizzes"]) + 1)]
    assert f'check = exercise_book("quizzes/{stem}.json")' in "\n".join(code)
    # the answers are not in the notebook's code (but in the folded worked answers)
    shown = [c for c in cells(stem) if "worked-answer" not in c.get("metadata", {}).get("tags", [])]
    visible = "\n".join("".join(c["source"]) for c in shown if c["cell_type"] == "code")
    assert "ANSWERS" not in visible and "hashlib" not in visible


@pytest.mark.parametrize("stem", list(GUIDED))
def test_lesson_opens_with_a_guided_hand(stem: str) -> None:
    all_cells = cells(stem)
    code = ["".join(c["source"]) for c in all_cells if c["cell_type"] == "code"]
    first_widget = next(i for i, c in enumerate(code) if "widgets." in c)
    assert f'widgets.GuidedHand("{GUIDED[stem]}")' in code[first_widget]
    headings = [("".join(c["source"])) for c in all_cells if c["cell_type"] == "markdown"
                and "".join(c["source"]).startswith("## ")]
    assert headings[0].startswith("## Play first: a guided hand")


@pytest.mark.parametrize("stem", STEMS)
def test_answer_boxes_show_the_answer_not_the_checkers_alternatives(stem: str) -> None:
    """The folded answer under quiz N starts with its answer, shown once."""
    all_cells = cells(stem)
    quizzes = [q for s, _n, q in QUIZZES if s == stem]
    boxes = [c for i, c in enumerate(all_cells) if i and re.fullmatch(
        r"quiz\(\d+\)", "".join(all_cells[i - 1]["source"]))]
    assert len(boxes) == len(quizzes)
    for box, q in zip(boxes, quizzes, strict=True):
        body = "".join(box["source"]).split("</summary>\n\n", 1)[1]
        first = show_answer(q["answer"].split(" | ")[0])
        assert body.startswith(f"**{first}**. "), body[:60]
        assert " or " not in body.split("**. ")[0]


@pytest.mark.parametrize("stem", STEMS)
def test_worked_answers_fold_away_with_their_outputs_and_student_copy_drops_them(stem: str) -> None:
    """A worked answer's code cell folds its output too ("right!")."""
    import nbformat

    nb = nbformat.read(NOTEBOOKS / f"{stem}.ipynb", as_version=4)
    worked = [c for c in nb.cells if "worked-answer" in c.metadata.get("tags", [])]
    assert worked
    for c in worked:
        if c.cell_type == "markdown":
            assert c.source.startswith('<details class="worked-answer">') and c.source.endswith("</details>")
        else:
            assert c.metadata["jupyter"] == {"source_hidden": True, "outputs_hidden": True}
    right_outputs = [c for c in nb.cells if c.cell_type == "code" and "right!" in json.dumps(c.get("outputs", []))]
    assert right_outputs and all(c in worked for c in right_outputs)
    copy = student_copy.student_copy(nb)
    assert not [c for c in copy.cells if student_copy.is_worked(c)]
    text = json.dumps(copy)
    assert "<details" not in text and "Worked answer" not in text and "right!" not in text
    # and the prose no longer promises folded answers
    prose = "\n".join(c.source for c in copy.cells if c.cell_type == "markdown").lower()
    assert "folded" not in prose and "click to open" not in prose and "worked answer" not in prose
    assert text.count("quiz(") >= len([q for s, _n, q in QUIZZES if s == stem])


def _answer_forms(entry: dict) -> list[str]:
    """Every written form of an answer: its spellings (the checker's synonyms too)."""
    return [f.strip() for f in entry["answer"].split(" | ") + entry["right"] if f.strip()]


def _mentions(text: str, form: str) -> bool:
    """``form`` occurs in ``text`` as a whole word or figure (any case)."""
    # (a rule id's number, the 2 of TT-2, is not a figure)
    return re.search(rf"(?<![\w/.-]){re.escape(form.lower())}(?![\w/]|\.\d)", text.lower()) is not None


def test_student_copy_carries_no_answer_in_any_form(tmp_path: Path) -> None:
    """``make student``: no quiz or exercise of a student copy's quiz files holds its
    answer in any spelling: not as a field, not in its hints (the question itself
    names the cards of a hand or the options to choose from, by design), nor a
    worked answer; the lessons hold no exercise answer call, worked answer or "right!"."""
    assert student_copy.main(["--out", str(tmp_path)]) == 0
    written = sorted(p.name for p in tmp_path.glob("*.ipynb"))
    assert written == sorted(p.name for p in NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))
    found = []
    for stem in STEMS:
        copy = json.loads((tmp_path / "quizzes" / f"{stem}.json").read_text(encoding="utf-8"))
        plain = json.loads((NOTEBOOKS / "quizzes" / f"{stem}.json").read_text(encoding="utf-8"))
        nb = (tmp_path / f"{stem}.ipynb").read_text(encoding="utf-8")
        for part in ("quizzes", "exercises"):
            for s, p in zip(copy[part], plain[part], strict=True):
                # the question and how to answer it; no answer, no hash of one (a brute
                # force over a small space of answers finds nothing: there is nothing)
                assert set(s) == {"question", "choices", "kind", "unit", "hint", "rule"}, s
                assert s["question"] == p["question"] and s["hint"] == p["hint"]
                said = " ".join([s["hint"], s["kind"], s["unit"], s["rule"]])
                found += [(stem, part, form) for form in _answer_forms(p) if _mentions(said, form)]
                if p.get("why"):
                    assert p["why"] not in nb
                # nothing in it judges: the kit's server does, with its own copy
                with pytest.raises(ValueError, match="holds no answers"):
                    quiz_from(s)
        assert "right!" not in nb and "worked-answer" not in nb
        assert not re.search(r"check\(\d+, (\\\"|'|\d)", nb), "an exercise answered in the student copy"
    assert not found, found


def test_seal_is_salted_per_question() -> None:
    assert seal("8h")["salt"] != seal("8h")["salt"]


# --- words and pictures ------------------------------------------------------------------------

RULE_LINE = re.compile(r"^- ([A-Z]{1,2}-\d+[a-z]?)\s", re.MULTILINE)


def test_glossary_has_the_terms_with_anchors() -> None:
    text = (SOURCES / "00_start_here.txt").read_text(encoding="utf-8")
    for anchor in ("stock", "discard-pile", "dealer", "natural-card", "upcard", "gin", "undercut",
                   "outs", "meld", "wild", "deadwood"):
        assert f'<a id="{anchor}"></a>' in text, anchor


def test_words_used_link_to_anchors_that_exist() -> None:
    glossary = (SOURCES / "00_start_here.txt").read_text(encoding="utf-8")
    anchors = set(re.findall(r'<a id="([\w-]+)"></a>', glossary))
    links = 0
    for path in sorted(SOURCES.glob("0[1-7]*.txt")):
        for anchor in re.findall(r"\(00_start_here\.ipynb#([\w-]+)\)", path.read_text(encoding="utf-8")):
            assert anchor in anchors, (path.name, anchor)
            links += 1
    assert links >= 20


def test_source_text_glossary() -> None:
    text = (SOURCES / "00_start_here.txt").read_text(encoding="utf-8")
    for word in ("lagerhög", "skräphögen", "gå ut", "domkrafter", "trekstapel", "aflegstapel",
                 "kloppen", "jenever", "ondergraven", "in de doos"):
        assert word in text, word
    seeds = ROOT.parent / "shared" / "seeds"
    if seeds.is_dir():  # each quoted word really is in its source text
        originals = "\n".join(p.read_text(encoding="utf-8") for p in seeds.glob("*.txt"))
        for word in ("lagerhög", "skräphögen", "domkrafter", "jenever", "ondergraven", "aflegstapel"):
            assert word in originals, word


def test_every_rule_says_why_it_exists() -> None:
    rules = ROOT.parent / "shared" / "RULES.md"
    rules = rules if rules.exists() else ROOT / "docs" / "RULES.md"
    ids = list(dict.fromkeys(RULE_LINE.findall(rules.read_text(encoding="utf-8"))))
    whys = []
    for path in sorted(SOURCES.glob("0*.txt")):
        t = path.read_text(encoding="utf-8")
        whys += re.findall(r"\*\*Why these rules\.\*\*(.*?)(?:\n\n|\Z)", t, flags=re.DOTALL)
        whys += re.findall(r"Why the rule exists(.*?)(?:\n\n|\Z)", t, flags=re.DOTALL)
    said = "\n".join(whys)
    missing = [i for i in ids if not re.search(rf"(?<![\w-]){re.escape(i)}(?![0-9a-z])", said)]
    assert not missing, missing


def test_lessons_show_the_pictures() -> None:
    assert "big_table_layout_svg" in (SOURCES / "04_big_table.txt").read_text(encoding="utf-8")
    assert "gin_roles_svg" in (SOURCES / "05_gin_three.txt").read_text(encoding="utf-8")
