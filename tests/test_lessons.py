"""What the lessons say is right: each test checks one statement of a lesson, with the figure worked out here
independently (by hand in a comment, or by brute force), and, where the
lesson prints it, the committed notebook's output (nbval compares those
outputs again under ``make test``: the cells are marked ``NBVAL_CHECK_OUTPUT``).
"""

from __future__ import annotations

import itertools
import json
import re
from fractions import Fraction
from math import comb
from pathlib import Path

import pytest

import rummy

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ROOT / "scripts" / "lessons"
NOTEBOOKS = ROOT / "notebooks"


def source(stem: str) -> str:
    return (SOURCES / f"{stem}.txt").read_text(encoding="utf-8")


def cells(stem: str) -> list[dict]:
    return json.loads((NOTEBOOKS / f"{stem}.ipynb").read_text(encoding="utf-8"))["cells"]


def output_of(stem: str, needle: str) -> str:
    """The text output of the one code cell whose source contains ``needle``."""
    found = [c for c in cells(stem) if c["cell_type"] == "code" and needle in "".join(c["source"])]
    assert len(found) == 1, f"{len(found)} cells of {stem} contain {needle!r}"
    text = []
    for out in found[0]["outputs"]:
        text.append("".join(out.get("text", "")))
        text.append("".join(out.get("data", {}).get("text/plain", "")))
    return "".join(text)


def checked(stem: str, needle: str) -> bool:
    """True if the code cell containing ``needle`` has its output compared by nbval."""
    return any(c["cell_type"] == "code" and needle in "".join(c["source"])
               and "NBVAL_CHECK_OUTPUT" in "".join(c["source"]) for c in cells(stem))


# --- lesson 06: the outs formula's symbols --------------------------------------------------

def test_06_symbols_are_made_by_name_not_looked_up() -> None:
    # no symbol look-ups a beginner must decode; the same name and
    # assumptions make the same sympy symbol
    import sympy as sp

    text = source("06_meld_odds")
    assert "free_symbols" not in text and 'sp.symbols("U o k", integer=True, nonnegative=True)' in text
    U, o, k = sp.symbols("U o k", integer=True, nonnegative=True)
    assert {U, o, k} == rummy.probability.draw_formula().free_symbols


def test_06_one_draw_is_o_over_U() -> None:
    import sympy as sp

    f = rummy.probability.draw_formula()
    symbol = {s.name: s for s in f.free_symbols}
    assert sp.simplify(f.subs(symbol["k"], 1)) == symbol["o"] / symbol["U"]
    # the committed notebook prints o/U (and nbval compares it)
    assert checked("06_meld_odds", "formula.subs(k, 1)")
    assert output_of("06_meld_odds", "formula.subs(k, 1)").strip() == "o/U"


def test_06_sorting_the_symbols_would_swap_outs_and_draws() -> None:
    # the bug the lesson had: sorting by name gives U, k, o, so "o" held the draws
    f = rummy.probability.draw_formula()
    assert [s.name for s in sorted(f.free_symbols, key=str)] == ["U", "k", "o"]


# --- lesson 06: an opponent draws your out first ---------------------------------------------

def opponent_first_by_brute_force(outs: int, unseen: int, draws: int, opponents: int) -> Fraction:
    """Every placing of the outs in the stock, equally likely: the share in which the
    first out drawn in the window (you at places 0, c, 2c, ..., your last draw at
    (draws-1)*c, c = opponents + 1) falls at an opponent's place."""
    cycle = opponents + 1
    last = (draws - 1) * cycle
    good = total = 0
    for places in itertools.combinations(range(unseen), outs):
        total += 1
        first = places[0]
        if first < last and first % cycle != 0:
            good += 1
    return Fraction(good, total)


def test_06_opponent_first_figure_and_its_assumptions() -> None:
    exact = rummy.probability.chance_opponent_first(outs=2, unseen=40, draws=5, opponents=3)
    assert exact == opponent_first_by_brute_force(2, 40, 5, 3) == Fraction(31, 65)
    text = source("06_meld_odds")
    assert "you draw first" in text and "every player, you included, draws from the stock" in text
    assert "your 5th draw" in text
    # the lesson checks it by simulation, in a compared cell
    assert checked("06_meld_odds", "opponent_first, draw_seventeen")
    assert output_of("06_meld_odds", "opponent_first, draw_seventeen").strip().endswith("True")


