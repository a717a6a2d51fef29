"""Learning that is remembered, in Chromium through the Voilà app as ``make app``
serves it (tests/browser/harness.py).

(a) A learner names themselves once on the progress page (the browser keeps
    the learner key the kernel made, never the name), answers a quiz, makes a
    guided move and plays at a table on another page (which gives the key to its
    kernel by itself), closes the browser; the server and its kernels are
    restarted; the browser opened again shows the same map.
(b) Three learners practise at a classroom table (each names themselves once, at
    the first judged move; the browser keeps the key); the teacher, signed in with
    the teacher key, sees each learner's rules in the class grid; Ben's browser
    asking for Ana's record by address, or typing "ana" in the name box, gets
    nothing of hers; his progress page shows his recovery code and its QR.
"""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path
from typing import Any

import pytest

import rummy
from rummy.progress import Record
from tests.browser import harness
from tests.browser.axe import assert_accessible
from tests.browser.pages import name_when_asked, refused_with, wait_named, watched_page

pytestmark = pytest.mark.browser

PROBE = {
    "cells": [{"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [],
               "source": [
                   "import ipywidgets as w\n",
                   "from widgets.apps import App\n",
                   "from widgets import BigTableTable, GuidedHand, Quiz\n",
                   "\n",
                   "class Probe:\n",
                   "    def __init__(self):\n",
                   "        self.quiz = Quiz('What does an unmelded queen cost (C-2)?', '10')\n",
                   "        self.guided = GuidedHand('three_thirteen')\n",
                   "        self.table = BigTableTable(players=4, seed=3, speed=0)\n",
                   "        self.widget = w.VBox([self.quiz.widget, self.guided.widget,\n",
                   "                              self.table.widget])\n",
                   "\n",
                   "App({}, lambda s: Probe())\n"]}],
    "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python",
                                "name": "python3"}, "language_info": {"name": "python"}},
    "nbformat": 4, "nbformat_minor": 5,
}


def row(page: Any, rule: str) -> str:
    return str(page.locator(f".rummy-progress-map li[data-rule='{rule}']").first.inner_text())


