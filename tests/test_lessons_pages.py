"""Lessons as pages a learner reads: lesson 06 starts from "my chance to draw a card
I need", counted by hand, with its heavy results computed by the build; page prose
never points at code the page hides.  (The page itself is opened in
tests/browser/test_browser_lessons.py.)"""

from __future__ import annotations

import json
import re
import sys
from fractions import Fraction
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

import build_lessons  # noqa: E402

SOURCES = ROOT / "scripts" / "lessons"
ODDS = SOURCES / "06_meld_odds.txt"
#: cells a lesson page leaves out (scripts/build_lessons.py, the "rummy" Voilà template)
NOT_ON_THE_PAGE = {"lab-only", "teacher-only", "worked-answer"}


def cells(stem: str) -> list:
    return list(build_lessons.parse((SOURCES / f"{stem}.txt").read_text(encoding="utf-8")).cells)


def on_the_page(cell: dict) -> bool:
    return not NOT_ON_THE_PAGE & set(cell.get("metadata", {}).get("tags", []))


def page_prose(stem: str) -> list[str]:
    """The markdown a lesson page shows."""
    return [c.source for c in cells(stem) if c.cell_type == "markdown" and on_the_page(c)]


# --- lesson 06, for a 13-year-old first ----------------------------------------------------------

def test_06_starts_from_the_chance_to_draw_an_out_counted_by_hand() -> None:
    text = ODDS.read_text(encoding="utf-8")
    heads = re.findall(r"^## (.*)$", text, re.M)
    assert "out" in heads[0].lower(), heads[0]  # the first step: the cards you want
    further = text.index("## Going further")
    kid = text[:further]
    # one draw, then a chain of misses, each link counted by hand, with the deck drawn
    assert "6 out of 49" in kid and "chain of misses" in kid
    assert "43/49 × 42/48 = 43/56" in kid and "1 − 43/56 = 13/56" in kid
    assert kid.index("deck_picture(") < kid.index("chain of misses")
    # C(n, k) by hand (the pairs listed) before any formula; formulas, sympy and
    # simulation only in the extension
    assert "C(4, 2) = 6" in kid and "52 × 51 × 50" in kid and "C(52, 3) = 22,100" in kid
    for later in ("sympy", "Monte Carlo", "sample space", "hypergeometric", "C(U"):
        assert later not in kid, later
    # and the figures said are right: a chain of misses, by brute force over orders of draws
    unseen, outs = 49, 6
    both_miss = Fraction(sum(1 for a in range(unseen) for b in range(unseen)
                             if a != b and a >= outs and b >= outs), unseen * (unseen - 1))
    assert both_miss == Fraction(43, 56) and 1 - both_miss == Fraction(13, 56)
    assert len([(a, b) for a in range(4) for b in range(a + 1, 4)]) == 6


def test_06_no_quiz_answer_is_said_near_its_quiz() -> None:
    """Within the eight page cells after a quiz (its folded answer left out), the page
    says none of the quiz's right answers."""
    quizzes = build_lessons.questions_of(ODDS.read_text(encoding="utf-8"))["quizzes"]
    page = [c for c in cells("06_meld_odds") if on_the_page(c)]
    asked = [i for i, c in enumerate(page) if c.cell_type == "code" and c.source.startswith("quiz(")]
    assert len(asked) == len(quizzes) >= 2
    for i, quiz in zip(asked, quizzes, strict=True):
        answers = [quiz["answer"].split(" | ")[0]] + [r for r in quiz["right"] if re.search(r"\d", r)]
        for cell in page[i + 1:i + 9]:
            for answer in answers:
                assert answer not in cell.source, (quiz["question"][:40], answer, cell.source[:200])


