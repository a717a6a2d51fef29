"""A guided hand, played to its end in a lesson, says "well done" and what
comes next, and shows no stray cards of a next hand under buttons that no
longer work."""

from __future__ import annotations

import pytest

VARIANTS = ["three_thirteen", "tre_tretton", "three_thirteen_jokers", "big_table", "gin_three"]


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_guided_hand_ends_with_well_done_and_the_next_step(variant: str) -> None:
    import widgets

    view = widgets.GuidedHand(variant)
    while not view.done:
        assert view.try_move(view.guide.good_moves()[0])
    said = view.situation.value
    assert "Well done" in said and "Next:" in said, said
    assert "The hand is over." in said
    assert view.cards.value == "" and view.moves.children == () and view.log.value == ""
    for control in (view.typed, view.play_typed, view.hint_button):
        assert control.layout.display == "none"
    # nothing of the hand the engine has dealt next
    nxt = view.guide.observation()
    for card in nxt.hand:
        assert f"{card.symbol}" not in said.split("The hand is over.")[0]


def test_gins_first_guided_hand_cannot_end_without_a_lay_off_and_an_undercut() -> None:
    """Every way a learner can play Gin's first guided hand (the guide accepts only
    good moves: each of them is followed) ends with the learner laying off onto the
    box's melds and undercutting the box, as lesson 05 promises; the learner can
    never knock first."""
    import copy

    from rummy.guided import Guide

    endings: list[list[str]] = []

    def follow(guide: Guide, path: list[str]) -> None:
        assert len(path) < 20, path
        if guide.done or guide._hand_number() != guide._start:
            endings.append(path)
            said = " ".join(guide.narration)
            assert "You (captain) lays off" in said, path              # G-8
            assert "You undercuts Ana" in said, path                  # G-9
            return
        assert not any(str(move).startswith("knock") for move in guide.legal()), path
        for move in guide.good_moves():
            after = copy.deepcopy(guide)
            assert after.try_move(move)[0]
            follow(after, [*path, str(move)])

    follow(Guide("gin_three"), [])
    assert endings
    # and the lesson says so where the guided hand is
    from pathlib import Path

    lesson = (Path(__file__).resolve().parents[1] / "scripts" / "lessons" / "05_gin_three.txt").read_text()
    assert "the box knocks, and you lay off and undercut" in lesson
