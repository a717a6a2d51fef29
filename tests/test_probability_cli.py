"""``python -m rummy odds ...``: output, JSON and errors (exit code 2)."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from fractions import Fraction

import pytest

from rummy.__main__ import main
from tests.brute import gin_hands_by_meld_combinations


def run(capsys, *argv):
    code = main(["odds", *argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_dealt_json_gives_the_exact_round_one_chance(capsys):
    code, out, _ = run(capsys, "dealt", "three_thirteen", "--players", "2", "--round", "1",
                       "--json")
    assert code == 0
    # 964 complete 3-card hands of 22100 (worked by hand in test_probability.py)
    assert json.loads(out) == {"probability": "241/5525", "decimal": 964 / 22100,
                               "method": "exact"}


def test_dealt_text_shows_fraction_decimal_and_method(capsys):
    code, out, _ = run(capsys, "dealt", "three_thirteen", "--players", "2", "--round", "1")
    assert code == 0
    assert "241/5525" in out and "0.0436" in out and "exact" in out
    assert "threes wild" in out


def test_dealt_gin_three_is_the_chance_of_a_dealt_gin(capsys):
    code, out, _ = run(capsys, "dealt", "gin_three", "--json")
    got = json.loads(out)
    assert code == 0 and got["method"] == "exact"
    # the independent count of gin hands by combining disjoint melds
    assert Fraction(got["probability"]) == Fraction(gin_hands_by_meld_combinations(),
                                                    math.comb(52, 10))
    code, text, _ = run(capsys, "dealt", "gin_three")
    assert "gin" in text and "10 cards" in text


def test_dealt_monte_carlo_json_has_interval_and_samples(capsys):
    code, out, _ = run(capsys, "dealt", "big_table", "--round", "9", "--samples", "600",
                       "--json")
    got = json.loads(out)
    assert code == 0 and got["method"] == "monte carlo" and got["samples"] == 600
    lo, hi = got["interval"]
    assert lo <= got["decimal"] <= hi and got["probability"] is None


def test_dealt_options_jokers_and_aces(capsys):
    code, out, _ = run(capsys, "dealt", "three_thirteen_jokers", "--jokers", "4", "--aces",
                       "high", "--json")
    assert code == 0 and json.loads(out)["method"] == "exact"


def test_outs_json_and_text_of_a_round_two_hand(capsys):
    code, out, _ = run(capsys, "outs", "7h 8h Kc 2d", "--variant", "three_thirteen",
                       "--round", "2", "--draws", "3", "--players", "2", "--json")
    got = json.loads(out)
    assert code == 0
    # 6 outs (6h, 9h, four wild 4s) among 48 unseen; 3 draws
    assert (got["outs"], got["unseen"], got["draws"]) == (6, 48, 3)
    assert Fraction(got["probability"]) == 1 - Fraction(math.comb(42, 3), math.comb(48, 3))
    assert {m["meld"] for m in got["by_meld"]} == {"6h 7h 8h", "7h 8h 9h", "7h 8h + wild"}
    code, text, _ = run(capsys, "outs", "7h 8h Kc 2d", "--variant", "three_thirteen",
                        "--round", "2", "--draws", "3")
    assert code == 0 and "outs among" in text and "C(U-o,k)" in text


@pytest.mark.parametrize("argv, words", [
    (["dealt", "canasta"], "unknown variant 'canasta'"),
    (["dealt", "three_thirteen", "--round", "0"], "rounds 1 to 11"),
    (["dealt", "tre_tretton", "--jokers", "2"], "no option 'jokers'"),
    (["dealt"], "required"),
    (["outs", "1x 8h", "--round", "2"], "'1x' is not a card"),
    (["outs", "7h 8h Kc 2d", "--round", "2", "--draws", "0"], "at least 1"),
    (["guess"], "invalid choice"),
])
def test_errors_exit_2_with_a_message(capsys, argv, words):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert words in err and "Traceback" not in err


def test_the_module_runs_from_the_shell():
    res = subprocess.run([sys.executable, "-m", "rummy", "odds", "dealt", "three_thirteen",
                          "--players", "2", "--json"], capture_output=True, text=True)
    assert res.returncode == 0
    assert json.loads(res.stdout)["probability"] == "241/5525"
