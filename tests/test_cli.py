"""The ``python -m rummy`` command line: solve and rules."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import rummy
from rummy.__main__ import main


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "rummy", *args], capture_output=True, text=True)


def test_solve_json_prints_melds_deadwood_and_penalty() -> None:
    out = run("solve", "Qh Kh 3s 5c 5d 5s", "--json")
    assert out.returncode == 0, out.stderr
    # set of fives; Qh Kh 3s unmelded: 10 + 10 + 3 = 23 (cards listed by suit c d h s)
    assert json.loads(out.stdout) == {
        "melds": [["5c", "5d", "5s"]], "deadwood": ["Qh", "Kh", "3s"], "penalty": 23}


def test_solve_with_discard_and_variant_round(capsys: pytest.CaptureFixture[str]) -> None:
    # three_thirteen round 3: fives wild.  Qh Kh Ah 5c: 5c plays Jh in J-Q-K; throw Ah
    assert main(["solve", "Qh Kh Ah 5c", "--variant", "three_thirteen", "--round", "3",
                 "--discard", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["discard"] == "Ah" and out["penalty"] == 0
    assert out["melds"] == [["5c", "Qh", "Kh"]]


def test_solve_with_explicit_rules(capsys: pytest.CaptureFixture[str]) -> None:
    # 3c 3d 3s with threes wild and a natural card required: no meld, 9 points
    assert main(["solve", "3c 3d 3s", "--wild", "3", "--min-naturals", "1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["penalty"] == 9
    assert main(["solve", "Qh Kh Ah", "--aces", "high"]) == 0
    text = capsys.readouterr().out
    assert "Penalty: 0" in text and "run" in text


@pytest.mark.parametrize("args,word", [
    (["solve", "Qh 1x"], "'1x'"),
    (["solve", "Qh Kh", "--variant", "canasta"], "unknown variant"),
    (["solve", "Qh Kh", "--round", "3"], "--round needs --variant"),
    (["solve", "Qh Kh", "--variant", "three_thirteen", "--round", "12"], "rounds 1 to 11"),
    (["solve", "Qh Kh", "--aces", "sideways"], "invalid choice"),
    (["solve", "Qh Kh", "--wild", "14"], "not a rank"),
    (["rules", "canasta"], "unknown variant"),
    (["dance"], "invalid choice"),
])
def test_errors_go_to_stderr_with_exit_code_2(args: list[str], word: str) -> None:
    out = run(*args)
    assert out.returncode == 2
    assert word in out.stderr
    assert "Traceback" not in out.stderr


def test_rules_prints_a_variant_summary() -> None:
    out = run("rules", "tre_tretton")
    assert out.returncode == 0
    assert "Tre-tretton" in out.stdout and "TR-2" in out.stdout and "2 to 4" in out.stdout


@pytest.mark.parametrize("name", rummy.variant_names())
def test_rules_name_a_source_text_that_is_in_the_repository(name: str) -> None:
    text = rummy.find_variant(name).rules_text()
    source = text.rsplit("Source text: ", 1)[1].strip()
    assert (Path(__file__).resolve().parent.parent / source).is_file(), source