def test_06_late_rounds_have_enough_samples() -> None:
    text = source("06_meld_odds")
    assert "samples=2_000" not in text
    assert "samples=100_000" in text


# --- lesson 03: a wild left unmelded -------------------------------------------------------

def test_03_a_wild_stays_unmelded_when_it_has_nothing_to_join() -> None:
    round_5 = rummy.find_variant("three_thirteen_jokers").meld_rules(round=5)
    # 7c is wild (15, TJ-5), 2d and 9s can't be joined into a meld with it: 15 + 2 + 9
    assert rummy.penalty("7c 2d 9s", round_5) == 26
    text = source("03_three_thirteen_jokers")
    assert "only in hands like `Jk 7c`" not in text
    assert "15 + 2 + 9 = 26" in text
    assert checked("03_three_thirteen_jokers", 'best_arrangement("7c 2d 9s", round_5)')


def test_03_cites_TJ_7() -> None:
    assert "## TJ-7" in source("03_three_thirteen_jokers")


# --- lesson 00: gin is going out with everything melded --------------------------------------

def test_00_gin_is_knocking_with_everything_melded() -> None:
    text = source("00_start_here")
    assert "nobody goes out with everything melded" not in text
    assert "Knocking with everything melded is **gin** (G-7)" in text


# --- lesson 07: greedy's discard is a tie ------------------------------------------------------

def test_07_greedy_discard_is_a_tie_broken_towards_the_lower_card() -> None:
    g = rummy.new_game("three_thirteen", players=["Ana", "Ben", "Cleo"], seed=4)
    g.apply(rummy.bots.make_bot("greedy").choose(g.observe(g.current_player)))
    obs = g.observe(g.current_player)
    assert sorted(map(str, obs.hand)) == ["6d", "Kh", "Qc", "Qs"]
    rules = g.variant.meld_rules(round=1)
    left = {str(c): rummy.penalty(obs.hand[:i] + obs.hand[i + 1:], rules) for i, c in enumerate(obs.hand)}
    # Qc, Kh, Qs each leave 6 + 10 + 10 = 26; 6d leaves 30
    assert left == {"Qc": 26, "6d": 30, "Kh": 26, "Qs": 26}
    assert str(rummy.bots.make_bot("greedy", seed=1).choose(obs)) == "discard Qc"
    text = source("07_bots_and_strategy")
    assert "to keep the lowest points" not in text and "three-way tie" in text
    assert checked("07_bots_and_strategy", "penalty_after_each_throw(obs.hand")
    assert "{'Q♣': 26, '6♦': 30, 'K♥': 26, 'Q♠': 26}" in output_of("07_bots_and_strategy",
                                                                  "penalty_after_each_throw(obs.hand")


# --- lesson 02: the dealt hand, not the end of the round -------------------------------------

def test_02_all_wild_is_the_chance_of_the_dealt_hand() -> None:
    # 8 threes in 104 cards: C(8,3) = 56, C(104,3) = 104*103*102/6 = 182104; 56/182104 = 7/22763
    assert Fraction(comb(8, 3), comb(104, 3)) == Fraction(7, 22763)
    text = source("02_tre_tretton")
    assert "is the chance that the hand you are\n**dealt** is wilds only" in text
    assert "It is *not* the chance of being stuck" in text


# --- lesson 05: G-8a -----------------------------------------------------------------------------

def test_05_cites_G_8a() -> None:
    assert "(G-8a)" in source("05_gin_three")


# --- checked outputs ------------------------------------------------------------------------------

def test_every_cell_printing_an_exact_fraction_is_compared_by_nbval() -> None:
    import re

    unchecked = []
    for path in sorted(NOTEBOOKS.glob("0[0-6]_*.ipynb")):
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
            if cell["cell_type"] != "code" or "NBVAL_CHECK_OUTPUT" in "".join(cell["source"]):
                continue
            text = "".join("".join(o.get("text", "")) + "".join(o.get("data", {}).get("text/plain", ""))
                           for o in cell.get("outputs", []))
            if re.search(r"Fraction\(|\b\d+/\d+\b", text):
                unchecked.append((path.stem, "".join(cell["source"]).splitlines()[0]))
    assert not unchecked, unchecked


