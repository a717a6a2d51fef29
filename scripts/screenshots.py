"""Small PNG screenshots of every app for the README, taken in Chromium.

Serves the apps with Voilà (as ``make app`` does), opens each one with a fixed
seed so the pictures are repeatable, waits for its table, and saves a
screenshot of the part of the page that matters at desktop size
(``docs/screenshots/<app>.png``; the viewport is made tall enough for the whole
part to be drawn, as Voilà scrolls inside its own panel), and at phone size the
first screen a learner sees, 390 x 844 CSS pixels
(``docs/screenshots/<app>_phone.png``): on your turn the hand and the piles are
in it.  The ``*_review`` pictures show the end of the first round or hand, its
review drawn on the table.  ``projector`` is the classroom's projector view of a
Big Table of four bots mid-hand (``docs/screenshots/projector.png``, desktop
size only: it is shown on a wall, not a phone).

    .venv/bin/python scripts/screenshots.py                 # or: make screenshots
    .venv/bin/python scripts/screenshots.py big_table       # one app, both sizes
"""

from __future__ import annotations

import io
import json
import secrets
import sys
import urllib.request
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.browser import harness  # noqa: E402

OUT = harness.ROOT / "docs" / "screenshots"
WIDTH = 1000  # CSS pixels of the page; pictures are scaled down to MAX_WIDTH
MAX_WIDTH = 640
#: file-name suffix -> (viewport width, height, picture width at most)
#: (tall pages: Voilà scrolls inside its own panel, so the viewport must hold the part shown)
SIZES = {"": (WIDTH, 2400, MAX_WIDTH), "_phone": (390, 844, 390)}
#: a click step that means: press "Do it for me" until the round's review shows
REVIEW = "review"
#: pictures of a page's whole part at phone size (pages that are not a table)
TALL_PHONE = (390, 3200, 390)

#: app -> (query, what to wait for, what to photograph, a few clicks first)
SHOTS: dict[str, tuple[dict[str, Any], str, str, list[str]]] = {
    "index": ({}, "h1", "#rendered_cells > div", []),
    "three_thirteen": ({"seed": 7, "players": 3, "speed": 0}, harness.READY,
                       ".rummy-table", ["button.rummy-hint"]),
    "three_thirteen_review": ({"seed": 7, "players": 3, "speed": 0}, harness.READY,
                              ".rummy-table", [REVIEW]),
    "big_table_review": ({"seed": 7, "players": 6, "speed": 0}, harness.READY, ".rummy-table",
                         [REVIEW]),
    "gin_three_review": ({"seed": 4, "speed": 0}, harness.READY, ".rummy-table", [REVIEW]),
    "three_thirteen_jokers": ({"seed": 7, "variant": "three_thirteen_jokers", "jokers": 2,
                               "speed": 0}, harness.READY, ".rummy-table", []),
    "big_table": ({"seed": 7, "players": 6, "speed": 0}, harness.READY, ".rummy-table", []),
    "gin_three": ({"seed": 7, "speed": 0}, harness.READY, ".rummy-table", []),
    "meld_odds": ({}, ".rummy-odds-explorer", "#rendered_cells > div", []),
}


#: the projector's picture: a table of bots the screenshot server makes (its own key)
PROJECTOR = "projector"
PROJECTOR_SIZE = (1280, 900, 800)
TEACHER_KEY = "screenshots-" + secrets.token_urlsafe(16)


def shrink(png: bytes, width: int = MAX_WIDTH) -> bytes:
    """The PNG scaled down to ``width`` pixels wide (a small file for the README)."""
    from PIL import Image

    img = Image.open(io.BytesIO(png))
    if img.width > width:
        img = img.resize((width, round(img.height * width / img.width)), Image.LANCZOS)
    img = img.convert("RGB").quantize(colors=128, method=Image.Quantize.MEDIANCUT)
    out = io.BytesIO()
    img.save(out, format="PNG", optimize=True)
    return out.getvalue()


def play_to_review(page: Any, watch: Any) -> None:
    """Let the coach play the learner's moves until the round's review shows."""
    for _ in range(200):
        page.wait_for_function(
            "() => { const r = document.querySelector('.rummy-review'); "
            "const b = document.querySelector('button.rummy-do-it'); "
            "const c = document.querySelector('button.rummy-continue'); "
            "return (r && r.offsetParent !== null) || (b && !b.disabled) "
            "|| (c && !c.disabled && c.offsetParent !== null); }", timeout=60_000)
        if page.locator(".rummy-review").is_visible():
            return
        if page.locator("button.rummy-do-it:enabled").count():
            watch.click("button.rummy-do-it")
        else:
            watch.click("button.rummy-continue")
    raise RuntimeError("no review after 200 moves")