def test_06_the_slow_results_are_computed_by_the_build_not_by_the_page() -> None:
    """A page runs every code cell while the learner waits: no cell of lesson 06 deals
    the eleven rounds' hundreds of thousands of hands; the build saved them, and the
    notebook face says how to compute them again, with the build's own figures."""
    for cell in cells("06_meld_odds"):
        if cell.cell_type == "code":
            assert "dealt_table(" not in cell.source and "samples=100_000" not in cell.source, cell.source
    assert build_lessons.PRECOMPUTED["06_meld_odds"] == [build_lessons.save_eleven_rounds]
    said = " ".join(ODDS.read_text(encoding="utf-8").split())
    recipe = ", ".join(f"{k}={v:_}" if isinstance(v, int) and v > 9999 else f"{k}={v}"
                       for k, v in build_lessons.ELEVEN_ROUNDS.items())
    assert f'odds.dealt_table("three_thirteen", {recipe}, progress=False)' in said
    saved = json.loads((ROOT / "notebooks" / "data" / "06_eleven_rounds.json").read_text())
    rows = {row["round"]: row for row in saved["data"]}
    assert sorted(rows) == list(range(1, 12))
    # the last round, dealt again as the build deals it (seed + round), gives the saved figure
    from rummy.probability import dealt_complete

    again = dealt_complete("three_thirteen", 11, players=2, samples=100_000, seed=1 + 11,
                           method="monte carlo", progress=False)
    assert rows[11]["method"] == "monte carlo" and rows[11]["samples"] == 100_000
    assert rows[11]["value"] == pytest.approx(again.value, abs=1e-12)
    assert rows[1]["probability"] == "241/5525"  # 80 + 4 × 148 + 6 × 48 + 4 of C(52, 3) (lesson 06)


# --- drills from the variant a lesson teaches -----------------------------------------------------

#: the variant each variant lesson teaches
TAUGHT = {"01_three_thirteen": "three_thirteen", "02_tre_tretton": "tre_tretton",
          "03_three_thirteen_jokers": "three_thirteen_jokers", "04_big_table": "big_table",
          "05_gin_three": "gin_three"}
DRILL_CELL = re.compile(r'widgets\.Drill\("([^"]+)"(?:, variant="([a-z_]+)")?\)')


@pytest.mark.parametrize("stem", sorted(TAUGHT))
def test_every_drill_in_a_variant_lesson_deals_from_that_variant(stem: str) -> None:
    from rummy import practice

    drills = [m for c in cells(stem) if c.cell_type == "code" for m in DRILL_CELL.finditer(c.source)]
    assert drills, stem
    for found in drills:
        rule, variant = found.groups()
        assert variant == TAUGHT[stem], (stem, found.group(0))
        for seed in range(6):  # the first position and the next ones ("Next drill")
            assert practice.drill(rule, seed, variant=variant).variant == TAUGHT[stem], (rule, seed)


# --- page prose points at nothing the page hides ----------------------------------------------------

#: words that send a reader to code or to a cell, which a lesson page doesn't show
POINTS_AT_CODE = re.compile(
    r"\b(?:the )?(?:last |next |previous )?cells? (?:below|above)\b|\bthe (?:last|next|previous) cell\b"
    r"|\brun the cell\b|\bthe code (?:above|below)\b|shown working|written as a function"
    r"|\bin the experiment above\b|\bChange `|`[A-Za-z_][\w.]*\(|`\w+=`|we can print"
    r"|in the engine's words|with `[a-z_]+`", re.IGNORECASE)


@pytest.mark.parametrize("stem", ["02_tre_tretton", "03_three_thirteen_jokers", "05_gin_three",
                                  "06_meld_odds", "07_bots_and_strategy"])
def test_page_prose_never_points_at_hidden_code(stem: str) -> None:
    said = [(m.group(0), text[max(0, m.start() - 60):m.end() + 20])
            for text in page_prose(stem) if not text.startswith("**Quiz")
            for m in POINTS_AT_CODE.finditer(text)]
    assert not said, said


