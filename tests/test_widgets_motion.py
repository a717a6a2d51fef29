"""Short motion that helps a learner follow the game (a drawn card slides into
the hand, a thrown card drops on the pile, the banner glows once when your
turn comes; the last-move chip appears without fading), and none of it for a learner who
asked for less motion: every animation and transition of the kit's style
sheets sits inside ``@media (prefers-reduced-motion: no-preference)``."""

from __future__ import annotations

import re
from pathlib import Path

from tests.table_play import walk
from widgets import ThreeThirteenTable
from widgets.view import STYLE

ROOT = Path(__file__).resolve().parents[1]
PAGE_CSS = ROOT / "share" / "jupyter" / "voila" / "templates" / "rummy" / "rummy.css.j2"
NO_PREFERENCE = "prefers-reduced-motion: no-preference"


def moving_rules(css: str) -> list[tuple[str, str, str]]:
    """Each rule that moves something: ``(media, selector, declaration)``, where
    media is the condition of the ``@media`` block around it ("" for none)."""
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    found = []
    stack: list[str] = []
    head = ""
    i = 0
    while i < len(css):
        ch = css[i]
        if ch == "{":
            stack.append(head.strip())
            head = ""
        elif ch == "}":
            stack.pop()
            head = ""
        elif ch == ";" and stack and not stack[-1].startswith("@"):
            decl = head.strip()
            if re.match(r"(animation|transition)(-name)?\s*:", decl) and not re.search(
                    r":\s*none\b", decl):
                media = " ".join(s for s in stack if s.startswith("@media"))
                found.append((media, stack[-1], decl))
            head = ""
        else:
            head += ch
        i += 1
    return found


def test_the_checker_can_fail() -> None:
    css = ".a { animation: x 1s; } @media (prefers-reduced-motion: no-preference) { .b { transition: y 1s; } }"
    rules = moving_rules(css)
    assert [(m != "", s) for m, s, _d in rules] == [(False, ".a"), (True, ".b")]


def test_every_motion_waits_for_no_preference() -> None:
    for name, css in (("widgets.view.STYLE", STYLE), ("rummy.css.j2", PAGE_CSS.read_text())):
        for media, selector, decl in moving_rules(css):
            assert NO_PREFERENCE in media, f"{name}: {selector} {{ {decl} }} moves for everyone"


def test_draws_throws_and_turns_are_animated() -> None:
    rules = moving_rules(STYLE)
    selectors = " | ".join(s for _m, s, d in rules if "animation" in d)
    # the last-move chip does not fade in: axe read it mid-fade at 3.6:1 contrast
    for part in ("rummy-drawn", "rummy-centre", "rummy-your-turn"):
        assert part in selectors, (part, selectors)


def test_the_card_just_drawn_is_marked_to_slide_in() -> None:
    t = ThreeThirteenTable(players=2, seed=5, speed=0)
    t.stock.button.click()
    drawn = [wd for wd in walk(t.hand.widget) if "rummy-drawn" in getattr(wd, "_dom_classes", ())]
    assert len(drawn) == 1
