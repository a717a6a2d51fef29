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
    """Lesson 06 through Voilà shows sympy's formulas (computed ahead by the build, the
    page's Markdown math) typeset by MathJax, not as LaTeX source, each with MathML a
    screen reader reads."""
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url))
    harness.open_with_new_kernel(page, f"{voila.base}voila/render/notebooks/06_meld_odds.ipynb")
    formulas = page.locator(".jp-MarkdownOutput mjx-container")
    expect(formulas).to_have_count(3, timeout=60_000)
    for k in range(3):
        assert formulas.nth(k).locator("mjx-assistive-mml math").count() == 1
    shown = page.locator("#rendered_cells").inner_text()
    assert "\\binom" not in shown and "\\frac" not in shown, "LaTeX source shown"
    frac = page.locator(".jp-MarkdownOutput mjx-assistive-mml math").first
    assert frac.locator("mfrac").count() >= 1  # 136694 over C(52, 10)
    assert any(u.endswith("/static/kit-math.js") for u in asked), "MathJax was not loaded"


LESSONS = sorted(p.stem for p in (harness.ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
#: what only a notebook asks of its reader: a page has no cells to run or edit
LAB_WORDS = ("Shift+Enter", "Kernel →", "Restart Kernel", "Replace `None`", "Replace <code>None</code>",
             "run the cell", "Run a cell")
#: Python's own spellings, which a page never prints
RAW = ("Fraction(", "Action.parse(", "'0.1.0'", "right!", "no answer yet", "Traceback")


def page_parts(html: str) -> tuple[str, list[dict[str, Any]]]:
    """A Voilà page's text (its markdown and printed outputs, scripts left out)
    and the outputs it sends to the front end (values, pictures, widgets)."""
    import json
    import re

    outputs = [json.loads(o) for o in re.findall(
        r'<script type="application/vnd.voila.cell-output\+json">\s*(.*?)\s*</script>', html, re.S)]
    body = html[html.find('<div id="rendered_cells"'):]
    body = re.sub(r"<script.*?</script>", "", body, flags=re.S)
    return body, outputs


def get_page(voila: harness.Server, lesson: str) -> str:
    """The lesson's page by a plain GET, as a program without a browser asks for it:
    the answer ends once every cell has run (no cell may wait on a browser)."""
    import urllib.request

    url = f"{voila.base}voila/render/notebooks/{lesson}.ipynb"
    with urllib.request.urlopen(url, timeout=120) as answer:
        return str(answer.read().decode("utf-8"))


@pytest.mark.parametrize("lesson", LESSONS)
def test_a_lesson_page_shows_prose_pictures_and_widgets_only(voila: harness.Server, lesson: str) -> None:
    """The page face of a lesson (a plain GET, which must finish): no code, no
    instruction that needs JupyterLab, no bare value or printed line, no worked
    answer open, no teacher note; the quizzes and exercises are widgets."""
    import json

    html = get_page(voila, lesson)
    body, outputs = page_parts(html)
    assert "jp-InputArea-editor" not in body  # Voilà strips the code
    for words in LAB_WORDS + RAW:
        assert words not in body, (lesson, words)
    printed = [o for o in outputs if o.get("output_type") == "stream"]
    bare = [o["data"]["text/plain"][:80] for o in outputs
            if "data" in o and set(o["data"]) <= {"text/plain"}]
    assert not printed and not bare, (lesson, printed[:3], bare[:5])
    assert 'data-mime-type="text/plain"' not in body, lesson  # printed lines (stdout)
    assert "<details open" not in body and "details class=\"worked-answer\" open" not in body
    nb = json.loads((harness.ROOT / "notebooks" / f"{lesson}.ipynb").read_text())
    for cell in nb["cells"]:
        if "teacher-only" in cell["metadata"].get("tags", []):
            assert "".join(cell["source"])[:60] not in body, (lesson, "teacher note shown")
    asked = [c for c in nb["cells"] if c["metadata"].get("tags") in (["quiz"], ["exercise"])]
    widgets = [o for o in outputs if "application/vnd.jupyter.widget-view+json" in o.get("data", {})]
    assert len(widgets) >= len(asked), (lesson, "a quiz or exercise without its answer box")


def test_an_exercise_is_answered_in_the_page(page: Any, voila: harness.Server) -> None:
    """Lesson 00's first exercise, answered by typing in its box and clicking
    *Check*: wrong once (the hint for that mistake), then right."""
    watch = Watch(page)
    harness.open_with_new_kernel(page, f"{voila.base}voila/render/notebooks/00_start_here.ipynb")
    harness.wait_rendered(page, 120_000)
    box = page.locator(".rummy-quiz", has_text="Exercise 1.").first
    box.wait_for(state="visible", timeout=90_000)
    watch.settle()
    for answer, expected in (("20 points", "A jack costs 10"), ("nineteen", "Right")):
        box.locator(".rummy-quiz-input input").fill(answer)
        box.locator(".rummy-quiz-input input").focus()
        watch.press("Enter")
        watch.click(".rummy-quiz:has-text('Exercise 1.') .rummy-quiz-check")
        expect(box.locator(".rummy-quiz-feedback")).to_contain_text(expected, timeout=15_000)