#: Outputs that say nothing exact: a picture, a plot, a widget's note on a static page.
NOT_A_FIGURE = re.compile(r"^(<IPython\.core\.display\.SVG object>|<Figure size [^>]*>"
                          r"|\[an interactive widget[^\]]*\])$")


def printed(cell: dict) -> list[str]:
    """The text outputs of a code cell that are more than a picture or a widget."""
    out = []
    for o in cell.get("outputs", []):
        text = ("".join(o.get("text", "")) + "".join(o.get("data", {}).get("text/plain", ""))).strip()
        if text and not NOT_A_FIGURE.match(text):
            out.append(text)
    return out


def test_every_cell_that_prints_something_is_compared_by_nbval_or_says_why_not() -> None:
    """Every lesson cell printing a figure, a rule's result or a seeded narration or
    simulation is compared under nbval (``# NBVAL_CHECK_OUTPUT``); the only cells
    left out say so (``# NBVAL_IGNORE_OUTPUT``: the kit's version number)."""
    unchecked, ignored = [], []
    for path in sorted(NOTEBOOKS.glob("0[0-7]_*.ipynb")):
        for cell in cells(path.stem):
            src = "".join(cell["source"])
            if cell["cell_type"] != "code" or not printed(cell) or "NBVAL_CHECK_OUTPUT" in src:
                continue
            (ignored if "NBVAL_IGNORE_OUTPUT" in src else unchecked).append(
                (path.stem, src.splitlines()[0]))
    assert not unchecked, unchecked
    assert ignored == [("00_start_here", "# NBVAL_IGNORE_OUTPUT")]
    assert "rummy.__version__" in output_source("00_start_here", "NBVAL_IGNORE_OUTPUT")


def output_source(stem: str, needle: str) -> str:
    return next("".join(c["source"]) for c in cells(stem) if needle in "".join(c["source"]))


def test_the_checked_cells_include_seeded_narration_and_simulation() -> None:
    # seeded narration and simulations, found by their code
    assert checked("01_three_thirteen", 'g = rummy.new_game("three_thirteen", players=["Ana", "Ben", "Cleo"], seed=1)')
    assert checked("03_three_thirteen_jokers", "table = rummy.simulate(")
    assert checked("05_gin_three", "games[0].log[-1]")
    assert checked("07_bots_and_strategy", "duel = simulate(")
    assert checked("04_big_table", "print(big.rules_text())")


# --- each figure and sentence a beginner reads, as the lesson says it --------------------------

def test_05_g8a_example_has_two_allowed_layouts() -> None:
    # the figures are recomputed in test_lesson_figures; here: the text and the checked cell
    text = source("05_gin_three")
    assert "With 6♥ 7♥ 8♥ 9♥ 9♣ 9♦ 9♠, say" in text and "over the knock limit of 10 (G-6)" in text
    assert checked("05_gin_three", "def layout_deadwood(")


def test_05_g12_gives_the_real_reason() -> None:
    text = source("05_gin_three")
    assert "can't serve another pair of turns" not in text
    assert "Two cards would still be one more draw for each player" in text


def test_05_the_bots_estimate_and_the_true_average() -> None:
    text = source("05_gin_three")
    assert "random\nsample of 16" in text and "2158/41 ≈ 52.63" in text
    assert checked("05_gin_three", "average = Fraction(sum(left_after), len(unseen))")


def test_06_the_late_rounds_interval_is_said_as_it_is() -> None:
    text = source("06_meld_odds")
    assert "within a third of" not in text and "from about 0.7 to 1.4" in text
    out = output_of("06_meld_odds", 'simulated = table[table["method"] != "exact"]')
    lows = [float(x) for x in re.search(r"low / estimate: +\[(.*?)\]", out).group(1).split(",")]
    highs = [float(x) for x in re.search(r"high / estimate: \[(.*?)\]", out).group(1).split(",")]
    assert round(min(lows), 1) == 0.7 and round(max(highs), 1) == 1.4


def test_06_the_face_up_first_discard_is_counted_as_seen() -> None:
    text = source("06_meld_odds")
    assert "first discard, turned face up after the deal (TT-4)" in text
    out = output_of("06_meld_odds", 'odds.outs(hand, "three_thirteen", round=2, players=2, seen="Kd")')
    assert "6 outs among 47 unseen" in out
    out = output_of("06_meld_odds", 'draws=1, seen="Kd"')
    assert "1/8 = 0.125 (exact)" in out


