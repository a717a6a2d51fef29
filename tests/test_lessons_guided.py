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
