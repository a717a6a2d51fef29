"""The lessons' quizzes and guided hands (issue 16).

Every quiz of lessons 01-05 is answered right in two spellings (its
``right:`` line) and in the answer's own spelling, and wrong with each of its
``wrong:`` answers, which must get the hint written for them.  The answer
files the notebooks read (``notebooks/quizzes/*.json``) must be those of
the sources, every lesson 01-05 opens with a guided hand, and the student
copies leave out every worked answer.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

from rummy.teach import kind_of
from widgets.quiz import answer_of, quiz_from

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
import build_lessons  # noqa: E402
import student_copy  # noqa: E402

SOURCES = ROOT / "scripts" / "lessons"
NOTEBOOKS = ROOT / "notebooks"
GUIDED = {"01_three_thirteen": "three_thirteen", "02_tre_tretton": "tre_tretton",
          "03_three_thirteen_jokers": "three_thirteen_jokers", "04_big_table": "big_table",
          "05_gin_three": "gin_three"}
QUIZZES = [(stem, n, q) for stem in GUIDED
           for n, q in enumerate(build_lessons.quizzes_of((SOURCES / f"{stem}.txt").read_text()), 1)]


def cells(stem: str) -> list[dict]:
    return json.loads((NOTEBOOKS / f"{stem}.ipynb").read_text(encoding="utf-8"))["cells"]


@pytest.mark.parametrize("stem,number,quiz", QUIZZES, ids=[f"{s}-{n}" for s, n, _ in QUIZZES])
def test_quiz_takes_right_answers_in_two_spellings_and_refuses_wrong_ones(stem: str, number: int,
                                                                           quiz: dict) -> None:
    widget = quiz_from(quiz)
    assert len(quiz["right"]) >= 2, "two more spellings of the right answer"
    assert quiz["hints"], "at least one wrong answer with its own hint"
    for right in quiz["right"] + [quiz["answer"].split(" | ")[0]]:
        assert widget.answer(right), right
        assert widget.feedback.startswith("Right:")
    for wrong, hint in quiz["hints"]:
        assert not widget.answer(wrong), wrong
        assert widget.feedback == f"Not yet. {hint}"
    assert quiz["why"], "a worked answer"


@pytest.mark.parametrize("stem", list(GUIDED))
def test_a_quiz_after_every_rule_group(stem: str) -> None:
    text = (SOURCES / f"{stem}.txt").read_text(encoding="utf-8")
    # the rule sections: "## " headings up to the exercises, but the guided hand's
    sections = re.findall(r"^## (.+)$", text.split("## Exercises")[0], flags=re.MULTILINE)
    sections = [s for s in sections if not s.startswith("Play first")]
    quizzes = [q for s, _n, q in QUIZZES if s == stem]
    # a quiz closes each group: every rule section holds one, except the overview
    # that sets the two Three-Thirteen variants side by side (its rules are quizzed
    # in the sections after it)
    body = text.split("## Exercises")[0]
    for part in re.split(r"^## ", body, flags=re.MULTILINE)[1:]:
        head = part.splitlines()[0]
        if head.startswith(("Play first", "The two variants side by side")):
            continue
        assert "%% quiz" in part, f"{stem}: no quiz after the section {head!r}"
    # most ask for a card, a number or a choice, not yes/no
    kinds = [kind_of(answer_of(q["answer"])) for q in quizzes]
    assert kinds.count("yes/no") * 4 <= len(kinds)
    assert {"card", "number"} & set(kinds)


@pytest.mark.parametrize("stem", list(GUIDED))
def test_quiz_file_is_the_sources_and_every_quiz_is_in_the_notebook(stem: str) -> None:
    text = (SOURCES / f"{stem}.txt").read_text(encoding="utf-8")
    saved = json.loads((NOTEBOOKS / "quizzes" / f"{stem}.json").read_text(encoding="utf-8"))
    assert saved == build_lessons.quizzes_of(text)
    code = ["".join(c["source"]) for c in cells(stem) if c["cell_type"] == "code"]
    assert [c for c in code if re.fullmatch(r"quiz\(\d+\)", c)] == [f"quiz({n})" for n in
                                                                     range(1, len(saved) + 1)]
    # the answers are not in the notebook's code
    assert not any(q["answer"] in c for q in saved for c in code if "Quiz(" in c)


@pytest.mark.parametrize("stem", list(GUIDED))
def test_lesson_opens_with_a_guided_hand(stem: str) -> None:
    all_cells = cells(stem)
    code = ["".join(c["source"]) for c in all_cells if c["cell_type"] == "code"]
    first_widget = next(i for i, c in enumerate(code) if "widgets." in c)
    assert f'widgets.GuidedHand("{GUIDED[stem]}")' in code[first_widget]
    headings = [("".join(c["source"])) for c in all_cells if c["cell_type"] == "markdown"
                and "".join(c["source"]).startswith("## ")]
    assert headings[0].startswith("## Play first: a guided hand")


@pytest.mark.parametrize("stem", list(GUIDED))
def test_worked_answers_fold_away_and_student_copy_drops_them(stem: str) -> None:
    import nbformat

    nb = nbformat.read(NOTEBOOKS / f"{stem}.ipynb", as_version=4)
    worked = [c for c in nb.cells if "worked-answer" in c.metadata.get("tags", [])]
    assert worked
    for c in worked:
        if c.cell_type == "markdown":
            assert c.source.startswith('<details class="worked-answer">') and c.source.endswith("</details>")
        else:
            assert c.metadata["jupyter"]["source_hidden"]
    copy = student_copy.student_copy(nb)
    assert not [c for c in copy.cells if student_copy.is_worked(c)]
    assert len(copy.cells) == len(nb.cells) - len(worked) - 1  # and the "Worked answers" heading
    text = json.dumps(copy)
    assert "<details" not in text and "Worked answer" not in text
    # every quiz is still there
    assert text.count("quiz(") >= len([q for s, _n, q in QUIZZES if s == stem])


def test_student_copy_script_writes_build_student(tmp_path: Path) -> None:
    assert student_copy.main(["--out", str(tmp_path)]) == 0
    written = sorted(p.name for p in tmp_path.glob("*.ipynb"))
    assert written == sorted(p.name for p in NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))
    assert (tmp_path / "quizzes" / "01_three_thirteen.json").exists()


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