def test_the_phrases_are_found_where_they_were() -> None:
    for text in ("(the cell below counts them)", "`compare` is shown working first",
                 "Change `range(20)` to", "The last cell shows your map", "with `hand_points`:"):
        assert POINTS_AT_CODE.search(text), text
    assert not POINTS_AT_CODE.search("Read the picture below: the cards above the line are yours.")


# --- small things a learner sees -------------------------------------------------------------------

def test_the_first_lessons_map_shows_that_lessons_rules(own_data: Path) -> None:
    """Lesson 00 ends with the map of the rules it teaches, every rule its quizzes and
    exercises record among them, not 58 rules all "not seen"."""
    import widgets
    from rummy.rulebook import rules_in

    last = cells("00_start_here")[-1].source.strip().splitlines()[-1]
    shown = re.fullmatch(r"widgets\.Progress\(rules=\[(.*)\]\)", last)
    assert shown, last
    rules = re.findall(r'"([^"]+)"', shown.group(1))
    asked = json.loads((ROOT / "notebooks" / "quizzes" / "00_start_here.json").read_text())
    recorded = {(rules_in(q["question"]) or rules_in(q["why"]))[0] for q in asked["quizzes"]}
    recorded |= {e["rule"] for e in asked["exercises"]}
    assert recorded <= set(rules) and len(rules) < 20, (recorded, rules)
    lesson_map = widgets.Progress("Ana", rules=rules)
    assert lesson_map.map.value.count("<li") == len(rules)
    assert "all 58" in lesson_map.map.value
    with pytest.raises(ValueError, match="no rule 'XX-1'"):
        widgets.Progress("Ana", rules=["XX-1"])


def test_the_game_summaries_learners_read_say_yes_or_no_in_words() -> None:
    for stem in ("01_three_thirteen", "04_big_table"):
        code = "\n".join(c.source for c in cells(stem) if c.cell_type == "code")
        assert "game.summary()" in code or "g.summary()" in code
        assert '"won": "won the game"' in code and '{True: "yes", False: "no"}' in code, stem


def test_no_exercise_shows_its_answer_as_the_example_of_how_to_answer() -> None:
    """An exercise's "answer as text such as ..." must not be its answer (lesson 01's
    exercise 3 asked about round 9 with the example "11 jacks", its answer)."""
    from rummy.teach_book import judge_entry

    root = Path(__file__).resolve().parent.parent
    checked = 0
    for source in sorted((root / "scripts" / "lessons").glob("[0-9][0-9]_*.txt")):
        book = root / "notebooks" / "quizzes" / f"{source.stem}.json"
        if not book.exists():
            continue
        exercises = json.loads(book.read_text(encoding="utf-8")).get("exercises", [])
        text = source.read_text(encoding="utf-8")
        for n, entry in enumerate(exercises, 1):
            m = re.search(rf"\*\*Exercise {n}\.\*\*(.*?)(?:\n\n|\n%%)", text, re.S)
            if m is None:
                continue
            # an example of how to answer (not a choice such as `"yes"` or `"no"`)
            for example in re.findall(r'(?:such as|e\.g\.|for example|answered:)\s*`"?([^`"]+)"?`',
                                      m.group(1)):
                checked += 1
                verdict = judge_entry(entry, example, "exercises")
                assert not verdict.right, (source.stem, n, example)
    assert checked >= 1


# --- a page runs only what it shows -----------------------------------------------------------------

#: what makes a page kernel slow: imports of a second or more, and long counts
HEAVY = re.compile(r"\b(?:import|from) (?:pandas|matplotlib|sympy)\b|\bplt\.|\bpd\.|\bsp\."
                   r"|dealt_(?:complete|gin|table)\(|going_out_chance\(|draw_formula\("
                   r"|itertools\.combinations\(")
RUN_ON_THE_PAGE = "skip-execution"  # the tag Voilà's executor (nbclient's) leaves unrun


def built(stem: str) -> dict:
    return json.loads((ROOT / "notebooks" / f"{stem}.ipynb").read_text(encoding="utf-8"))


