"""Guided hands (rummy.guided.Guide, widgets.GuidedHand): every variant is
played through with good moves, and every wrong or weaker move on the way is
refused with a rule id, leaving the table as it was."""

from __future__ import annotations

import re

import pytest

from rummy.guided import DEFAULT_SEEDS, GUIDED_VARIANTS, Guide

RULE = re.compile(r"\b(?:TT|TS|TR|TJ|BT|G|M|C)-\d+[a-z]?\b")
VARIANTS = list(GUIDED_VARIANTS)


def snapshot(guide: Guide) -> tuple:
    return guide.observation(), len(guide.game.history), len(guide.narration)


def replay(variant: str, moves: list) -> Guide:
    g = Guide(variant)
    for m in moves:
        assert g.try_move(m)[0]
    return g


@pytest.mark.parametrize("variant", VARIANTS)
def test_guided_hand_plays_through_with_good_moves(variant: str) -> None:
    g = Guide(variant)
    assert g.seed == DEFAULT_SEEDS[variant]
    steps = 0
    while not g.done:
        assert g.situation() and g.hint()
        ok, feedback = g.try_move(g.good_moves()[0])
        assert ok and feedback.startswith("Good.")
        steps += 1
        assert steps < 40, "a guided hand should be short"
    assert g.done and g.summary().startswith("The hand is over.")
    assert g.feedback.startswith("Good. The hand is over.")
    assert 2 <= steps <= 15
    # the bots' turns were told in words
    assert any(line.startswith(("Ana", "Ben", "Cleo")) for line in g.narration)
    assert g.try_move("draw stock") == (False, "Not that one: The hand is over. Try again.")


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_weaker_move_is_refused_with_a_rule_id_and_changes_nothing(variant: str) -> None:
    g = Guide(variant)
    rules_seen: set[str] = set()
    while not g.done:
        good = g.good_moves()
        for move in g.legal():
            if move in good:
                continue
            before = snapshot(g)
            ok, feedback = g.try_move(move)
            assert not ok
            assert feedback.startswith("Not that one:") and feedback.endswith("Try again.")
            found = RULE.findall(feedback)
            assert found, feedback
            rules_seen.update(found)
            assert snapshot(g) == before, "a refused move changed the table"
        g.try_move(good[0])
    expected = {"three_thirteen": {"TT-2", "TT-6", "TT-7", "TT-8"},
                "tre_tretton": {"TT-2", "TT-6", "TT-7", "TT-8"},
                "three_thirteen_jokers": {"TT-6", "TT-8"},
                "big_table": {"BT-1", "BT-4", "BT-5", "BT-6"},
                "gin_three": {"G-6", "G-8"}}[variant]
    assert expected <= rules_seen, rules_seen


@pytest.mark.parametrize("variant", VARIANTS)
def test_illegal_moves_get_the_engines_reason_with_a_rule_id(variant: str) -> None:
    g = Guide(variant)
    before = snapshot(g)
    ok, feedback = g.try_move("discard 9x")
    assert not ok and RULE.search(feedback) and snapshot(g) == before
    ok, feedback = g.try_move("fly away")
    assert not ok and snapshot(g) == before


def test_TT_5_throwing_back_the_card_taken_is_refused() -> None:
    g = Guide("three_thirteen")
    assert g.try_move("draw discard")[0]
    taken = g.observation().taken
    ok, feedback = g.try_move(f"discard {taken}")
    assert not ok and "(TT-5)" in feedback


def test_BT_3_your_own_pile_is_refused() -> None:
    g = Guide("big_table")
    obs = g.observation()
    own = obs.piles[g.learner][-1]
    ok, feedback = g.try_move(f"draw pile {own}")
    assert not ok and "BT-3" in feedback


@pytest.mark.parametrize("variant", VARIANTS)
def test_several_fine_moves_are_all_accepted(variant: str) -> None:
    g = Guide(variant)
    path: list = []
    several = 0
    while not g.done:
        good = g.good_moves()
        if len(good) > 1:
            several += 1
            for alternative in good[1:]:
                other = replay(variant, path)
                assert other.try_move(alternative)[0], alternative
        path.append(good[0])
        g.try_move(good[0])
    assert several >= 1


