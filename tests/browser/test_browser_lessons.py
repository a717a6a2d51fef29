"""A lesson as a learner opens it from the landing page (Voilà renders
notebooks/02_tre_tretton.ipynb): the guided hand and a quiz are played by
clicks and keys, in Chromium.

The guided hand of tre_tretton is a chosen deal (rummy.guided.SCRIPTS, then
LATER_HANDS for round 2): you
hold 3♣ 3♦ 3♠, the discard pile shows 3♥ and the stock gives 8♥ first.  A
wrong move shows feedback naming the rule (TR-2), a right one is played; the
lesson's first quiz is answered right in two spellings and wrong once.  The
page shows no traceback (the ``page`` fixture checks the page and the server
log) and axe-core finds nothing serious or critical in either widget.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser import harness
from tests.browser.axe import violations
from tests.browser.harness import Watch

pytestmark = pytest.mark.browser

LESSON = "02_tre_tretton"
GUIDED = ".rummy-guided"
FEEDBACK = f"{GUIDED} .rummy-guided-feedback"
QUIZ = ".rummy-quiz >> nth=0"



def move(name: str) -> str:
    return f'{GUIDED} .rummy-guided-moves button:text-is("{name}")'


def text(page: Any, selector: str) -> str:
    return str(page.locator(selector).first.inner_text())


def shows(page: Any, selector: str, *parts: str) -> str:
    """Wait until the element shows every one of ``parts`` (the front end may draw
    an update just after the kernel said it is idle); return its text."""
    for part in parts:
        expect(page.locator(selector).first).to_contain_text(part, timeout=15_000)
    return text(page, selector)


def type_in(watch: Watch, selector: str, value: str) -> None:
    """Type into a text box and press Enter (the box sends its value then)."""
    box = watch.page.locator(selector).first
    box.fill(value)
    box.focus()
    watch.press("Enter")


def test_guided_hand_and_quiz_in_a_lesson_page(page: Any, voila: harness.Server) -> None:
    watch = Watch(page)
    harness.open_with_new_kernel(page, f"{voila.base}voila/render/notebooks/{LESSON}.ipynb")
    harness.wait_rendered(page, 120_000)
    page.wait_for_selector(GUIDED, state="visible", timeout=90_000)
    page.wait_for_selector(".rummy-quiz", state="visible", timeout=90_000)
    watch.settle()
    shows(page, f"{GUIDED} .rummy-guided-situation", "You hold 3♣ 3♦ 3♠", "(TR-2)")

    # a wrong draw, by mouse: the 3♥ is a fourth wild (TR-2)
    watch.click(move("draw discard"))
    feedback = shows(page, FEEDBACK, "Not that one:", "(TR-2)")
    assert feedback.startswith("Not that one:") and feedback.endswith("Try again."), feedback
    expect(page.locator(move("draw discard"))).to_have_count(1)   # nothing was played
    # the right draw, by keyboard
    page.locator(move("draw stock")).focus()
    watch.press("Enter")
    assert shows(page, FEEDBACK, "Good. You draw from the stock").startswith("Good.")
    shows(page, f"{GUIDED} .rummy-guided-situation", "8♥")
    # a wrong move typed: going out with the 8♥ would keep wilds only
    type_in(watch, f"{GUIDED} .rummy-guided-input input", "go out 8h")
    watch.click(f"{GUIDED} .rummy-guided-play")
    shows(page, FEEDBACK, "wilds only", "(TR-2)")
    # the right move: out with a wild, the others' last turns are told in words
    watch.click(move("go out 3s"))
    shows(page, FEEDBACK, "Good.", "You go out")
    # round 2: Ben goes out first, so this is your last turn (TT-7); the J♥ he
    # left for Ana, thrown by her, completes your hearts and you go out too
    shows(page, f"{GUIDED} .rummy-guided-situation", "Round 2", "(TT-7)")
    watch.click(move("draw discard"))
    shows(page, FEEDBACK, "Good. You take Jh")
    watch.click(move("go out Kc"))
    feedback = shows(page, FEEDBACK, "Good. The hand is over.", "You score 0")
    assert feedback.startswith("Good. The hand is over."), feedback
    expect(page.locator(f"{GUIDED}.rummy-guided-done")).to_have_count(1)

    # the lesson's first quiz: at most how many players (TR-1)?
    box, check, quiz_feedback = (f"{QUIZ} >> .rummy-quiz-input input", f"{QUIZ} >> .rummy-quiz-check",
                                 f"{QUIZ} >> .rummy-quiz-feedback")
    shows(page, f"{QUIZ} >> .rummy-quiz-question", "(TR-1)")
    # in this order each answer changes the feedback, so each one is seen answered
    for answer, expected in (("four", "Right: 4."), ("12", "Not yet. Twelve is the Big Table (BT-1)"),
                             ("4", "Right: 4.")):
        type_in(watch, box, answer)
        watch.click(check)
        said = shows(page, quiz_feedback, expected)
        assert said.startswith(expected), (answer, said)

    # axe-core on the two widgets as they are now
    found = violations(page, [GUIDED, ".rummy-quiz"])
    bad = [v for v in found if v["impact"] in ("serious", "critical")]
    assert not bad, bad


def test_a_lessons_formulas_are_typeset_and_read_out(page: Any, voila: harness.Server) -> None:
    """Lesson 06 through Voilà shows sympy's formulas (text/latex outputs) typeset
    by MathJax, not as LaTeX source, each with MathML a screen reader reads."""
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url))
    harness.open_with_new_kernel(page, f"{voila.base}voila/render/notebooks/06_meld_odds.ipynb")
    formulas = page.locator(".jp-RenderedLatex")
    expect(formulas).to_have_count(3, timeout=60_000)
    expect(page.locator(".jp-RenderedLatex mjx-container")).to_have_count(3, timeout=30_000)
    for k in range(3):
        formula = formulas.nth(k)
        assert "\\" not in formula.inner_text(), formula.inner_text()
        assert formula.locator("mjx-assistive-mml math").count() == 1
    frac = page.locator(".jp-RenderedLatex mjx-assistive-mml math").first
    assert frac.locator("mfrac").count() >= 1  # 136694 over C(52, 10)
    assert any(u.endswith("/static/kit-math.js") for u in asked), "MathJax was not loaded"
