"""The end of a round or hand is told once, in one message (who went out or
won, the points, what to press), not in several places at once; and a "last
move" chip by the piles says what the other player just did."""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from typing import Any

import pytest

from tests.table_play import (
    click_big_table,
    click_gin,
    click_three_thirteen,
    play_out,
    walk,
)
from widgets import BigTableTable, GinTable, ThreeThirteenTable


def _text(value: str) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", value))).strip()


def _shown(table: Any) -> list[str]:
    """The text of every HTML widget on screen (not folded away), the log and
    the hidden live region aside."""
    out = []

    def visit(wd: Any, hidden: bool) -> None:
        hidden = hidden or getattr(getattr(wd, "layout", None), "display", "") == "none"
        if wd is table.log_view or wd is table.announce:
            return
        if not hidden and isinstance(getattr(wd, "value", None), str) and "rummy-root" not in wd.value:
            out.append(_text(wd.value))
        for kid in getattr(wd, "children", ()) or ():
            visit(kid, hidden)
    visit(table.widget, False)
    return out


TABLES: list[tuple[str, Callable[[], Any], Callable[[Any], None], str]] = [
    ("three_thirteen", lambda: ThreeThirteenTable(players=3, seed=5, speed=0),
     click_three_thirteen, "Round 1"),
    ("big_table", lambda: BigTableTable(players=3, seed=4, speed=0), click_big_table, "Hand 1"),
    ("gin", lambda: GinTable(seed=6, speed=0), click_gin, "Hand 1"),
]


@pytest.mark.parametrize("name, make, click, which", TABLES, ids=[t[0] for t in TABLES])
def test_the_end_of_a_hand_is_one_message(name: str, make: Callable[[], Any],
                                          click: Callable[[Any], None], which: str) -> None:
    t = make()
    said: list[str] = []
    t.announce.observe(lambda c: said.append(_text(c["new"])), names="value")
    play_out(t, click, lambda t: t.paused)
    status = _text(t.status.value)
    # the banner is the message: which round or hand ended, its points, what to press
    assert status.startswith(f"{which} is over"), status
    assert "press Next" in status and re.search(r"\d", status), status
    shown = " | ".join(_shown(t))
    assert shown.count("is over") == 1, shown
    # the live region says it once, without reading out every score line again
    last = said[-1]
    assert last.count("is over") == 1 and last.endswith(status), last
    assert not re.search(r"\bscores? \d+:|After round|Hand \d+ scores|Totals", last), last


@pytest.mark.parametrize("name, make, click, which", TABLES, ids=[t[0] for t in TABLES])
def test_the_last_move_chip_says_what_the_other_player_did(
        name: str, make: Callable[[], Any], click: Callable[[Any], None], which: str) -> None:
    t = make()
    chip = t.last_move
    assert "rummy-last-move" in chip._dom_classes
    seen = set()
    for _ in range(12):
        click(t)
        if t.paused:
            break
        text = _text(chip.value)
        if not text:
            continue
        assert text.startswith("Last move: "), text
        who = text.removeprefix("Last move: ").split(" ")[0]
        assert who in {"Ana", "Ben", "Cleo"}, text  # another player's move, never yours
        assert "(" not in text and "[" not in text, text
        seen.add(text)
    assert len(seen) >= 2, seen  # it follows the game
    assert chip in walk(t.felt)
