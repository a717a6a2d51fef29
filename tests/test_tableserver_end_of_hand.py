"""One end-of-hand message for everyone at a shared table: when the hand is
over and the teacher starts the next one, every learner's page says the same
sentence (none tells one learner to press a button the others are told to
wait for) under the same review heading."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.servers import create_table
from tests.table_play import click_three_thirteen


def _banner(page: Any) -> str:
    return re.sub(r"<[^>]+>", "", page.table.status.value).strip()


def _heading(page: Any) -> str:
    found = re.search(r"<h\d>(.*?)</h\d>", page.table.review.value)
    return found.group(1) if found else ""


def test_every_seat_of_a_paused_shared_table_reads_the_same_end_of_hand(api: str) -> None:
    pytest.importorskip("ipywidgets")
    from widgets.remote_table import shared_table

    made = create_table(api, {"variant": "three_thirteen", "seats": ["human", "human"],
                              "speed": 0})
    pages = [shared_table(made["code"], name, api=api) for name in ("Ana", "Ben")]
    ended_here = ""
    for _ in range(200):  # the first round, played out by the two pages' own controls
        for page in pages:
            page.game.refresh()
            page.update()
        mover = next((p for p in pages if p.game.obs is not None and p.game.obs.legal_actions),
                     None)
        assert mover is not None, [page.game.status for page in pages]
        click_three_thirteen(mover.table)
        if mover.table.paused:
            # the page whose move ended the round, before any news from the service
            ended_here = _banner(mover)
            break
    assert ended_here
    for page in pages:
        page.game.refresh()
        page.update()
    assert all(page.game.status == "paused" for page in pages)
    banners = [_banner(page) for page in pages]
    assert banners[0] == banners[1] == ended_here, (banners, ended_here)
    assert "Round 1 is over" in banners[0]
    assert "teacher" in banners[0] and "press" not in banners[0].lower(), banners[0]
    assert _heading(pages[0]) == _heading(pages[1]) == "Review of round 1"
    # no seat is offered a Next round button the teacher's table does not let it use
    for page in pages:
        assert page.table.next_round.layout.display == "none"