def take(browser: Any, base: str, name: str, suffix: str = "") -> Path:
    query, ready, part, clicks = SHOTS[name]
    width, height, max_width = SIZES[suffix]
    screen = suffix == "_phone" and part == ".rummy-table"  # the first screen, as a learner sees it
    if suffix == "_phone" and not screen:
        width, height, max_width = TALL_PHONE
    app = next(a for a in ("three_thirteen", "big_table", "gin_three", "meld_odds", "index")
               if name.startswith(a))
    page = browser.new_page(viewport={"width": width, "height": height})
    watch = harness.Watch(page)  # before the page opens its websocket
    try:
        page.goto(harness.app_url(base, app, **query))
        harness.wait_rendered(page, 120_000)
        page.wait_for_selector(ready, state="visible", timeout=120_000)
        for sel in clicks:
            if sel == REVIEW:
                play_to_review(page, watch)
            else:
                watch.click(sel)
        page.wait_for_timeout(1500)  # let the last redraw land
        shown = harness.page_tracebacks(page)
        if shown:
            raise RuntimeError(f"{name}: the page shows a traceback: {shown}")
        if screen:
            page.evaluate("() => { document.activeElement && document.activeElement.blur(); "
                          "document.querySelectorAll('*').forEach(e => { if (e.scrollTop) "
                          "e.scrollTop = 0; }); window.scrollTo(0, 0); }")
            page.wait_for_timeout(300)
            png = page.screenshot(animations="disabled")
        else:
            png = page.locator(part).first.screenshot(animations="disabled")
    finally:
        page.close()
    path = OUT / f"{name}{suffix}.png"
    path.write_bytes(shrink(png, max_width))
    return path


def take_projector(browser: Any, base: str) -> Path:
    """The projector view (the classroom page with a table's spectator token)
    of a Big Table of four bots, a few calls into its first hand."""
    body = json.dumps({"teacher_key": TEACHER_KEY, "variant": "big_table",
                       "seats": ["greedy", "expert", "greedy", "expert"]}).encode()
    req = urllib.request.Request(base + "rummy/api/tables", data=body, method="POST",
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as r:
        made = json.loads(r.read())
    width, height, max_width = PROJECTOR_SIZE
    page = browser.new_page(viewport={"width": width, "height": height})
    try:
        page.goto(harness.app_url(base, "classroom", table=made["code"])
                  + f"#watch={made['spectator_token']}")
        page.wait_for_selector(".rummy-projector-felt", timeout=120_000)
        page.wait_for_selector(".rummy-projector-call", timeout=60_000)
        page.wait_for_timeout(6000)  # a few calls into the hand
        shown = harness.page_tracebacks(page)
        if shown:
            raise RuntimeError(f"projector: the page shows a traceback: {shown}")
        png = page.locator(".rummy-projector").first.screenshot(animations="disabled")
    finally:
        page.close()
    path = OUT / f"{PROJECTOR}.png"
    path.write_bytes(shrink(png, max_width))
    return path


def main(argv: list[str]) -> int:
    names = argv or [*SHOTS, PROJECTOR]
    unknown = [n for n in names if n not in SHOTS and n != PROJECTOR]
    if unknown:
        print(f"unknown app(s) {unknown}; the apps are: {', '.join([*SHOTS, PROJECTOR])}",
              file=sys.stderr)
        return 2
    OUT.mkdir(parents=True, exist_ok=True)
    with harness.start_voila(env={"RUMMY_TEACHER_KEY": TEACHER_KEY}) as server, \
            harness.chromium() as browser:
        jobs = [(name, suffix) for name in names for suffix in
                ([""] if name == PROJECTOR else SIZES)]
        for i, (name, suffix) in enumerate(jobs, 1):
            path = (take_projector(browser, server.base) if name == PROJECTOR
                    else take(browser, server.base, name, suffix))
            print(f"[{i}/{len(jobs)}] {path.relative_to(harness.ROOT)} "
                  f"({path.stat().st_size // 1024} KB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