def test_weaker_discard_names_the_better_one() -> None:
    # seed 4, round 1 (threes wild): you draw 8c onto 3c 7d 2s; throwing the wild 3c is refused
    g = Guide("three_thirteen")
    assert g.try_move("draw stock")[0]
    assert sorted(map(str, g.observation().hand)) == ["2s", "3c", "7d", "8c"]
    ok, feedback = g.try_move("discard 3c")
    assert not ok and "TT-2" in feedback and "8♣" in feedback
    # 8c 7d: 8+7+2 = 17 left if 3c is kept with ... ; the good discards leave the fewest points
    assert [str(a) for a in g.good_moves()] == ["discard 8c"]


def test_gin_learner_is_captain_and_never_the_advisor() -> None:
    for seed in (1, 2, 3, 41):
        g = Guide("gin_three", seed=seed)
        assert g.observation().roles[g.learner] == "captain"


def test_unknown_variant_is_refused_with_the_allowed_ones() -> None:
    with pytest.raises(ValueError, match="three_thirteen"):
        Guide("canasta")


# --- the widget ------------------------------------------------------------------------------

def test_widget_buttons_call_try_move_and_show_feedback() -> None:
    import widgets

    view = widgets.GuidedHand("three_thirteen")
    labels = [b.description for b in view.moves.children]
    assert labels == [str(a) for a in view.guide.legal()]
    view.moves.children[0].click()                      # draw stock: fine
    assert view.feedback.startswith("Good.")
    view.typed.value = "discard 3c"                     # the wild: refused, with its rule
    view.play_typed.click()
    assert "TT-2" in view.feedback and "rummy-quiz-wrong" in view.feedback_view.value
    view.hint_button.click()
    assert view.feedback == "Hint: Look for the move that keeps the fewest points: discard 8c."
    while not view.done:
        assert view.try_move(view.guide.good_moves()[0])
    assert "rummy-guided-done" in view.widget._dom_classes and view.moves.children == ()


def test_widget_reads_as_second_person_and_shows_no_traceback() -> None:
    import widgets

    view = widgets.GuidedHand("gin_three")
    assert view.try_move("take upcard")
    assert "You (captain) take the upcard" in view.feedback
    assert not view.try_move(object())  # not an action: a message, never a traceback
    assert "Traceback" not in view.message.value + view.feedback_view.value


def test_widget_never_shows_another_players_hidden_cards() -> None:
    import widgets

    view = widgets.GuidedHand("big_table")
    g = view.guide
    others = {seat: set(g.game.observe(seat).hand) for seat in range(len(g.game.players))
              if seat != g.learner}
    mine = set(g.observation().hand)
    shown = view.cards.value
    for cards_ in others.values():
        for card in cards_ - mine:
            assert card.name not in shown


def widget_strings(widget) -> str:
    from widgets._common import walk

    out = []
    for node in walk(widget):
        for trait in ("value", "description", "tooltip", "placeholder"):
            value = getattr(node, trait, None)
            if isinstance(value, str):
                out.append(value)
    return "\n".join(out)


@pytest.mark.parametrize("variant", ["gin_three", "three_thirteen"])
def test_no_hidden_card_of_another_player_reaches_the_widget_state(variant: str) -> None:
    import widgets
    from rummy.cards import Card

    view = widgets.GuidedHand(variant)
    g = view.guide
    checked = 0
    while not view.done:
        public = set()
        for line in g.narration:  # cards the table has seen named in words
            for token in re.findall(r"\b(?:[2-9TJQKA][cdhs]|Jk)\b", line):
                public.add(Card.parse(token))
        shown = widget_strings(view.widget)
        mine = set(g.observation().hand)
        for seat in range(len(g.game.players)):
            if seat == g.learner:
                continue
            for card in set(g.game.observe(seat).hand) - mine - public:
                assert card.name not in shown, (seat, card)
                assert card.symbol not in shown, (seat, card)
                assert not re.search(rf"(?<![A-Za-z0-9]){card}(?![A-Za-z])", shown), (seat, card)
                checked += 1
        view.try_move(g.good_moves()[0])
    assert checked > 20


def test_seed_finder_script() -> None:
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))
    import guided_seeds

    moves, rules, finished = guided_seeds.probe("big_table", DEFAULT_SEEDS["big_table"])
    assert finished and 2 <= moves <= 15 and {"BT-4", "BT-6"} <= rules