def test_06_the_exact_figure_names_its_tie_break() -> None:
    text = source("06_meld_odds")
    assert "2561/7896 assumes the kit's tie-break" in text and "17819/55272" in text


def test_06_no_wild_is_a_natural_card() -> None:
    text = source("06_meld_odds")
    assert "4♣ is also the natural card" not in text and "never as a natural card (M-4a)" in text


def test_02_round_7_cannot_be_wilds_only() -> None:
    assert "two packs hold only 8\nnines" in source("02_tre_tretton")
    assert output_of("02_tre_tretton", "swedish.hand_size(7), sum(").strip() == "(9, 8)"


#: Student's t: the 97.5% point for 1 to 9 and 19 degrees of freedom, from a printed table
T_975 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306,
         9: 2.262, 19: 2.093}


def t_cdf(t: float, df: int, steps: int = 20_000) -> float:
    """P(T <= t) for Student's t with ``df`` degrees of freedom, by Simpson's rule on its density."""
    import math

    c = math.gamma((df + 1) / 2) / (math.sqrt(df * math.pi) * math.gamma(df / 2))
    h = t / steps
    total = 0.0
    for i in range(steps + 1):
        x = i * h
        w = 1 if i in (0, steps) else (4 if i % 2 else 2)
        total += w * c * (1 + x * x / df) ** (-(df + 1) / 2)
    return 0.5 + total * h / 3


def test_07_intervals_use_students_t_and_stay_possible() -> None:
    for df, t in T_975.items():
        assert abs(t_cdf(t, df) - 0.975) < 2e-4, df
    text = source("07_bots_and_strategy")
    assert "1.96 *" not in text and "mean ± 1.96 standard\n  errors)" not in text
    table = re.search(r"T_975 = (\{.*?\})", text, flags=re.DOTALL).group(1)
    assert eval(table) == T_975  # noqa: S307 - the lesson's own literal
    out = output_of("07_bots_and_strategy", "score_table(duel)")
    lows = [float(line.split()[-3]) for line in out.splitlines()[1:]]
    assert lows and min(lows) >= 0
    both = output_of("07_bots_and_strategy", 'score_table(baseline, "greedy vs random")')
    assert "-" not in "".join(line.split()[-3] for line in both.splitlines()[1:])


def test_07_the_larger_run_is_counted_right() -> None:
    text = source("07_bots_and_strategy")
    assert "1,200 paired hands per bot" not in text and "a few minutes" not in text
    # the larger run's figures were typed in and disagreed with the lesson's own run:
    # a learner makes the run; no table of its figures is printed
    assert "| hand 4 (6 cards) |" not in text and "+2.2 ± 0.7" not in text
    assert "range(300)" in text


def test_00_gin_sentence_reads() -> None:
    text = source("00_start_here")
    assert "does not end by going out after every draw" not in text
    assert "nobody needs every card but one melded to end a hand" in text


def test_01_a_complete_hand_still_draws_first() -> None:
    assert "**already complete at the start of\nyour turn** still draws first" in source("01_three_thirteen")
    out = output_of("01_three_thirteen", "lucky = rummy.new_game(")
    assert out.strip() == "Ben holds 8♣ 3♦ 3♥ | penalty 0 | may: ['draw stock', 'draw discard']"


@pytest.mark.parametrize("stem", [p.stem for p in sorted(SOURCES.glob("0*.txt"))])
def test_each_lesson_opens_with_goals_and_time_and_ends_with_a_recap(stem: str) -> None:
    first = "".join(cells(stem)[0]["source"])
    assert "**Goals.**" in first and re.search(r"\*\*Time:\*\* about \d+ minutes", first)
    recap = [c for c in cells(stem) if "".join(c["source"]).startswith("## Recap")]
    assert len(recap) == 1 and "worked-answer" not in recap[0].get("metadata", {}).get("tags", [])
    # then, at most the appendix (00), and the last cell: the learner's map
    assert recap[0] in cells(stem)[-3:-1]


