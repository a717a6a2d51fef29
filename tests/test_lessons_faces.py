"""One lesson source, two faces: the notebook (JupyterLab, code shown) and the
page (Voilà's "rummy" template: prose, pictures, widgets).  What is written
for one face only is tagged so, and every exercise has an answer box the page
can show.  The page itself is opened in tests/browser/test_browser_lessons.py."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

import build_lessons  # noqa: E402

SOURCES = sorted((ROOT / "scripts" / "lessons").glob("*.txt"))
STEMS = [s.stem for s in SOURCES]
TEMPLATE = ROOT / "share" / "jupyter" / "voila" / "templates" / "rummy" / "index.html.j2"
#: instructions for a notebook's reader: to run or edit cells
LAB_WORDS = re.compile(r"Shift\+Enter|Kernel →|Restart Kernel|Replace `None`|run the cell|Run a cell"
                       r"|run it again|Change anything", re.IGNORECASE)


def cells(stem: str) -> list:
    return list(build_lessons.parse((ROOT / "scripts" / "lessons" / f"{stem}.txt").read_text()).cells)


def tags(cell: dict) -> list[str]:
    return list(cell.get("metadata", {}).get("tags", []))


@pytest.mark.parametrize("stem", STEMS)
def test_notebook_instructions_are_for_the_notebook_face_only(stem: str) -> None:
    for cell in cells(stem):
        if cell.cell_type == "markdown" and "lab-only" not in tags(cell):
            assert not LAB_WORDS.search(cell.source), (stem, cell.source[:200])


@pytest.mark.parametrize("stem", STEMS)
def test_every_exercise_has_an_answer_box_and_its_code_cell_is_the_notebooks(stem: str) -> None:
    exercises = json.loads((ROOT / "notebooks" / "quizzes" / f"{stem}.json").read_text())["exercises"]
    all_cells = cells(stem)
    boxes = [c.source for c in all_cells if tags(c) == ["exercise"]]
    assert boxes == [f"exercise({n})" for n in range(1, len(exercises) + 1)], stem
    for cell in all_cells:
        if cell.cell_type == "code" and build_lessons.EXERCISE_CALL.search(cell.source):
            assert "lab-only" in tags(cell), cell.source
    for number, entry in enumerate(exercises, 1):
        assert entry["question"], (stem, number)
        assert entry.get("rule"), (stem, number, "an exercise's answers are kept under its rule")


def test_the_page_template_leaves_out_the_notebooks_own_cells_and_bare_output() -> None:
    text = TEMPLATE.read_text()
    for needed in ("'lab-only' in tags", "'teacher-only' in tags", "'worked-answer' in tags",
                   "block stream_stdout", "block data_priority"):
        assert needed in text, needed


def test_page_only_prose_folds_away_in_the_notebook() -> None:
    nb = build_lessons.parse("%% md page\nType in the box.\n%% md lab\nPress Shift+Enter.\n")
    page, lab = nb.cells
    assert tags(page) == ["page-only"] and page.metadata["jupyter"]["source_hidden"]
    assert tags(lab) == ["lab-only"]
    assert nb.metadata["rummy"]["lesson"]


def test_an_exercise_box_is_judged_by_the_checker_and_recorded() -> None:
    from widgets.quiz import quiz_book

    exercise = quiz_book(str(ROOT / "notebooks" / "quizzes" / "00_start_here.json"), part="exercises")
    box = exercise(1)
    assert box.rule == "M-2"
    assert not box.answer("20") and "jack costs 10" in box.feedback
    assert box.answer("nineteen")
    with pytest.raises(IndexError, match="exercises 1 to"):
        exercise(99)


#: what RULES.md marks **[differs]** (or says of a text's origin), by the lesson that must tell it
OTHER_TABLES = {
    "01_three_thirteen": ["The Spruce", "`002`"],
    "02_tre_tretton": ["gamerules.com", "*Plump*", "Oh Hell", "three 3s", "M-4a"],
    "03_three_thirteen_jokers": ["tournament-rook.com", "`003`"],
    "04_big_table": ["Stan Stone", "pagat.com", "house game"],
    "05_gin_three": ["25", "a tie counts as an undercut", "Big gin", "100", "shutout", "box"],
}


@pytest.mark.parametrize("stem", sorted(OTHER_TABLES))
def test_each_variant_lesson_says_what_differs_at_other_tables(stem: str) -> None:
    text = (ROOT / "scripts" / "lessons" / f"{stem}.txt").read_text()
    assert "## At other tables" in text, stem
    note = " ".join(text.split("## At other tables", 1)[1].split("\n%% ", 1)[0].split())
    for words in OTHER_TABLES[stem]:
        assert words in note, (stem, words)
    assert "RULES.md" in note or "source text" in note, stem


def test_the_lesson_slips_are_fixed() -> None:
    from rummy.rulebook import rules_in

    def quiz(stem: str, number: int) -> dict:
        text = (ROOT / "scripts" / "lessons" / f"{stem}.txt").read_text()
        return build_lessons.questions_of(text)["quizzes"][number - 1]

    assert rules_in(quiz("00_start_here", 1)["why"]) == ["M-1", "M-2"]  # set and run are melds
    assert "TT-11" in rules_in(quiz("02_tre_tretton", 4)["hint"])       # the number of packs
    assert "TJ-1" not in quiz("03_three_thirteen_jokers", 8)["hint"]     # seats, not the bots
    jokers = (ROOT / "scripts" / "lessons" / "03_three_thirteen_jokers.txt").read_text()
    assert "always worth keeping" not in jokers and "costs 20 points (TJ-5)" in jokers


def test_teaching_notes_plan_a_45_minute_first_class_with_the_lessons_own_times() -> None:
    text = (ROOT / "notebooks" / "TEACHING.md").read_text(encoding="utf-8")
    # one set of times: each lesson's row says the "Time: about N minutes" of its first cell
    for source in SOURCES:
        said = re.search(r"\*\*Time:\*\* about (\d+) minutes", source.read_text()).group(1)
        row = re.search(rf"^\| {source.stem[:2]} [^\n]*\| (\d+)(?:-\d+)? min[^|\n]*\|$", text, re.M)
        assert row and row.group(1) == said, (source.stem, said, row and row.group(0))
    plan = text.split("## A 45-minute first class", 1)[1].split("\n## ", 1)[0]
    slots = re.findall(r"^\| (\d+)-(\d+) \|", plan, re.M)
    assert slots[0][0] == "0" and slots[-1][1] == "45"
    assert all(a[1] == b[0] for a, b in zip(slots, slots[1:], strict=False))  # no gap, no overlap
    for words in ("Skip", "Project", "Say", "Common mistakes", "Exit ticket", "groups of 12", "caller",
                  "4 seconds"):
        assert words.lower() in plan.lower(), words
    # it describes what pupils get: pages with answer boxes, not notebooks to run
    assert "Shift+Enter" not in text and "runs top to bottom" not in text


def test_lesson_01_runs_in_the_order_of_play_with_the_edge_cases_last() -> None:
    text = (ROOT / "scripts" / "lessons" / "01_three_thirteen.txt").read_text()
    heads = re.findall(r"^## (.*)$", text.split("## At other tables")[0], re.M)
    rules = [RULE.search(h).group(0) if RULE.search(h) else "" for h in heads]
    order = ["TT-1", "TT-3", "TT-5", "M-1", "TT-2", "TT-6", "C-1", "TT-8", "TT-9"]  # deal ... scoring
    assert [r for r in rules if r in order] == order, heads
    edge = [h for h in heads if h.startswith("Appendix")]
    assert [RULE.search(h).group(0) for h in edge] == ["TT-11", "TT-10", "TS-1"]
    assert heads.index(edge[0]) > heads.index(next(h for h in heads if "TT-9" in h))
    # the quiz on who plays next needs "clockwise means to the left": the text says it first
    said = text.index("**clockwise**, which means to the\n**left**")
    assert said < text.index("sit clockwise in that order")


RULE = re.compile(r"\b[A-Z]{1,2}-\d+[a-z]?\b")


def test_lesson_04_teaches_the_match_window_and_its_length() -> None:
    import inspect

    import widgets

    seconds = inspect.signature(widgets.BigTableTable).parameters["match_window"].default
    text = (ROOT / "scripts" / "lessons" / "04_big_table.txt").read_text()
    assert "Match! window" in text
    quizzes = build_lessons.questions_of(text)["quizzes"]
    window = [q for q in quizzes if "seconds" in q["question"] and "Match!" in q["question"]]
    assert window and window[0]["answer"] == f"{seconds:g}"
    assert f"you have {seconds:g} seconds" in text  # before the table at the end
    assert text.index("Match! window") < text.index("## Play at the big table")


PLAY_WELL = {
    "01_three_thirteen": ["pairs", "two-in-a-rows", "high lonely cards early", "pick up"],
    "02_tre_tretton": ["pairs", "high lonely cards early", "natural card", "pick up"],
    "03_three_thirteen_jokers": ["pairs", "high lonely cards early", "20 points", "pick up"],
    "04_big_table": ["pairs", "high lonely cards early", "on your left", "Match!"],
    "05_gin_three": ["Knock early", "undercut", "high cards", "pick-ups"],
}


@pytest.mark.parametrize("stem", sorted(PLAY_WELL))
def test_each_variant_lesson_teaches_good_play_with_the_coach(stem: str) -> None:
    text = (ROOT / "scripts" / "lessons" / f"{stem}.txt").read_text()
    assert "## How to play well" in text
    section = " ".join(text.split("## How to play well", 1)[1].split("\n%% md\n## ", 1)[0].split())
    for words in PLAY_WELL[stem] + ["coach", "**Hint**", "never against the rules"]:
        assert words in section, (stem, words)
    # before the table the learner plays at, where the coach is
    last_table = max(text.rfind("widgets.play("), text.rfind("ThreeThirteenTable("))
    assert text.index("## How to play well") < last_table


def test_the_meld_checker_speaks_of_jokers_only_where_the_game_has_them() -> None:
    import widgets

    plain = widgets.MeldChecker("three_thirteen", round=1)
    assert "joker" not in plain.rules_text.value and "Jk" not in plain.input.placeholder
    assert plain.picks[-1].description == "Jk" and plain.picks[-1].layout.display == "none"
    jokers = widgets.MeldChecker("three_thirteen_jokers", round=1, jokers=2)
    assert "jokers are wild" in jokers.rules_text.value and jokers.picks[-1].layout.display != "none"
