"""Every sentence of a game's log, as the learner reads it at the table, is plain
and correct English: "you" takes the verb's "you" form ("You sit out and help",
never "You sit out and advises"), "you" in the middle of a sentence is written
small, and no engine term (deadwood, knocker, rule codes, ids) is left.

The logs come from whole games played by bots in every variant, the learner's
seat (named "You", as the tables name it) moved round the table from game to
game; each line is read through :func:`widgets.view.told`, which the tables use.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

import rummy
from rummy.bots import make_bot
from tests.table_play import click_gin, play_out
from widgets import GinTable
from widgets.view import told

#: (variant, players): every family, with small and large tables.
GAMES = [("three_thirteen", 2), ("three_thirteen", 4), ("tre_tretton", 3),
         ("three_thirteen_jokers", 4), ("big_table", 3), ("big_table", 6), ("gin_three", 3)]
SEEDS = range(8)
OTHERS = ["Ana", "Ben", "Cleo", "Dev", "Eli"]

#: "You" followed by a verb in its third-person form ("You draws", "You (box) knocks");
#: "pass" and "miss" end in "ss" and are fine
YOU_VERB_S = re.compile(r"\b[Yy]ou(?: \([^)]*\))? (?:[a-z]*[a-rt-z]s|was)\b")
#: a second verb of a sentence about "you", in its third-person form ("You sit out
#: and advises"): the clause runs on after "You" without a stop or comma
YOU_AND_VERB_S = re.compile(r"(?:^|(?<=[.;:,!?] ))[Yy]ou(?: \([^)]*\))? [a-z][^.;:,!?()]*? and [a-z]*[a-rt-z]s\b")
#: "You" in the middle of a sentence is written "you" ("deals to you and Ana")
MID_SENTENCE_YOU = re.compile(r"(?<=[a-z0-9,] )You\b")
#: words of the engine, not of the learner
ENGINE_TERMS = re.compile(
    r"\b(?:deadwood|unmelded|knocker|defender|shoe|outs|advises|You's)\b"
    r"|\((?:[A-Z]{1,2}-\d+[a-z]?(?:, )?)+\)"  # a rule code in brackets
    r"|\b[a-z]+_[a-z_]+\b")  # an id such as three_thirteen


def problems(sentence: str) -> list[str]:
    """What is wrong with ``sentence`` as a learner reads it (nothing: ``[]``)."""
    found = []
    for name, pattern in (("verb after You", YOU_VERB_S), ("second verb", YOU_AND_VERB_S),
                          ("You mid-sentence", MID_SENTENCE_YOU),
                          ("engine term", ENGINE_TERMS)):
        m = pattern.search(sentence)
        if m:
            found.append(f"{name}: {m.group(0)!r}")
    return found


def test_the_checks_can_fail() -> None:
    assert problems("Hand 2: Ana is in the box, Ben is captain, You sit out and advises.")
    assert problems("You (box) knocks, discarding 9c.")
    assert problems("Ben deals 10 cards each to Ben and You and turns up 7h.")
    assert problems("You won from the box and stays there.")
    assert problems("Ana lays out [4h 5h 6h] with deadwood 2c = 2 (G-6).")
    assert not problems("You pass the upcard 7h.")
    assert not problems("You and Ben hold the same cards and Ben wins.")
    assert not problems("Totals: You 12, Ana 30.")


def logs() -> Iterator[tuple[str, int, list[str]]]:
    """Each game's whole log: ``(variant, seed, lines)``, played out by bots."""
    for variant, n in GAMES:
        for seed in SEEDS:
            me = seed % n
            names = OTHERS[:n - 1]
            names.insert(me, "You")
            g = rummy.new_game(variant, players=names, seed=seed)
            bots = [make_bot("greedy", seed * 10 + s) for s in range(n)]
            for _ in range(5000):
                if g.is_over:
                    break
                p = g.to_act()[0]
                g.apply(bots[p].choose(g.observe(p)), player=p)
            assert g.is_over, (variant, seed)
            yield variant, seed, list(g.log)


def test_every_log_sentence_reads_as_plain_english() -> None:
    bad: dict[str, str] = {}
    lines = 0
    for variant, seed, log in logs():
        for line in log:
            lines += 1
            text = told(line)
            for p in problems(text):
                bad.setdefault(p.split(":")[0] + " " + re.sub(r"\d+", "N", text)[:60],
                               f"{variant} seed {seed}: {text!r} ({p})")
    assert lines > 5000
    assert not bad, "\n".join(sorted(bad.values()))


def test_the_gin_table_says_each_role_in_plain_words() -> None:
    """The roles line tells the learner who plays whom and what sitting out is
    for, each sentence plain English, as the log does."""
    seen: set[str] = set()
    for seed in range(7, 13):
        t = GinTable(seed=seed, speed=0, target=50)
        while not t.state.is_over and not {"advisor", "box", "captain"} <= seen:
            obs = t.observation()
            seen.add(obs.role)
            text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", t.roles.value))
            assert not problems(text), (text, problems(text))
            assert "sits out)" not in text and "advisor You" not in text, text
            if obs.role == "advisor":
                assert "You (the advisor) sit out and may help" in text, text
            play_out(t, click_gin, lambda t, h=obs.hand_number: t.state.is_over
                     or t.observation().hand_number != h)
    assert {"advisor", "box", "captain"} <= seen, seen


@pytest.mark.parametrize("line, want", [
    ("Hand 2: Ana is in the box, Ben is captain, You sit out and may help the captain.",
     "Hand 2: Ana is in the box, Ben is captain, you sit out and may help the captain."),
    ("Ben deals 10 cards each to Ben and You and turns up 7h; 31 cards form the stock (G-3).",
     "Ben deals 10 cards each to Ben and you and turns up 7h; 31 cards form the stock."),
    ("You deals 10 cards each to You and Ben and turns up 7h.",
     "You deal 10 cards each to you and Ben and turn up 7h."),
    ("You won from the box and stays there; the others swap (G-11).",
     "You won from the box and stay there; the others swap."),
    ("Everyone else gets one more turn: Ana, You.", "Everyone else gets one more turn: Ana, you."),
])
def test_told_writes_you_as_english(line: str, want: str) -> None:
    assert told(line) == want
