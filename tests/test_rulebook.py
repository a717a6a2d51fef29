"""The rules catalogue (rummy.rulebook): the rules of docs/RULES.md, in its
order and groups, each with a title and a sentence; lookup, the ids a text
names, the rules of a variant and its move rules."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rummy import rulebook
from rummy.variants import find_variant

RULES_MD = Path(__file__).resolve().parent.parent / "docs" / "RULES.md"
TEXT = RULES_MD.read_text(encoding="utf-8")


def test_rules_are_those_of_rules_md_in_its_order():
    ids = re.findall(r"^- ([A-Z]+-\d+[a-z]?) ", TEXT, flags=re.M)
    assert list(rulebook.RULE_IDS) == ids
    assert len(ids) == 58
    assert rulebook.RULE_IDS[:2] == ("C-1", "C-2") and "G-8a" in rulebook.RULE_IDS


def test_groups_follow_the_headings_of_rules_md():
    # the rules under each heading of RULES.md, in order: one group each, but for the
    # two headings "Cards and points" and "Melds", which are both "All variants"
    under: list[list[str]] = []
    for line in TEXT.splitlines():
        if line.startswith("#"):
            under.append([])
        elif m := re.match(r"- ([A-Z]+-\d+[a-z]?) ", line):
            under[-1].append(m.group(1))
    groups = [{rulebook.rule(i).group for i in ids} for ids in under if ids]
    assert all(len(g) == 1 for g in groups)
    assert list(dict.fromkeys(g.pop() for g in groups)) == list(rulebook.GROUPS)
    assert rulebook.GROUPS[0] == "All variants" and len(rulebook.GROUPS) == 7


def test_every_rule_has_a_title_and_a_sentence():
    for r in rulebook.RULES:
        assert r.title and not r.title[0].islower() and not r.title.endswith("."), r
        assert r.text and not r.text.endswith("."), r
        assert rulebook.rule(r.id) is r


def test_an_unknown_id_says_which_exist():
    with pytest.raises(rulebook.RuleError, match="'XX-1'.*C-1, C-2.*G-13"):
        rulebook.rule("XX-1")
    with pytest.raises(ValueError):
        rulebook.rule("tt-7")
    assert not rulebook.is_rule("TT-13") and rulebook.is_rule("M-4a")


def test_rules_in_finds_known_ids_once_in_order():
    assert rulebook.rules_in("G-8a before G-8, then TT-7 and TT-7 and ZZ-1") == ["G-8a", "G-8", "TT-7"]
    assert rulebook.rules_in("no rule here") == []


@pytest.mark.parametrize("variant", sorted(rulebook.MOVE_RULES))
def test_rules_of_a_variant_are_the_shared_ones_then_its_own(variant):
    ids = rulebook.rules_of(variant)
    assert ids == [r for r in rulebook.RULE_IDS if r in ids]  # RULES.md order
    assert ids[:12] == list(rulebook.RULE_IDS[:12])  # C- and M- first
    assert set(rulebook.MOVE_RULES[variant]) <= set(ids)
    own = {"three_thirteen": "TS-", "tre_tretton": "TR-", "three_thirteen_jokers": "TJ-",
           "big_table": "BT-", "gin_three": "G-"}[variant]
    assert [r for r in rulebook.RULE_IDS if r.startswith(own)] == [r for r in ids if r.startswith(own)]
    for alias in find_variant(variant).aliases:
        assert rulebook.rules_of(alias) == ids
    assert rulebook.rules_of() == list(rulebook.RULE_IDS)
    # what `python -m rummy rules` lists is the same list, every id a rule of RULES.md
    assert list(find_variant(variant).rule_ids) == ids
    assert all(rulebook.is_rule(r) for r in ids)


def test_three_hints_name_the_rule_and_its_sentence():
    look, why, answer = rulebook.three_hints("G-6", "", "Count.", "Knock.")
    assert look.endswith("?") and answer == "Knock."
    assert why == f"G-6: {rulebook.rule('G-6').text}. Count."