def page_runs(cell: dict) -> bool:
    return cell["cell_type"] == "code" and RUN_ON_THE_PAGE not in cell["metadata"].get("tags", [])


@pytest.mark.parametrize("stem", sorted(p.stem for p in SOURCES.glob("*.txt")))
def test_a_page_leaves_unrun_the_code_it_does_not_show(stem: str) -> None:
    """Lab-only cells, worked answers' code and cells computed ahead are left out of
    the page, and the page's kernel doesn't run them either (it ran them all: lesson
    06's page imported pandas, matplotlib and sympy for a page that hides their code)."""
    for cell in cells(stem):
        if cell.cell_type == "code" and not on_the_page(cell):
            assert RUN_ON_THE_PAGE in cell.metadata["tags"], (stem, cell.source[:80])
        if cell.cell_type == "code" and on_the_page(cell):
            assert RUN_ON_THE_PAGE not in cell.metadata.get("tags", []), (stem, cell.source[:80])


def test_06_the_page_kernel_imports_nothing_heavy() -> None:
    """The cells lesson 06's page runs (its built notebook's, as Voilà runs them) import
    no pandas, matplotlib or sympy and count nothing long; the build ran the rest."""
    ran = [c for c in built("06_meld_odds")["cells"] if page_runs(c)]
    assert ran and any("quiz(" in "".join(c["source"]) for c in ran)
    heavy = [m.group(0) for c in ran for m in HEAVY.finditer("".join(c["source"]))]
    assert not heavy, heavy
    everything = [c for c in built("06_meld_odds")["cells"] if c["cell_type"] == "code"]
    assert len([c for c in everything if HEAVY.search("".join(c["source"]))]) >= 10  # the notebook's


def _text(value: str | list[str]) -> str:
    return value if isinstance(value, str) else "".join(value)


def test_06_the_page_shows_what_the_cells_computed_ahead_showed() -> None:
    """Each ahead cell's pictures, formulas and tables are on the page, in the page-only
    cell after it, as the build's run of the cell made them; a picture has words."""
    nb = built("06_meld_odds")["cells"]
    ahead = [i for i, c in enumerate(nb) if "ahead" in c["metadata"].get("tags", [])]
    shown = 0
    for i in ahead:
        rich = [o["data"] for o in nb[i].get("outputs", [])
                if set(o.get("data", {})) & {"image/png", "text/latex", "text/html"}]
        if not rich:
            continue
        page = nb[i + 1]
        assert page["cell_type"] == "markdown" and page["metadata"]["tags"] == ["page-only"]
        source = _text(page["source"])
        for data in rich:
            shown += 1
            if "image/png" in data:
                pictures = [a["image/png"] for a in page["attachments"].values()]
                assert _text(data["image/png"]) in pictures
                alt = re.findall(r"!\[([^\]]+)\]\(attachment:", source)
                assert alt and all(len(words.split()) >= 8 for words in alt), alt
            elif "text/latex" in data:
                assert _text(data["text/latex"]).strip() in source
            else:
                assert "<table" in source and "\n\n" not in source
    assert shown == 8  # 3 pictures, 3 formulas, 2 tables


def test_06_what_the_page_shows_is_what_the_kit_computes_now() -> None:
    """A sample of the page's computed-ahead results, recomputed: the formulas and the
    first round's chances (a stale build would show old figures)."""
    import sympy as sp

    from rummy import probability as odds

    page = "\n".join(_text(c["source"]) for c in built("06_meld_odds")["cells"]
                     if c["metadata"].get("tags") == ["page-only"])
    assert sp.latex(odds.dealt_gin().formula) in page
    assert sp.latex(odds.draw_formula()) in page
    one_pack = odds.dealt_complete("three_thirteen", 1, players=2).value
    jokers = odds.dealt_complete("three_thirteen_jokers", 1, jokers=4).value
    assert f"<td>{one_pack:.5f}</td>" in page and f"<td>{jokers:.5f}</td>" in page  # rounded
    assert one_pack == pytest.approx(241 / 5525)  # 80 + 4 × 148 + 6 × 48 + 4 of C(52, 3)


