"""rummy.simulate: the DataFrame, reproducibility under any executor, the
summary statistics (checked against hand computations) and the CLI."""

from __future__ import annotations

import concurrent.futures as cf
import math

import pandas as pd
import pytest

from rummy import GameError, VariantError
from rummy.__main__ import main as rummy_main
from rummy.bots import BotError, GreedyBot
from rummy.simulate import cli_main, game_seed, paired_difference, play_game, simulate, summarize

COLUMNS = ["game", "seed", "seat", "player", "bot", "score", "rank", "won", "went_out"]


def test_simulate_returns_one_row_per_game_and_seat():
    df = simulate("three_thirteen", ["greedy", "random", "greedy"], games=3, seed=7,
                  progress=False)
    assert list(df.columns) == COLUMNS and len(df) == 9
    assert df["bot"].tolist()[:3] == ["greedy", "random", "greedy"]
    assert df["seed"].tolist()[::3] == [game_seed(7, i) for i in range(3)]
    for _, game in df.groupby("game"):
        low = game["score"].min()
        assert game.loc[game["score"] == low, "rank"].eq(1).all()
        winners = game[game["won"]]
        assert len(winners) == (1 if (game["score"] == low).sum() == 1 else 0)
        assert (game["went_out"] >= 0).all() and game["went_out"].sum() <= 11


def test_same_seed_same_games_under_any_executor():
    serial = simulate("tre_tretton", "greedy,expert", games=2, seed=3, progress=False)
    with cf.ThreadPoolExecutor(max_workers=2) as pool:
        threaded = simulate("tre_tretton", "greedy,expert", games=2, seed=3, executor=pool,
                            progress=False)
    with cf.ProcessPoolExecutor(max_workers=1) as pool:
        forked = simulate("tre_tretton", "greedy,expert", games=2, seed=3, executor=pool,
                          progress=False)
    pd.testing.assert_frame_equal(serial, threaded)
    pd.testing.assert_frame_equal(serial, forked)
    other = simulate("tre_tretton", "greedy,expert", games=2, seed=4, progress=False)
    assert not serial["seed"].equals(other["seed"])


def test_play_game_uses_the_generic_loop_and_bot_objects():
    rows = play_game("three_thirteen_jokers", [GreedyBot(seed=1)] * 4, seed=5,
                     options={"jokers": 2})
    assert [r["player"] for r in rows] == ["you", "left", "top", "right"]
    assert {r["bot"] for r in rows} == {"greedy"}
    assert sorted(r["rank"] for r in rows)[0] == 1


def test_simulate_checks_its_arguments():
    with pytest.raises(BotError, match="unknown bot 'genius'"):
        simulate("three_thirteen", ["genius", "greedy"], games=1, progress=False)
    with pytest.raises(GameError, match="2 bots for 3 players"):
        simulate("three_thirteen", ["greedy", "greedy"], games=1, players=3, progress=False)
    with pytest.raises(VariantError, match="no option 'jokers'"):
        simulate("three_thirteen", ["greedy", "greedy"], games=1, progress=False, jokers=2)
    with pytest.raises(VariantError, match="tre_tretton is for 2 to 4 players"):
        simulate("tre_tretton", "greedy", games=1, players=5, progress=False)
    df = simulate("three_thirteen", "random", games=1, players=3, progress=False)
    assert df["bot"].tolist() == ["random"] * 3


def test_summarize_mean_ci_and_win_rate_by_hand():
    df = pd.DataFrame({
        "game": [0, 0, 1, 1, 2, 2], "seat": [0, 1] * 3, "player": ["A", "B"] * 3,
        "bot": ["x", "y"] * 3, "score": [10, 40, 20, 25, 30, 25], "rank": [1, 2, 1, 2, 2, 1],
        "won": [True, False, True, False, False, True], "went_out": [3, 1, 2, 2, 1, 4],
    })
    t = summarize(df)
    # seat 0: scores 10, 20, 30: mean 20, sample sd 10, half-width 1.96 * 10 / sqrt(3)
    half = 1.96 * 10 / math.sqrt(3)
    assert t.loc[0, "mean score"] == 20
    assert t.loc[0, "ci95 low"] == pytest.approx(20 - half)
    assert t.loc[0, "ci95 high"] == pytest.approx(20 + half)
    assert t.loc[0, "win rate"] == pytest.approx(2 / 3)
    assert t.loc[1, "went out / game"] == pytest.approx(7 / 3)
    # paired x - y per game: -30, -5, +5: mean -10, sd sqrt(325) = 18.03
    d = paired_difference(df, "x", "y")
    assert d["mean"] == pytest.approx(-10)
    assert d["ci95 high"] - d["mean"] == pytest.approx(1.96 * math.sqrt(325) / math.sqrt(3))
    with pytest.raises(GameError, match="no seat played by 'z'"):
        paired_difference(df, "x", "z")


def test_cli_prints_summary_and_writes_csv(tmp_path, capsys):
    out = tmp_path / "games.csv"
    code = cli_main(["three_thirteen", "--bots", "expert,greedy,random", "--games", "2",
                     "--seed", "1", "--csv", str(out), "--no-progress", "--jobs", "1"])
    assert code == 0
    text = capsys.readouterr().out
    assert text.startswith("Three Thirteen (three_thirteen), 2 games, seed 1")
    assert "mean score (95% CI)" in text and "win rate" in text and "expert" in text
    df = pd.read_csv(out)
    assert list(df.columns) == COLUMNS and len(df) == 6


def test_cli_options_and_errors(capsys):
    assert cli_main(["jokers", "--bots", "greedy", "--games", "1", "--option", "jokers=2",
                     "--option", "aces=high", "--no-progress"]) == 0
    assert "options {'jokers': 2, 'aces': 'high'}" in capsys.readouterr().out
    assert rummy_main(["simulate", "jokers", "--games", "1", "--option", "jokers=3"]) == 2
    assert "jokers=3 is not allowed" in capsys.readouterr().err
    assert rummy_main(["simulate", "three_thirteen", "--option", "aces"]) == 2
    assert "write key=value" in capsys.readouterr().err
    assert rummy_main(["simulate", "three_thirteen", "--bots", "wizard", "--games", "1"]) == 2
    assert "unknown bot 'wizard'" in capsys.readouterr().err
    assert cli_main(["three_thirteen", "--games", "x"]) == 2


@pytest.mark.parametrize("variant", ["big_table", "gin_three"])
def test_other_families_run_through_the_same_loop(variant):
    df = simulate(variant, "greedy", games=1, seed=1, progress=False,
                  players=3 if variant == "gin_three" else 4)
    assert list(df.columns) == COLUMNS and df["rank"].min() == 1