def test_00_the_translation_slips_are_an_appendix() -> None:
    text = source("00_start_here")
    assert text.index("## Appendix: the words of the source texts") > text.index("## Exercises")
    assert "## The words of the source texts" not in text


@pytest.mark.parametrize("stem", [p.stem for p in sorted(SOURCES.glob("0*.txt"))])
def test_cards_are_drawn_or_spelled_not_object_reprs(stem: str) -> None:
    for cell in cells(stem):
        for out in cell.get("outputs", []):
            data = out.get("data", {})
            text = "".join(out.get("text", "")) + "".join(data.get("text/plain", ""))
            if "Card.parse(" in text:  # only as the plain-text fallback of a drawing
                assert "image/svg+xml" in data or "text/html" in data, "".join(cell["source"])[:80]


@pytest.mark.parametrize("stem", [p.stem for p in sorted(SOURCES.glob("0*.txt"))])
def test_no_nested_one_liners(stem: str) -> None:
    text = source(stem)
    assert "lambda rng" not in text and "P(lambda" not in text
    assert not re.search(r"return \S.* if .* else .* if .* else ", text)


# --- drills beside the quizzes, the map at the end, guided hands as they are ---------------------

RULE_ID = re.compile(r"\b[A-Z]{1,2}-\d+[a-z]?\b")


@pytest.mark.parametrize("stem", [p.stem for p in sorted(SOURCES.glob("0[1-5]*.txt"))])
def test_every_rule_section_has_a_drill(stem: str) -> None:
    """Each section whose heading names a rule ends with "Practise it on a new hand:"
    and a cell ``widgets.Drill("<a rule of the heading>")``; every drill is of a rule
    its section names."""
    sections: list[tuple[str, list[dict]]] = []  # (the heading, its cells)
    for cell in cells(stem):
        heads = re.findall(r"^## .*$", "".join(cell["source"]), re.M)
        if cell["cell_type"] == "markdown" and heads:
            sections.append((heads[-1], []))
        if sections:
            sections[-1][1].append(cell)
    drilled = 0
    for heading, section in sections:
        drills = [i for i, c in enumerate(section) if c["cell_type"] == "code"
                  and "".join(c["source"]).startswith("widgets.Drill(")]
        for i in drills:
            rule = re.fullmatch(r'widgets\.Drill\("([^"]+)"(?:, variant="[a-z_]+")?\)\s*',
                                "".join(section[i]["source"]))
            assert rule and rule.group(1) in RULE_ID.findall(heading), (heading, section[i]["source"])
            assert "Practise it on a new hand:" in "".join(section[i - 1]["source"])
        if RULE_ID.search(heading) and not heading.startswith("## Recap"):
            drilled += bool(drills)
    named = {RULE_ID.search(h).group(0) for h in re.findall(r"^## (.*)$", source(stem), re.M)
             if RULE_ID.search(h)}
    # one drill per rule section; a section naming a rule drilled earlier needs none
    assert drilled == len(named), (stem, drilled, named)


@pytest.mark.parametrize("stem", [p.stem for p in sorted(SOURCES.glob("0*.txt"))])
def test_each_lesson_ends_with_the_progress_map_and_links_the_practice_app(stem: str) -> None:
    last = cells(stem)[-1]
    assert last["cell_type"] == "code"
    shown = "".join(last["source"]).strip().splitlines()[-1]
    # the first lesson's map shows its own rules; the others, all of them
    assert shown == "widgets.Progress()" or stem == "00_start_here" and shown.startswith(
        "widgets.Progress(rules=["), shown
    recap = next(c for c in cells(stem) if "".join(c["source"]).startswith("## Recap"))
    assert "](apps/practice.ipynb)" in "".join(recap["source"])


def test_the_guided_hands_are_described_as_they_are_played() -> None:
    from rummy.guided import LATER_HANDS

    for stem in ("01_three_thirteen", "02_tre_tretton", "03_three_thirteen_jokers", "05_gin_three"):
        text = source(stem)
        assert "one short hand" not in text, stem
        variant = stem[3:]
        assert len(LATER_HANDS[variant]) == 1  # so: two rounds or hands in all
        assert ("two rounds" if variant != "gin_three" else "two short guided hands") in text, stem
    # the big table has no later hand: one hand it says, one hand it is
    assert "big_table" not in LATER_HANDS and "one short hand: hand 1" in source("04_big_table")