def _names(source: str) -> tuple[set[str], set[str]]:
    """(the names a cell's code makes, the names it reads)."""
    import ast

    tree = ast.parse(source)
    scoped = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef, ast.ListComp,
              ast.SetComp, ast.DictComp, ast.GeneratorExp)

    def top(node: ast.AST) -> list[ast.AST]:  # the cell's own names, not a function's or a loop's
        if isinstance(node, scoped):
            return [node]
        return [node] + [n for child in ast.iter_child_nodes(node) for n in top(child)]

    own = [n for statement in tree.body for n in top(statement)]
    made = {n.id for n in own if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    made |= {n.name for n in own if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
    made |= {(a.asname or a.name).split(".")[0] for n in own
             if isinstance(n, (ast.Import, ast.ImportFrom)) for a in n.names}
    read = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    return made, read


@pytest.mark.parametrize("stem", sorted(p.stem for p in SOURCES.glob("*.txt")))
def test_a_page_runs_no_cell_needing_what_a_cell_it_left_unrun_made(stem: str) -> None:
    """A cell the page runs reads no name that only a cell the page leaves unrun made
    (that cell would fail on the page, while the notebook and its tests run fine)."""
    unrun: dict[str, str] = {}  # name -> the unrun cell that made it last
    for cell in cells(stem):
        if cell.cell_type != "code":
            continue
        made, read = _names(cell.source)
        if RUN_ON_THE_PAGE in cell.metadata.get("tags", []):
            unrun.update({name: cell.source[:60] for name in made})
            continue
        needed = {name: unrun[name] for name in read & set(unrun)}
        assert not needed, (stem, cell.source[:80], needed)
        for name in made:
            unrun.pop(name, None)


def test_the_unrun_cells_check_finds_a_name_made_off_the_page() -> None:
    made, read = _names("games = [play(s) for s in range(8)]\nprint(len(games))")
    assert made == {"games"} and {"play", "games"} <= read
    made, read = _names("def play(seed):\n    game = new(seed)\n    return game\n")
    assert made == {"play"} and "new" in read


@pytest.mark.parametrize("stem", sorted(p.stem for p in SOURCES.glob("*.txt")))
def test_a_page_never_leads_into_a_result_it_does_not_show(stem: str) -> None:
    """Where the page's prose ends on a colon before a result computed ahead that
    only printed text ("... and finds the same fraction:"), the page says the result
    in words, right after it, naming each exact value the cell printed (on the old
    build lessons 01, 05 and 06 ended 18 such sentences on nothing)."""
    import nbformat

    page = list(nbformat.read(ROOT / "notebooks" / f"{stem}.ipynb", as_version=4).cells)
    for at, cell in enumerate(page):
        if cell.cell_type == "code" and build_lessons.AHEAD in cell.metadata.get("tags", []):
            said = build_lessons.said_in_words(cell, page[:at])  # raises if it ends on nothing
            if said:
                shown = page[at + 1]
                assert "page-only" in shown.metadata["tags"], (stem, cell.source[:60])
                assert shown.source.startswith(said[0]), (stem, shown.source[:80])


def test_a_page_line_that_leaves_out_a_printed_value_is_refused() -> None:
    import nbformat

    cell = nbformat.v4.new_code_cell("# page: About a quarter.\nby_hand")
    cell.outputs = [nbformat.v4.new_output("execute_result",
                                           data={"text/plain": "Fraction(24, 5525)"})]
    with pytest.raises(ValueError, match="leaves out 24/5525"):
        build_lessons.said_in_words(cell, [])
    lead = nbformat.v4.new_markdown_cell("The computer finds the same fraction:")
    cell.source = "by_hand"
    with pytest.raises(ValueError, match="# page: "):
        build_lessons.said_in_words(cell, [lead])