def test_progress_survives_closing_the_browser_and_restarting_the_kernels(
        browser: Any, tmp_path: Path) -> None:
    root = harness.clean_copy(tmp_path / "kit")
    (root / "notebooks" / "apps" / "progress_probe.ipynb").write_text(json.dumps(PROBE))
    data = tmp_path / "data"
    data.mkdir()
    server = harness.start_voila(root=root, env={"RUMMY_DATA": str(data)},
                                 extra_args=["--show_tracebacks=True"], apps=[])
    try:
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        page, watch, errors = watched_page(context)
        # the progress page asks once, with a plain default
        harness.open_with_new_kernel(page, harness.app_url(server.base, "progress"))
        page.wait_for_selector(".rummy-who-asking .rummy-learner-input input", timeout=120_000)
        assert page.locator(".rummy-who-asking .rummy-learner-input input").input_value() == "Learner"
        page.locator(".rummy-who-asking .rummy-learner-input input").fill("Ana")
        page.locator(".rummy-who-asking .rummy-learner-input input").press("Enter")
        watch.settle()
        watch.click("button.rummy-learner-ok")
        wait_named(page, "Ana")
        # the browser keeps Ana's key (never her name), and the address holds neither
        page.wait_for_function("() => (localStorage.getItem('rummy-learner-key') || '')"
                               ".length === 32")
        key = page.evaluate("() => localStorage.getItem('rummy-learner-key')")
        assert Record(data / "progress.sqlite3").learner_of(key) == "Ana"
        assert key not in page.url and "Ana" not in page.url
        assert "Ana: 0 of 58 rules mastered, 0 due" in harness.page_text(page)

        # another page, another kernel: it finds the name in the browser by itself
        page, watch, errors2 = watched_page(context)
        harness.open_with_new_kernel(page, harness.app_url(server.base, "progress_probe"))
        page.wait_for_selector(".rummy-quiz-input input", timeout=120_000)
        page.wait_for_selector(harness.READY, timeout=120_000)
        page.locator(".rummy-quiz-input input").fill("12")
        watch.click("button.rummy-quiz-check")
        wait_named(page, "Ana")  # asked when the answer needed a name, filled in by the page
        page.locator(".rummy-quiz-input input").fill("10")
        watch.click("button.rummy-quiz-check")
        page.wait_for_selector(".rummy-quiz-right")
        watch.click("button.rummy-guided-move:has-text('draw stock')")
        page.wait_for_selector(".rummy-guided-feedback .rummy-quiz-right")
        watch.click("button.rummy-own-pile")
        refused_with(page, "BT-3")
        watch.settle()
        assert not errors and not errors2
        kept = [(e.rule, e.right, e.first, e.source)
                for e in Record(data / "progress.sqlite3").events("Ana")]
        assert ("C-2", False, True, "quiz") in kept and ("C-2", True, False, "quiz") in kept
        assert ("TT-5", True, True, "guided") in kept and ("BT-3", False, True, "table") in kept
        storage = context.storage_state()
        context.close()  # the browser is closed
        assert not server.tracebacks(), server.log()[-3000:]
        server.stop()  # every kernel dies with the server
    finally:
        server.stop()

    # the same address (the browser keeps its storage per origin), a new server
    server = harness.start_voila(port=server.port, root=root, env={"RUMMY_DATA": str(data)},
                                 extra_args=["--show_tracebacks=True"], apps=[])
    try:
        context = browser.new_context(viewport={"width": 1280, "height": 900},
                                      storage_state=storage)
        page, watch, errors = watched_page(context)
        harness.open_with_new_kernel(page, harness.app_url(server.base, "progress"))
        wait_named(page, "Ana")  # no question: the browser kept the key
        page.wait_for_selector(".rummy-progress-summary:has-text('Ana')")
        text = harness.page_text(page)
        assert "Ana: 0 of 58 rules mastered, 0 due" in text
        assert ": 2 tries, 0 right at the first try, on 1 day" in row(page, "C-2")
        assert ": 1 try, 1 right at the first try, on 1 day" in row(page, "TT-5")
        assert ": 1 try, 0 right at the first try, on 1 day" in row(page, "BT-3")
        assert row(page, "G-9").startswith("Not seen")
        assert page.locator(".rummy-rule-practising .rummy-rule-badge").first.inner_text() \
            == "Practising"
        # what to do next, at the top: a rule not seen yet (nothing is due on the day)
        step = page.locator(".rummy-progress-step")
        assert step.inner_text().startswith("Next step: try a rule you have not practised"), \
            step.inner_text()
        assert "practice.ipynb?rule=" in (step.locator("a").get_attribute("href") or "")
        link = page.locator("li[data-rule='BT-3'] a.rummy-practise")
        assert link.get_attribute("aria-label") == "Practise BT-3: A cycle: draw, then discard"
        assert "practice.ipynb?rule=BT-3" in (link.get_attribute("href") or "")
        # every event kept about the learner, on request
        watch.click("button.rummy-progress-show")
        page.wait_for_selector(".rummy-progress-events table")
        assert "What does an unmelded queen cost (C-2)?" in harness.page_text(page)
        assert not harness.page_tracebacks(page) and not errors
        context.close()
        assert not server.tracebacks(), server.log()[-3000:]
    finally:
        server.stop()


#: The teacher key the server of the class grid's test is given (RUMMY_TEACHER_KEY).
KEY = "teacher-key-of-the-progress-tests-0123"
#: The shared table's seed in the three learners' test (harness.start_voila's ``seeds``).
DEAL = 1


def api(base: str, path: str, body: Any = None, token: str = "") -> dict[str, Any]:
    req = urllib.request.Request(base + "rummy/api" + path,
                                 data=None if body is None else json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json",
                                          **({"X-Rummy-Token": token} if token else {})})
    with urllib.request.urlopen(req, timeout=30) as r:
        return dict(json.loads(r.read()))


