"""Small PNG screenshots of every app for the README, taken in Chromium.

Serves the apps with Voilà (as ``make app`` does), opens each one with a fixed
seed so the pictures are repeatable, waits for its table, and saves a
screenshot of the part of the page that matters, at desktop size
(``docs/screenshots/<app>.png``) and at phone size, 390 x 844 CSS pixels
(``docs/screenshots/<app>_phone.png``); the viewport is made tall enough for
the whole part to be drawn (Voilà scrolls inside its own panel).

    .venv/bin/python scripts/screenshots.py                 # or: make screenshots
    .venv/bin/python scripts/screenshots.py big_table       # one app, both sizes
"""

from __future__ import annotations

import io
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "browser"))

import harness  # noqa: E402

OUT = harness.ROOT / "docs" / "screenshots"
WIDTH = 1000  # CSS pixels of the page; pictures are scaled down to MAX_WIDTH
MAX_WIDTH = 640
#: file-name suffix -> (viewport width, height, picture width at most)
#: (tall pages: Voilà scrolls inside its own panel, so the viewport must hold the part shown)
SIZES = {"": (WIDTH, 2400, MAX_WIDTH), "_phone": (390, 3200, 390)}

#: app -> (query, what to wait for, what to photograph, a few clicks first)
SHOTS: dict[str, tuple[dict[str, Any], str, str, list[str]]] = {
    "index": ({}, "h1", "#rendered_cells > div", []),
    "three_thirteen": ({"seed": 7, "players": 3, "speed": 0}, harness.READY,
                       ".rummy-table", ["button.rummy-hint"]),
    "three_thirteen_jokers": ({"seed": 7, "variant": "three_thirteen_jokers", "jokers": 2,
                               "speed": 0}, harness.READY, ".rummy-table", []),
    "big_table": ({"seed": 7, "players": 6, "speed": 0}, harness.READY, ".rummy-table", []),
    "gin_three": ({"seed": 7, "speed": 0}, harness.READY, ".rummy-table", []),
    "meld_odds": ({}, ".rummy-odds-explorer", "#rendered_cells > div", []),
}


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


def take(browser: Any, base: str, name: str, suffix: str = "") -> Path:
    query, ready, part, clicks = SHOTS[name]
    width, height, max_width = SIZES[suffix]
    app = "three_thirteen" if name.startswith("three_thirteen") else name
    page = browser.new_page(viewport={"width": width, "height": height})
    try:
        page.goto(harness.app_url(base, app, **query))
        harness.wait_rendered(page, 120_000)
        page.wait_for_selector(ready, state="visible", timeout=120_000)
        for sel in clicks:
            page.locator(sel).click()
        page.wait_for_timeout(1500)  # let the last redraw land
        shown = harness.page_tracebacks(page)
        if shown:
            raise RuntimeError(f"{name}: the page shows a traceback: {shown}")
        target = page.locator(part).first
        png = target.screenshot(animations="disabled")
    finally:
        page.close()
    path = OUT / f"{name}{suffix}.png"
    path.write_bytes(shrink(png, max_width))
    return path


def main(argv: list[str]) -> int:
    names = argv or list(SHOTS)
    unknown = [n for n in names if n not in SHOTS]
    if unknown:
        print(f"unknown app(s) {unknown}; the apps are: {', '.join(SHOTS)}", file=sys.stderr)
        return 2
    OUT.mkdir(parents=True, exist_ok=True)
    with harness.start_voila() as server, harness.chromium() as browser:
        jobs = [(name, suffix) for name in names for suffix in SIZES]
        for i, (name, suffix) in enumerate(jobs, 1):
            path = take(browser, server.base, name, suffix)
            print(f"[{i}/{len(jobs)}] {path.relative_to(harness.ROOT)} "
                  f"({path.stat().st_size // 1024} KB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
