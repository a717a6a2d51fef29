"""Practice drills (rummy.practice): a generator for every rule id of docs/RULES.md,
each making distinct positions whose right answers the engine computes; checked
here against the brute force of tests/brute.py or by hand.  Also arrange() for
every family: a chosen position saved with the game."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

import rummy
from rummy import practice, rulebook
from rummy.cards import Card, deck
from rummy.errors import GameError
from rummy.teach import AnyOf
from tests.brute import brute_min_penalty, brute_rules, group_is_meld

RULES_MD = Path(__file__).resolve().parent.parent / "docs" / "RULES.md"
RULE_IDS = re.findall(r"^- ([A-Z]{1,2}-\d+[a-z]?) ", RULES_MD.read_text(encoding="utf-8"), re.M)
SEEDS = range(5)


def test_every_rule_id_of_RULES_md_has_a_generator() -> None:
    assert len(RULE_IDS) == 58
    missing = [r for r in RULE_IDS if r not in practice.generators()]
    assert not missing, f"rule ids without a drill generator: {missing}"
    assert list(practice.generators()) == list(rulebook.RULE_IDS)  # registered in RULES.md order


def answers(d: practice.Drill) -> list:
    want = d.expected()
    return list(want.answers) if isinstance(want, AnyOf) else [want]


@pytest.mark.parametrize("rule", RULE_IDS)
def test_each_rule_drill_makes_distinct_positions_right_and_wrong_answers(rule: str) -> None:
    drills = [practice.drill(rule, seed) for seed in SEEDS]
    assert len({d.key for d in drills}) == 5, "positions are not distinct"
    for d in drills:
        assert d.rule == rule and d.kind in ("move", "judgement", "count", "procedure")
        for a in answers(d):
            f = d.check(a)
            assert f.right and f.rule == rule, (a, f)
        wrong = d.check(d.mistake)
        assert not wrong.right and rule in wrong.text, (d.mistake, wrong)
        look, why, answer = d.hints()
        assert look.endswith("?") and why.startswith(f"{rule}: ") and answer.startswith("The answer: ")
        assert d.an_answer() not in (None, "")
        assert "Traceback" not in wrong.text


def test_move_rules_get_move_drills_and_setup_rules_question_drills() -> None:
    moves = {r for rs in rulebook.MOVE_RULES.values() for r in rs}
    for rule in RULE_IDS:
        kind = practice.drill(rule, 0).kind
        if rule in moves:
            assert kind == "move", rule
        else:
            assert kind in ("judgement", "count", "procedure"), rule


@pytest.mark.parametrize("rule", [r for r in RULE_IDS if practice.drill(r, 0).game is not None])
def test_a_drills_position_is_an_arranged_game_that_reloads_exactly(rule: str) -> None:
    d = practice.drill(rule, 1)
    text = d.game.to_json()
    assert "setups" in json.loads(text), "the position was not dealt with arrange()"
    again = rummy.load_game(text)
    assert again.to_json() == text and again.log == d.game.log


def test_an_unknown_rule_says_which_exist() -> None:
    with pytest.raises(ValueError, match="TT-7"):
        practice.drill("XX-1")


def test_drills_follow_a_variants_rules_and_new_seeds_each_pass() -> None:
    it = practice.drills("tre_tretton", seed=3)
    ids = practice.rules_of("tre_tretton")
    first = [next(it) for _ in ids]
    assert [d.rule for d in first] == ids
    assert "TR-2" in ids and "TJ-3" not in ids and "G-7" not in ids
    again = next(it)
    assert again.rule == ids[0] and again.seed == first[0].seed + 1


def test_an_unreadable_answer_says_how_to_answer_and_names_the_rule() -> None:
    d = practice.drill("TT-6", 2)
    f = d.check("the blue one")
    assert not f.right and "a card, such as" in f.text and "TT-6" in f.text


# --- answers against an independent computation -----------------------------------

MELD_RULES = ("C-3", "C-4", "M-1", "M-2", "M-4", "M-4a", "M-5", "TS-1", "TR-2", "TJ-4", "TJ-6", "G-1")


def rules_of_facts(d: practice.Drill) -> dict:
    m = re.search(r"round (\d+)", d.facts[0], re.I)
    r = int(m.group(1)) if m else 1
    opts = {}
    for fact in d.facts:
        a = re.search(r"option aces is '(\w+)'", fact)
        if a:
            opts["aces"] = a.group(1)
    if d.variant == "three_thirteen_jokers":
        opts.setdefault("jokers", 2)
    return brute_rules(d.variant, r, **opts)


@pytest.mark.parametrize("rule", MELD_RULES)
def test_meld_judgements_agree_with_the_brute_force(rule: str) -> None:
    for seed in range(12):
        d = practice.drill(rule, seed)
        cards = d.rows[0].cards
        b = rules_of_facts(d)
        want = group_is_meld(list(cards), b["wild_rank"], b["aces"], b["min_naturals"],
                             b["max_set"], b["jokers_wild"])
        assert d.expected() is want, (seed, cards, b)


@pytest.mark.parametrize("rule", ["C-2", "M-7", "TR-3", "TJ-5"])
def test_scores_agree_with_the_brute_force(rule: str) -> None:
    for seed in range(8):
        d = practice.drill(rule, seed)
        assert d.expected() == brute_min_penalty(d.rows[0].cards, **rules_of_facts(d)), seed


def test_C_2_by_hand() -> None:
    d = practice.drill("C-2", 0)
    by_hand = sum({1: 1, 11: 10, 12: 10, 13: 10}.get(c.rank, c.rank) for c in d.rows[0].cards)
    assert d.expected() == by_hand


def test_M_3_a_card_in_one_meld_only_agrees_with_the_brute_force() -> None:
    for seed in range(8):
        d = practice.drill("M-3", seed)
        assert d.expected() is (brute_min_penalty(d.rows[0].cards, max_set=4) == 0)


@pytest.mark.parametrize("rule", ["TT-8", "BT-6"])
def test_round_scores_agree_with_the_brute_force(rule: str) -> None:
    for seed in range(5):
        d = practice.drill(rule, seed)
        r = int(re.search(r"(?:Round|Hand) (\d+)", d.facts[0]).group(1))
        variant = d.variant if rule == "TT-8" else "big_table"
        assert d.expected() == brute_min_penalty(d.rows[0].cards, **brute_rules(variant, r)), seed


def test_BT_6_every_seed_makes_a_drill_in_which_only_you_matched() -> None:
    # Ana's hand is a meld and loose cards, never complete: were it complete she could
    # match too, and her scripted draw would be refused (seeds 55 and 127 deal such a
    # loose card first)
    for seed in (55, 127, *range(40)):
        d = practice.drill("BT-6", seed)
        scored = next(line for line in reversed(d.game.log) if " scores: " in line)
        assert scored.count("(match)") == 1 and "You 0 (match)" in scored, (seed, scored)
        assert d.expected() == brute_min_penalty(d.rows[0].cards, **brute_rules("big_table",
                                                 int(d.facts[0].split()[1].rstrip(":")))), seed


@pytest.mark.parametrize("rule", ["TT-6", "TT-7", "TJ-7"])
def test_going_out_cards_agree_with_the_brute_force(rule: str) -> None:
    for seed in range(6):
        d = practice.drill(rule, seed)
        hand = list(d.rows[-1].cards)
        r = int(re.search(r"Round (\d+)", d.facts[0]).group(1))
        b = brute_rules(d.variant, r)
        outs = set()
        for c in set(hand):
            rest = list(hand)
            rest.remove(c)
            if brute_min_penalty(rest, **b) == 0:
                outs.add(str(c))
        if rule == "TJ-7":  # does the discard the question names go out?
            named = Card.parse(re.search(r"discard the (\S+)\. ", d.question).group(1))
            assert d.expected() is (str(named) in outs), seed
        else:
            assert set(map(str, answers(d))) == outs, seed


def test_counts_by_hand() -> None:
    for seed in SEEDS:
        d = practice.drill("TT-1", seed)
        r = int(re.search(r"round (\d+)", d.question).group(1))
        assert d.expected() == r + 2
        d = practice.drill("TT-4", seed)
        players, packs, r = map(int, re.search(r"(\d+) players, (\d+) packs?, round (\d+)",
                                                d.question).groups())
        assert d.expected() == 52 * packs - players * (r + 2) - 1
        d = practice.drill("TJ-2", seed)
        jokers, r = map(int, re.search(r"jokers = (\d), round (\d+)", d.question).groups())
        assert d.expected() == 104 + jokers - 4 * (r + 2) - 1
        d = practice.drill("BT-2", seed)
        h, players = map(int, re.search(r"Hand (\d+), (\d+) players", d.question).groups())
        assert d.expected() == 208 - players * (h + 3)
        d = practice.drill("G-3", seed)
        if d.kind == "count":
            assert d.expected() == 52 - 21


def test_TT_11_packs_by_the_decided_formula() -> None:
    for seed in range(11):
        d = practice.drill("TT-11", seed)
        n = int(re.search(r"for (\d+) players", d.question).group(1))
        want = 1 if n == 2 else 2 if n <= 4 else next(p for p in range(1, 9)
                                                       if 13 * n + 1 + n <= 52 * p)
        assert d.expected() == want, n


def test_C_1_identical_cards_by_hand() -> None:
    d = practice.drill("C-1", 0)
    n = int(d.question.split()[0])
    packs = 1 if n == 2 else 2 if n <= 4 else next(p for p in range(1, 9) if 14 * n + 1 <= 52 * p)
    assert d.expected() == packs


def test_G_7_and_G_9_scores_by_hand() -> None:
    for seed in SEEDS:
        d = practice.drill("G-7", seed)
        res = d.game.results[-1]
        assert d.expected() == 25 + brute_min_penalty(d.rows[1].cards, max_set=4, jokers_wild=False)
        assert res.kind == "gin"
        d = practice.drill("G-9", seed)
        res = d.game.results[-1]
        k, dd = res.knocker_points, res.defender_points
        assert d.expected() == (dd - k if k < dd else 10 + k - dd)


def test_TT_9_the_lowest_total_wins_and_a_tie_means_nobody() -> None:
    kinds = set()
    for seed in range(8):
        d = practice.drill("TT-9", seed)
        scores = d.game.scores
        low = min(scores)
        if scores.count(low) > 1:
            assert d.check("nobody").right
            kinds.add("tie")
        else:
            assert d.check(d.game.players[scores.index(low)]).right
            kinds.add("win")
    assert kinds == {"tie", "win"}


# --- arrange() for every family -------------------------------------------------------

def test_three_thirteen_arrange_is_saved_replayed_and_undone() -> None:
    g = rummy.new_game("three_thirteen", players=["Ana", "Ben", "Cleo"], seed=5)
    g.arrange(["7h 8h Kc 2d 2s", "9h 5d 5c 4s 4s", "4h 6d Kd Qs Qs"], "Qd Jd", stock_top="9h 3c",
              round=3, dealer=2)
    assert g.round == 3 and g.players[g.current_player] == "Ana" and g.observe(0).discard_top == Card.parse("Jd")
    assert not any(line.startswith("Round 1 of 11: ") for line in g.log), "the seed's deal is told"
    g.apply("draw stock")
    assert g.observe(0).drawn == Card.parse("9h")
    g.apply("go out Kc") if "go out Kc" in map(str, g.legal_actions()) else g.apply("discard Kc")
    text = g.to_json()
    back = rummy.load_game(text)
    assert back.to_json() == text and back.hands == g.hands and back.log == g.log
    g.undo()
    g.undo()
    assert sorted(g.hands[0]) == sorted(rummy.cards("7h 8h Kc 2d 2s")) and g.round == 3
    g.check_invariants()


def test_arrange_refuses_bad_positions_and_leaves_the_game_as_it_was() -> None:
    g = rummy.new_game("three_thirteen", players=2, seed=9)
    before = g.to_json(), [list(h) for h in g.hands]
    with pytest.raises(GameError, match="holds 3 cards"):
        g.arrange(["7h 8h", "2c 3c 4c"], "Kd")
    with pytest.raises(GameError, match="does not hold"):
        g.arrange(["7h 7h 8h", "2c 3c 4c"], "Kd")
    with pytest.raises(GameError, match="round must be 1 to 11"):
        g.arrange(["7h 8h 9h", "2c 3c 4c"], "Kd", round=12)
    with pytest.raises(GameError, match="at least one card"):
        g.arrange(["7h 8h 9h", "2c 3c 4c"], "")
    assert (g.to_json(), [list(h) for h in g.hands]) == before
    g.apply("draw stock")
    with pytest.raises(GameError, match="only at the start of a round"):
        g.arrange(["7h 8h 9h", "2c 3c 4c"], "Kd")


def test_gin_arrange_is_saved_and_replayed() -> None:
    g = rummy.new_game("gin_three", players=["Ana", "Ben", "Cleo"], seed=3)
    g.arrange("2c 3c 4c 5d 5h 5s 9h 9d 9s Kc", "Ah 2h 3h 7c 7d 7s Jh Jd Qs Ks", "Kd",
              stock_top="6c 8d", roles=(2, 0, 1))
    assert g.roles == ("captain", "advisor", "box")
    assert sum(line.startswith("Hand 1:") for line in g.log) == 1
    g.apply("pass")
    g.apply("pass")
    g.apply("draw stock")
    assert Card.parse("6c") in g.hands[0]
    text = g.to_json()
    assert rummy.load_game(text).to_json() == text
    with pytest.raises(GameError, match="once"):
        rummy.new_game("gin_three", seed=1).arrange("2c 2c 4c 5d 5h 5s 9h 9d 9s Kc",
                                                    "Ah 2h 3h 7c 7d 7s Jh Jd Qs Ks", "Kd")


def test_gin_arrange_at_the_start_of_a_later_hand_replays() -> None:
    d = practice.drill("G-11", 0)
    g = d.game
    assert g.number == 2
    g.arrange("2c 3c 4c 5d 5h 5s 9h 9d 9s Kc", "Ah 2h 3h 7c 7d 7s Jh Jd Qs Ks", "Kd")
    text = g.to_json()
    assert len(json.loads(text)["setups"]) == 2
    assert rummy.load_game(text).hands == g.hands


def test_big_table_log_after_arrange_does_not_begin_with_the_seeds_deal() -> None:
    g = rummy.new_game("big_table", players=["Ana", "Ben"], seed=1)
    seed_deal = list(g.log)
    g.arrange(["5h 6h 7h", "Kc Qd 2s"], ["9c", "4d"], pool_top="8h")
    assert not any(line in g.log for line in seed_deal)
    assert g.log[0].startswith("Hand 1 of 11, a chosen deal")
    assert Counter(deck(4)) == g.card_counts()


@pytest.mark.parametrize("variant", ["three_thirteen", "tre_tretton", "three_thirteen_jokers"])
def test_a_guided_hands_scripted_deal_is_arranged_and_reloads(variant: str) -> None:
    from rummy.guided import Guide

    g = Guide(variant)
    g.try_move(g.good_moves()[0])
    text = g.game.to_json()
    assert "setups" in json.loads(text)
    assert rummy.load_game(text).to_json() == text


def _other_forms(answer: object, unit: str = "points") -> list[str]:
    """The right answer written the other ways the checker reads (so that every
    drill is answered right in two forms): as the kit shows it (J♦ for Jd) and, for a
    number, in words or with a unit."""
    from rummy.teach import show_answer

    forms = [show_answer(answer)]
    if isinstance(answer, bool):
        forms.append("yes" if answer else "no")
    elif isinstance(answer, int):
        forms.append(f"{answer} {unit}")
    return forms


@pytest.mark.parametrize("rule", RULE_IDS)
def test_each_drill_takes_its_right_answer_in_a_second_form(rule: str) -> None:
    from rummy.teach import unit_of

    for d in [practice.drill(rule, seed) for seed in SEEDS[:2]]:
        for a in answers(d):
            for form in _other_forms(a, unit_of(d.question) or "points"):
                f = d.check(form)
                assert f.right, (rule, a, form, f.text)


# --- a drill dealt from the variant asked for (a lesson's) -----------------------------------------

def test_a_drill_asked_for_a_variant_deals_from_it_and_the_default_is_unchanged(own_data: Path) -> None:
    from rummy import practice

    # TT-5 deals from Three Thirteen or Tre-tretton at random; asked, from the one asked
    by_seed = {practice.drill("TT-5", seed).variant for seed in range(12)}
    assert by_seed == {"three_thirteen", "tre_tretton"}
    for seed in range(12):
        plain = practice.drill("TT-5", seed)
        for variant in ("three_thirteen", "tre_tretton"):
            asked = practice.drill("TT-5", seed, variant=variant)
            assert asked.variant == variant
            if plain.variant == variant:  # the same position as without asking
                assert asked.rows == plain.rows and asked.question == plain.question
    # a variant the rule's drill can't deal from is refused, saying so; so is an unknown one
    from rummy.variants import VariantError

    with pytest.raises(VariantError, match="the variants are: three_thirteen"):
        practice.drill("C-2", 3, variant="three thirteens")
    with pytest.raises(ValueError, match="deals from Tre-tretton, not from Gin"):
        practice.drill("TR-2", 0, variant="gin_three")
    # a penalty count in Three Thirteen: the round's wild rank is named, and none is shown
    counted = practice.drill("C-2", 5, variant="three_thirteen")
    assert "are wild, and none is here" in counted.facts[0]
    rules = rummy_rules(counted)
    assert not any(rules.is_wild(card) for card in counted.rows[0].cards)
    assert counted.check(str(sum(min(card.rank, 10) for card in counted.rows[0].cards))).right
    # the iterator and the widget pass it on
    import widgets

    assert {d.variant for d, _ in zip(practice.drills(["TT-1"], variant="tre_tretton"), range(5),
                                      strict=False)} == {"tre_tretton"}
    view = widgets.Drill("TT-6", variant="tre_tretton")
    for _ in range(3):
        assert view.drill.variant == "tre_tretton"
        view.next()


def rummy_rules(drill_: object) -> object:
    """The meld rules of the round a Three-Thirteen drill names ("..., round 7: ...")."""
    import rummy

    round_ = int(re.search(r"round (\d+)", drill_.facts[0]).group(1))
    return rummy.find_variant(drill_.variant).meld_rules(round_)