def test_three_learners_practise_and_the_teacher_sees_each_one(browser: Any,
                                                                 tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    # the deal: the table's first cycle is everybody's draw, so that each learner's click
    # on the own pile is refused with BT-3. About one deal in seven at three seats opens
    # with a match window instead (BT-4: a hand complete straight after the deal; seed 17
    # is one), where the click is refused with BT-4 or "allowed: call match, play on": with
    # a deal from secrets, this test failed on those deals (runs 3 and 4 of a sweep)
    assert rummy.new_game("big_table", players=["Ana", "Ben", "Cleo"],
                          seed=DEAL).phase == "draw"
    with harness.start_voila(env={"RUMMY_DATA": str(data), "RUMMY_TEACHER_KEY": KEY},
                             extra_args=["--show_tracebacks=True"], seeds=[DEAL],
                             apps=["big_table"]) as server:
        made = api(server.base, "/tables", {"teacher_key": KEY, "variant": "big_table",
                                           "seats": ["human"] * 3, "speed": 10})
        code = made["code"]
        pages = {}
        contexts = []
        for name in ("Ana", "Ben", "Cleo"):
            ctx = browser.new_context(viewport={"width": 1280, "height": 900})
            contexts.append(ctx)
            page, watch, errors = watched_page(ctx)
            page.goto(harness.app_url(server.base, "big_table", table=code, name=name))
            pages[name] = (page, watch, errors)
        # each practises: Ana once, Ben twice, Cleo three times (the own pile, BT-3)
        for times, name in enumerate(("Ana", "Ben", "Cleo"), start=1):
            page, watch, _ = pages[name]
            page.wait_for_selector(harness.READY, timeout=120_000)
            watch.settle()
            for n in range(times):
                watch.click("button.rummy-own-pile")
                if n == 0:  # the first judged move asks who is learning: a name, once
                    name_when_asked(page, watch, name)
                try:
                    refused_with(page, "BT-3")
                except Exception as exc:  # say what the page and the table were doing
                    req = urllib.request.Request(
                        server.base + f"rummy/api/tables/{code}",
                        headers={"X-Rummy-Teacher-Key": KEY, "X-Rummy-Token": KEY})
                    with urllib.request.urlopen(req, timeout=30) as r:
                        table = json.loads(r.read())["table"]
                    raise AssertionError(
                        f"{name}'s click {n + 1} on the own pile showed no BT-3 refusal. The "
                        f"page: {harness.page_text(page)[:1500]!r}. The table: "
                        f"{json.dumps(table)[:3000]}") from exc
        # the teacher's page: signed in with the teacher key (nothing in its address), the
        # class of every table of the server
        tctx = browser.new_context(viewport={"width": 1280, "height": 900})
        contexts.append(tctx)
        teacher, twatch, terrors = watched_page(tctx)
        teacher.goto(harness.app_url(server.base, "classroom"))
        harness.wait_rendered(teacher, timeout=120_000)
        teacher.wait_for_selector(".rummy-teacher-key input", timeout=60_000)
        teacher.locator(".rummy-teacher-key input").fill(KEY)
        twatch.click("button.rummy-sign-in")
        teacher.wait_for_selector("button.rummy-class-progress", state="visible",
                                  timeout=60_000)
        twatch.settle()
        signed = len(twatch.frames)  # (the key box echoes what was typed into it)
        twatch.click("button.rummy-class-progress")
        teacher.wait_for_selector(".rummy-class-grid")
        for name, times in (("Ana", 1), ("Ben", 2), ("Cleo", 3)):
            cell = teacher.locator(f"tr[data-learner='{name}'] td[data-rule='BT-3']")
            assert cell.inner_text().strip().startswith(
                f"rule: 0 of {times} right first, 1 day, recall ")
        assert KEY not in teacher.url and KEY not in harness.page_text(teacher)
        assert not any(KEY in f for f in twatch.frames[signed:])  # the grid shows no key
        href = teacher.locator("a.rummy-class-csv-link").get_attribute("href") or ""
        assert href.startswith("data:text/csv;base64,")
        assert_accessible(teacher, "the teacher's page with the class grid")
        # Ben's browser asks for Ana's record by address: it shows Ben's, by his key; Ben's
        # record only, in the page and in what the kernel sent
        page, watch, errors = watched_page(contexts[1])
        harness.open_with_new_kernel(page, harness.app_url(server.base, "progress",
                                                           learner="Ana"))
        wait_named(page, "Ben")
        page.wait_for_selector(".rummy-progress-summary:has-text('Ben')")
        assert row(page, "BT-3").startswith("Practising") and ": 2 tries" in row(page, "BT-3")
        watch.settle()
        for other in ("Ana", "Cleo"):
            assert other not in harness.page_text(page)
            assert other not in watch.text()
        # ... and typing her name (in another case) in the name box opens nothing of hers
        watch.click("button.rummy-learner-change")
        page.locator(".rummy-learner-input input").fill("ana")
        page.locator(".rummy-learner-input input").press("Enter")
        watch.settle()
        watch.click("button.rummy-learner-ok")
        page.wait_for_selector(".rummy-who .rummy-error:has-text('already learns as')")
        assert "Ana" not in watch.text().replace("'ana'", "")
        # the progress page offers Ben his recovery code (and its QR) for another device
        page, watch, errors = watched_page(contexts[1])
        harness.open_with_new_kernel(page, harness.app_url(server.base, "progress"))
        wait_named(page, "Ben")
        watch.click("button.rummy-progress-code")
        page.wait_for_selector(".rummy-recovery-code")
        key = page.evaluate("() => localStorage.getItem('rummy-learner-key')")
        shown = page.locator(".rummy-recovery-code").inner_text().replace("-", "")
        assert shown == key and page.locator(".rummy-recovery-qr svg").count() == 1
        assert Record(data / "progress.sqlite3").learner_of(key) == "Ben"
        for _, _, errs in pages.values():
            assert not errs
        assert not terrors and not errors
        for ctx in contexts:
            ctx.close()
        assert not server.tracebacks(), server.log()[-3000:]
