"""The practice app (notebooks/apps/practice.ipynb) played in Chromium by
keyboard and by mouse: a wrong answer is told with its rule id, three hints
come in order (a question, the rule and why, the answer), a right answer by
clicking a card is accepted, and axe-core finds nothing serious."""

from __future__ import annotations

import pytest

from rummy import practice
from tests.browser import harness
from tests.browser.axe import assert_accessible
from tests.browser.harness import Watch

pytestmark = pytest.mark.browser

FEEDBACK = ".rummy-practice-feedback"


def feedback(page) -> str:
    return page.locator(FEEDBACK).inner_text()


def test_practice_app_by_keyboard_and_mouse(page, voila):
    d = practice.drill("TT-6", 0)           # the same drill the app deals for ?topic=TT-6&seed=0
    right = str(d.an_answer())
    wrong = d.mistake
    watch = Watch(page)
    page.goto(harness.app_url(voila.base, "practice", topic="TT-6", seed=0))
    harness.wait_rendered(page, 120_000)
    page.wait_for_selector(".rummy-practice", state="visible", timeout=90_000)
    watch.settle()
    assert d.question in page.locator(".rummy-practice-question").inner_text()
    assert page.locator(".rummy-practice-felt button.rummy-card").count() == len(d.rows[-1].cards)
    assert_accessible(page, "practice, a new drill")

    # keyboard: type a wrong card and press Enter
    box = page.locator(".rummy-practice-input input")
    box.focus()
    page.keyboard.type(wrong)
    page.keyboard.press("Enter")
    page.wait_for_function(f"() => /TT-6/.test(document.querySelector('{FEEDBACK}').innerText)")
    assert "Not quite." in feedback(page) and "(TT-6)" in feedback(page)

    # three hints in order, by keyboard on the Hint button
    hint = page.locator("button.rummy-hint")
    seen = []
    for k in (1, 2, 3):
        hint.focus()
        page.keyboard.press("Enter")
        page.wait_for_function(
            f"() => document.querySelector('{FEEDBACK}').innerText.includes('Hint {k} of 3')")
        seen.append(feedback(page))
    assert seen[0].rstrip().endswith("?")
    assert "TT-6: " in seen[1]
    assert "The answer:" in seen[2]
    assert_accessible(page, "practice, after the hints")

    # mouse: click the right card
    page.locator(f".rummy-practice-felt button.rummy-card-{right}").first.click()
    page.wait_for_function(f"() => /Right/.test(document.querySelector('{FEEDBACK}').innerText)")

    # mouse: the next drill, a choice answered by its button
    page.locator("button.rummy-practice-next").click()
    page.wait_for_function(f"() => document.querySelector('{FEEDBACK}').innerText === ''")
    assert_accessible(page, "practice, the next drill")
