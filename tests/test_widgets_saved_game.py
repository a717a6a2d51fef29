"""An app's game outlives its kernel: kept after every move in the data folder
under a random token (only the token reaches the page), offered on a new page
as "Continue this game" and replayed to where it was."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import pytest

from tests.table_play import click_three_thirteen, front_end_state, hidden_hands, leaks
from widgets import GinTable, ThreeThirteenTable


def _app_table(cls: Any = ThreeThirteenTable, **kw: Any) -> Any:
    t = cls(speed=0, wait_for_page=True, **kw)
    t.page_ready()
    return t


def test_a_kept_game_is_offered_and_continued(own_data: Path) -> None:
    t = _app_table(players=2, seed=3)
    for _ in range(9):
        click_three_thirteen(t)
    assert t.keeper is not None
    token = t.keeper.token
    assert (own_data / "games" / f"{token}.json").is_file()
    assert f"data-save='{token}'" in t.keeper.save_out.value
    # a new page: its own new game, then the kept token handed over by the page's script
    fresh = _app_table(players=2, seed=11)
    assert fresh.keeper is not None
    assert fresh.keeper.offer_box.layout.display == "none"
    fresh.keeper.save_in.value = token
    fresh.keeper.look.click()
    assert fresh.keeper.offer_box.layout.display != "none"
    assert "Your game from before is kept" in fresh.keeper.note.value
    fresh.keeper.continue_button.click()
    assert fresh.state.to_json() == t.state.to_json()
    assert [str(c) for c in fresh.observation().hand] == [str(c) for c in t.observation().hand]
    assert fresh.keeper.offer_box.layout.display == "none"
    assert "goes on where it was" in fresh.message.value
    # it goes on being kept under the same token
    click_three_thirteen(fresh)
    assert fresh.keeper.token == token


@pytest.mark.parametrize("seed", range(4, 12))
def test_only_the_token_reaches_the_page(own_data: Path, seed: int) -> None:
    t = _app_table(players=3, seed=seed)
    for _ in range(5):
        click_three_thirteen(t)
    page = front_end_state(t)
    assert t.keeper is not None and t.keeper.token in page
    assert hidden_hands(t) and leaks(t) == []
    assert '\\"seed\\"' not in page and '\\"actions\\"' not in page


@pytest.mark.parametrize("token", ["", "../../etc/passwd", "k" + "0" * 32, "short", "k/" * 17])
def test_a_bad_or_unknown_token_offers_nothing(own_data: Path, token: str) -> None:
    t = _app_table(players=2, seed=3)
    assert t.keeper is not None
    t.keeper.save_in.value = token
    t.keeper.look.click()
    assert t.keeper.offer_box.layout.display == "none"
    assert "rummy-error" not in t.message.value


def test_another_games_token_or_a_finished_game_offers_nothing(own_data: Path) -> None:
    from tests.table_play import click_gin, play_out

    g = _app_table(GinTable, seed=6)
    play_out(g, click_gin, lambda g: len(g.state.history) > 12)
    assert g.keeper is not None
    t = _app_table(players=2, seed=3)
    assert t.keeper is not None
    t.keeper.save_in.value = g.keeper.token  # a gin game: not this app's
    t.keeper.look.click()
    assert t.keeper.offer_box.layout.display == "none"
    play_out(g, click_gin, lambda g: g.state.is_over, limit=3000)
    assert not (own_data / "games" / f"{g.keeper.token}.json").exists()


def test_a_notebooks_table_keeps_nothing(own_data: Path) -> None:
    t = ThreeThirteenTable(players=2, seed=3, speed=0)
    for _ in range(5):
        click_three_thirteen(t)
    assert t.keeper is None and not (own_data / "games").exists()


def test_a_finished_game_is_no_longer_marked_kept_on_the_page(own_data: Path) -> None:
    """The page's lost-kernel notice promises "Continue this game" while the page
    marks a kept game (data-save); once the game is over its file is gone, so the
    mark goes too."""
    from tests.table_play import click_gin, play_out

    g = _app_table(GinTable, seed=6)
    play_out(g, click_gin, lambda g: len(g.state.history) > 12)
    assert g.keeper is not None and "data-save=" in g.keeper.save_out.value
    play_out(g, click_gin, lambda g: g.state.is_over, limit=3000)
    assert not g.keeper.path().exists()
    assert "data-save=" not in g.keeper.save_out.value


def _kept_file(folder: Path, n: int, age_days: float, now: float) -> Path:
    """A kept game's file named by the token of ``n``, last saved ``age_days`` ago."""
    path = folder / f"k{n:032x}.json"
    path.write_text("{}", encoding="utf-8")
    os.utime(path, (now - age_days * 86400, now - age_days * 86400))
    return path


def test_kept_games_older_than_a_month_are_dropped(own_data: Path) -> None:
    from widgets.saved import KEEP_DAYS, prune_saved_games

    folder = own_data / "games"
    folder.mkdir(parents=True)
    now = time.time()
    fresh = _kept_file(folder, 1, 1, now)
    old = _kept_file(folder, 2, KEEP_DAYS + 1, now)
    own_old = _kept_file(folder, 3, KEEP_DAYS + 5, now)
    half_saved = folder / f"k{4:032x}.tmp"
    half_saved.write_text("{", encoding="utf-8")
    os.utime(half_saved, (now - 40 * 86400, now - 40 * 86400))
    other = folder / "notes.json"  # not the kit's: left alone whatever its age
    other.write_text("{}", encoding="utf-8")
    os.utime(other, (now - 400 * 86400, now - 400 * 86400))
    dropped = prune_saved_games(keep=own_old.stem, now=now)
    assert sorted(dropped) == sorted([old, half_saved])
    assert fresh.exists() and own_old.exists() and other.exists()
    assert not old.exists() and not half_saved.exists()


def test_only_the_newest_kept_games_stay(own_data: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from widgets import saved

    monkeypatch.setattr(saved, "KEEP_AT_MOST", 5)
    folder = own_data / "games"
    folder.mkdir(parents=True)
    now = time.time()
    # file n last saved n hours ago: 0 is the newest; the table's own is the oldest
    files = [_kept_file(folder, n, n / 24, now) for n in range(9)]
    saved.prune_saved_games(keep=files[8].stem, now=now)
    # four newest of the others, and the table's own (five in all)
    assert [f.exists() for f in files] == [True] * 4 + [False] * 4 + [True]


def test_a_new_app_table_prunes_the_kept_games(own_data: Path) -> None:
    from widgets.saved import KEEP_DAYS

    folder = own_data / "games"
    folder.mkdir(parents=True)
    now = time.time()
    old = _kept_file(folder, 7, KEEP_DAYS + 2, now)
    young = _kept_file(folder, 8, KEEP_DAYS - 2, now)
    t = _app_table(players=2, seed=3)
    assert t.keeper is not None
    assert not old.exists() and young.exists()
    # it keeps its own game as before
    for _ in range(9):
        click_three_thirteen(t)
    assert t.keeper.path().exists()
