"""The game tables, driven headless through their own buttons (speed 0).

Each table plays complete rounds and a complete game by clicks only; after
every click we check what it shows against the engine, and that nothing of
an opponent's hidden hand is anywhere in the front-end state.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from rummy.action import Action
from rummy.cards import Card
from tests.table_play import (
    choose,
    click_big_table,
    click_gin,
    click_three_thirteen,
    hidden_hands,
    leaks,
    no_traceback,
    play_out,
    tracked,
)
from widgets import BigTableTable, GinTable, ThreeThirteenTable, play
from widgets.view import face, move_words

# -- helpers -----------------------------------------------------------------


def shown_in(parent: Any, widget: Any) -> bool:
    """Is ``widget`` inside ``parent`` and displayed (with every box between)?"""
    def path(box: Any) -> list[Any] | None:
        if box is widget:
            return [box]
        for child in getattr(box, "children", ()) or ():
            found = path(child)
            if found is not None:
                return [box, *found]
        return None

    found = path(parent)
    return found is not None and all(b.layout.display != "none" for b in found)


# -- Three-Thirteen ------------------------------------------------------------


def test_three_thirteen_round_by_clicks_shows_engine_state() -> None:
    t = tracked(lambda: ThreeThirteenTable("three_thirteen", players=3, seed=21, speed=0))
    assert "rummy-table-ready" in t.widget._dom_classes
    assert "rummy-three-thirteen" in t.widget._dom_classes
    obs = t.observation()
    assert obs.round == 1
    assert "threes are wild" in t.wild.value
    # what the hand shows is the learner's hand, card by card
    assert sorted(t.hand.shown_cards()) == sorted(obs.hand)
    assert len(t.opponents) == 2
    for o in t.opponents:
        assert f"{obs.hand_sizes[o.seat]} face-down cards" in o.cards.value
    play_out(t, click_three_thirteen, lambda t: t.paused, check_every=1)
    obs = t.observation()
    assert obs.round == 2 and len(obs.round_scores) == 1
    # the review shows every player's points for round 1, from the engine
    # the seat that went out (from the engine's history) is marked, and only it
    out = {seat for seat, a in t.state.history if Action.parse(str(a)).verb == "go out"}
    assert len(out) == 1
    for seat, pts in enumerate(obs.round_scores[0]):
        who = "You (what you kept)" if seat == t.learner else obs.players[seat]
        tag = "<span class='rummy-out-tag'>went out</span>" if seat in out else ""
        assert f"<b>{who}</b> {tag}: +{pts}: ".replace("</b> :", "</b>:") in t.review.value
    assert t.review.value.count("went out") == 1
    assert "what you kept" in t.review.value
    # the review is drawn on the felt, and Undo can still take the last discard back
    assert shown_in(t.felt, t.review_box) and not t.coach.undo_button.disabled
    # every player's scored hand is drawn, melds and deadwood
    assert t.review.value.count("rummy-arrangement-svg") == len(obs.players)
    # the hands drawn are the engine's: their unmelded cards cost exactly the
    # round's points (C-2, TT-8), and every one of them is in the review
    rules = t.variant.meld_rules(1)
    for seat, arr, pts in obs.last_round:
        assert pts == obs.round_scores[0][seat]
        assert sum(rules.penalty_of(c) for c in arr.deadwood) == pts
        for c in arr.deadwood:
            assert str(c) in t.review.value or c.name in t.review.value
    assert t.review_box.layout.display != "none"
    # the score sheet is the engine's DataFrame
    assert t.scores.frame.equals(t.state.score_sheet())
    t.next_round.click()
    assert t.review_box.layout.display == "none"
    assert "fours are wild" in t.wild.value


def test_three_thirteen_jokers_full_game_seats_and_hidden_cards() -> None:
    t = tracked(lambda: ThreeThirteenTable("three_thirteen_jokers", seed=5, speed=0, jokers=2))
    positions = [o.position for o in t.opponents]
    assert positions == ["left", "top", "right"]  # TJ-1
    assert t.opponents[0].seat == 1 and t.opponents[2].seat == 3  # play goes to the left
    assert "and so are jokers" in t.wild.value
    phases = set()

    def click(t: Any) -> None:
        phases.add("review" if t.paused else t.observation().phase)
        click_three_thirteen(t)

    play_out(t, click, lambda t: t.state.is_over, check_every=3)
    assert leaks(t) == []
    assert {"draw", "discard", "review"} <= phases
    obs = t.observation()
    assert len(obs.round_scores) == 11
    assert t.game_over.layout.display != "none"
    summary = t.state.summary()
    for row in summary:
        assert f"{row['score']} points" in t.game_over.value
    assert t.scores.frame.loc["Total"].tolist() == list(t.state.scores)
    assert "Review of round 11" in t.review.value


def test_three_thirteen_illegal_clicks_show_messages() -> None:
    t = ThreeThirteenTable("three_thirteen", players=2, seed=5, speed=0)
    assert t.observation().legal_actions  # the learner plays first with this seed
    hand_before = t.observation().hand
    # discard before drawing: the engine's reason, as a message
    t.hand.select(hand_before[0])
    t.discard_button.click()
    assert "rummy-error" in t.message.value and "draw first" in t.message.value
    assert t.observation().hand == hand_before
    assert t.last_traceback is not None and "GameError" in t.last_traceback
    t.stock.button.click()
    assert t.message.value == ""
    t.stock.button.click()  # drawing twice
    assert "already drawn" in t.message.value
    # discarding the card just taken from the pile is refused (TT-5)
    t.go_out.click()  # going out with a hand that is not melded
    assert "rummy-error" in t.message.value


def test_three_thirteen_take_back_rule_message() -> None:
    t = ThreeThirteenTable("three_thirteen", players=2, seed=5, speed=0)
    taken = t.observation().discard_top
    t.pile.button.click()
    t.hand.select(taken)
    t.discard_button.click()
    assert "TT-5" in t.message.value
    assert "rummy-error" in t.message.value


def test_discard_needs_a_selection() -> None:
    t = ThreeThirteenTable("three_thirteen", players=2, seed=5, speed=0)
    t.stock.button.click()
    t.discard_button.click()
    assert "Tap a card in your hand to choose it" in t.message.value


def test_go_out_asks_for_confirmation_and_cancel_changes_nothing() -> None:
    # play until the learner can go out, then cancel once and confirm
    t = ThreeThirteenTable("three_thirteen", players=2, seed=3, speed=0)
    for _ in range(2000):
        if choose(t, "go out"):
            break
        click_three_thirteen(t)
    else:
        pytest.fail("the learner never could go out")
    a = choose(t, "go out")[0]
    t.hand.select(a.card)
    history = len(t.state.history)
    t.go_out.click()
    assert t.confirm_box.layout.display != "none"
    assert face(a.card) in t.confirm_text.value and "T♠" not in t.confirm_text.value
    t.confirm_no.click()
    assert len(t.state.history) == history
    t.go_out.click()
    t.confirm_yes.click()
    assert t.state.history[history] == (t.learner, a)


def test_sort_and_display_options() -> None:
    t = ThreeThirteenTable("three_thirteen", players=2, seed=8, speed=0)
    hand = t.observation().hand
    t.hand.sort.value = "suit"
    assert t.hand.shown_cards() == sorted(hand, key=Card.sort_key)
    t.hand.sort.value = "rank"
    assert [c.rank for c in t.hand.shown_cards()] == sorted(c.rank or 99 for c in hand)
    t.hand.sort.value = "melds"
    assert t.hand.arrangement is not None
    assert sorted(t.hand.shown_cards()) == sorted(hand)
    before = t.hand.views[0].widget.layout.width
    t.large.value = True
    assert t.hand.views[0].widget.layout.width != before
    t.four_colour.value = True
    assert t.hand.four_colour


def test_coach_hint_do_it_and_undo() -> None:
    t = ThreeThirteenTable("three_thirteen", players=2, seed=5, speed=0)
    obs = t.observation()
    t.coach.hint_button.click()
    assert "Coach:" in t.coach.text.value
    hinted = t.coach.bot.choose(obs)
    # the move in words for the learner ("draw from the stock"), not its action text,
    # said once (the reason begins with it: "draw from the stock: K♣ would not ...")
    said = move_words(str(hinted))
    shown = _visible(t.coach.text.value)
    assert shown.count(said) == 1, shown
    assert said.split()[0] not in shown.replace(said, ""), shown  # not again in symbols
    n = len(t.state.history)
    t.coach.do_it.click()
    assert t.state.history[n] == (t.learner, hinted)
    t.coach.undo_button.click()
    assert len(t.state.history) == n
    assert t.observation().hand == obs.hand
    # nothing to undo at the start: a message, not a traceback
    t.coach.undo_button.click()
    assert "rummy-error" in t.message.value


def test_coach_odds_toggle_shows_chances() -> None:
    t = ThreeThirteenTable("three_thirteen", players=2, seed=5, speed=0, show_odds=True)
    assert "next draw" in t.coach.odds.value or "No partial meld" in t.coach.odds.value


def test_play_dispatches_on_family() -> None:
    assert isinstance(play("3-13", players=2, seed=1, speed=0), ThreeThirteenTable)
    assert isinstance(play("big_table", players=3, seed=1, speed=0), BigTableTable)
    assert isinstance(play("gin_three", seed=1, speed=0), GinTable)
    with pytest.raises(ValueError, match="unknown variant"):
        play("poker")


# -- Big Table ------------------------------------------------------------------


def test_big_table_hand_by_clicks() -> None:
    t = BigTableTable(players=5, seed=4, speed=0)
    assert len(t.seat_views) == 4
    obs = t.observation()
    assert "Caller" in t.caller.value
    right = obs.right
    assert f"{obs.players[right]}" in t.neighbour_pile.caption.value
    play_out(t, click_big_table, lambda t: t.paused, check_every=1)
    obs = t.observation()
    assert obs.hand_number == 2
    matched = {seat for seat, a in t.state.history if Action.parse(str(a)).verb == "call match"}
    assert matched
    for seat, _arr, pts in obs.last_hand:
        who = "You (what you kept)" if seat == t.learner else obs.players[seat]
        tag = "<span class='rummy-out-tag'>matched</span>" if seat in matched else ""
        assert f"<b>{who}</b> {tag}: +{pts}: ".replace("</b> :", "</b>:") in t.review.value
    assert t.review.value.count("rummy-out-tag") == len(matched)
    assert not t.coach.undo_button.disabled  # the last move can be taken back
    t.next_round.click()
    assert not t.coach.undo_button.disabled
    assert "Hand 2 of 11" in t.wild.value


def test_big_table_own_pile_click_explains_bt3() -> None:
    t = BigTableTable(players=3, seed=4, speed=0)
    play_out(t, click_big_table,
             lambda t: "draw pool" in {a.verb for a in t.observation().legal_actions})
    t.own_pile.button.click()
    assert "BT-3" in t.message.value and "rummy-error" in t.message.value


def test_big_table_match_in_time_and_missed() -> None:
    # find a position where the learner may call match; miss it once (the
    # window closes: play on), then call it in time in a later window
    t = BigTableTable(players=3, seed=11, speed=0)
    missed = called = 0
    for _ in range(3000):
        if t.state.is_over or (missed and called):
            break
        verbs = {a.verb for a in t.observation().legal_actions}
        if "call match" in verbs and not t.paused:
            history = len(t.state.history)
            if not missed:
                t.miss_match()
                assert t.state.history[history] == (t.learner, Action("play on"))
                assert "too late" in t.message.value.lower()
                missed += 1
            else:
                t.match.click()
                assert t.state.history[history] == (t.learner, Action("call match"))
                called += 1
            continue
        click_big_table(t)
        no_traceback(t)
    assert missed and called


def test_big_table_full_game_hidden_cards() -> None:
    t = tracked(lambda: BigTableTable(players=4, seed=2, speed=0, bots="greedy"))
    phases = set()

    def click(t: Any) -> None:
        phases.add("review" if t.paused else t.observation().phase)
        click_big_table(t)

    play_out(t, click, lambda t: t.state.is_over, check_every=4)
    assert leaks(t) == []
    assert {"draw", "choose discard", "review"} <= phases
    assert t.game_over.layout.display != "none"
    assert t.scores.frame.loc["Total"].tolist() == list(t.state.scores)


# -- Gin ---------------------------------------------------------------------------


def test_gin_full_game_roles_and_hidden_cards() -> None:
    t = tracked(lambda: GinTable(seed=7, speed=0, target=50))
    roles_seen = set()
    phases = set()

    def click(t: Any) -> None:
        obs = t.observation()
        roles_seen.add(obs.role)
        phases.add("review" if t.paused else obs.phase)
        assert re.search(rf"\b[Yy]ou \(the {obs.role}\)", t.roles.value), t.roles.value
        click_gin(t)

    play_out(t, click, lambda t: t.state.is_over, check_every=1)
    assert leaks(t) == []
    assert t.game_over.layout.display != "none"
    assert max(t.state.scores) >= 50
    assert t.scores.frame.loc["Total"].tolist() == list(t.state.scores)
    assert "review" in phases and "upcard" in phases


def test_gin_advisor_asks_and_advises() -> None:
    t = GinTable(seed=3, speed=0)
    # play until the learner is captain and must act, then ask the advisor
    for _ in range(500):
        obs = t.observation()
        if obs.role == "captain" and obs.legal_actions and not t.paused:
            break
        click_gin(t)
    else:
        pytest.fail("the learner never captained")
    t.ask_advisor.click()
    assert "advisor suggests" in t.advice.value
    assert t.observation().advice is not None
    # now play on until the learner sits out as advisor, pausing to advise
    t.advise_pause.value = True
    for _ in range(2000):
        if t._hold:
            break
        click_gin(t)
    else:
        pytest.fail("the learner never advised")
    t.advise_input.value = "sing a song"
    t.advise_button.click()
    assert "rummy-error" in t.message.value
    captain_obs = t.observation()
    assert captain_obs.partner_hand  # the advisor sees the captain's hand
    assert sorted(t.hand.shown_cards()) == sorted(captain_obs.partner_hand)
    t.advise_input.value = "draw stock" if captain_obs.phase == "draw" else "pass"
    if captain_obs.phase in ("draw", "upcard"):
        t.advise_button.click()
        assert "You advised" in t.message.value
    n = len(t.state.history)
    t.continue_button.click()
    assert len(t.state.history) > n


def test_gin_illegal_knock_message() -> None:
    t = GinTable(seed=3, speed=0)
    for _ in range(500):
        obs = t.observation()
        if obs.phase == "discard" and obs.legal_actions and not choose(t, "knock"):
            break
        click_gin(t)
    t.hand.select(t.observation().hand[0])
    t.knock.click()
    assert "rummy-error" in t.message.value
    no_msg = t.observation()
    assert no_msg.phase == "discard"


def test_the_leak_check_can_fail() -> None:
    # plant an opponent's real card in a widget: the check must see it
    t = ThreeThirteenTable("three_thirteen", players=2, seed=9, speed=0)
    assert leaks(t) == []
    secret = sorted(hidden_hands(t))[0]
    t.opponents[0].last.value = f"<small>{secret.name}</small>"
    assert leaks(t) != []


@pytest.mark.parametrize("make", [
    lambda: BigTableTable(players=3, seed=4, speed=0),
    lambda: GinTable(seed=3, speed=0),
], ids=["big_table", "gin"])
def test_undo_takes_back_the_learners_move(make: Callable[[], Any]) -> None:
    t = make()
    t.coach.undo_button.click()  # nothing to undo yet
    assert "nothing to undo" in t.message.value.lower()
    for _ in range(500):
        if t.observation().legal_actions and not t.paused and not getattr(t, "_hold", False):
            break
        (click_gin if isinstance(t, GinTable) else click_big_table)(t)
    before = t.observation()
    mine = sum(1 for seat, _ in t.state.history if seat == t.learner)
    t.coach.do_it.click()
    assert sum(1 for seat, _ in t.state.history if seat == t.learner) == mine + 1
    t.coach.undo_button.click()
    assert "rummy-error" not in t.message.value, t.message.value
    assert sum(1 for seat, _ in t.state.history if seat == t.learner) == mine
    assert t.observation().hand == before.hand
    assert t.observation().legal_actions == before.legal_actions


def test_timed_play_tests_run_whatever_ran_before(run_async) -> None:
    # a Playwright browser test earlier in the same process leaves a running loop in
    # this thread; run_async must still give the widget tests a loop of their own
    import asyncio

    async def inner() -> int:
        await asyncio.sleep(0)
        return 42

    async def outer() -> int:
        return run_async(inner())

    assert asyncio.run(outer()) == 42


def test_live_speed_steps_bots_in_an_asyncio_task(run_async) -> None:
    # in a live kernel an event loop runs: bots then move one by one in a task,
    # so a click returns before any bot has moved
    import asyncio

    async def main() -> None:
        t = ThreeThirteenTable("three_thirteen", players=3, seed=21, speed=0.01)
        for _ in range(500):  # wait for the learner's turn
            if t.observation().legal_actions:
                break
            await asyncio.sleep(0.01)
        t.stock.button.click()
        a = choose(t, "discard")[0]
        t.hand.select(a.card)
        t.discard_button.click()
        assert t.state.history[-1] == (t.learner, a)  # no bot moved inside the click
        for _ in range(500):
            if t.state.history[-1][0] != t.learner:
                break
            await asyncio.sleep(0.01)
        assert t.state.history[-1][0] != t.learner
        t._generation += 1  # stop the task
        await asyncio.sleep(0.05)

    run_async(main())


def test_live_match_window_closes(run_async) -> None:
    import asyncio

    async def main() -> None:
        t = BigTableTable(players=3, seed=11, speed=0, match_window=0.05)
        for _ in range(3000):
            if "call match" in {a.verb for a in t.observation().legal_actions} \
                    and not t.paused:
                break
            click_big_table(t)
        else:
            pytest.fail("no match window for the learner")
        assert leaks(t) == []
        n = len(t.state.history)
        assert t._match_timer is not None  # armed when the window opened
        await asyncio.sleep(0.3)
        assert t.state.history[n] == (t.learner, Action("play on"))
        assert "too late" in t.message.value.lower()

    run_async(main())


def test_big_table_twelve_seats() -> None:
    t = tracked(lambda: BigTableTable(players=12, seed=6, speed=0, bots="greedy"))
    assert len(t.seat_views) == 11  # BT-1: up to 12 players, the learner included
    obs = t.observation()
    assert obs.right == 11 and obs.left == 1  # the right neighbour is the seat before
    assert "right: you take from this pile" in t.seat_views[-1].name.value
    assert "left: takes from your pile" in t.seat_views[0].name.value
    play_out(t, click_big_table, lambda t: t.paused, check_every=5)
    assert len(obs.players) == 12 and t.observation().hand_number == 2


def _through_controls(t: Any, a: Action) -> None:
    """Make the legal move ``a`` with the table's own controls."""
    simple = {
        "draw stock": lambda: t.stock.button.click(),
        "draw discard": lambda: t.pile.button.click(),
        "draw pool": lambda: t.pool.button.click(),
        "draw pile": lambda: t.neighbour_pile.button.click(),
        "take upcard": lambda: t.take_upcard.click(),
        "pass": lambda: t.decline_upcard.click(),
        "call match": lambda: t.match.click(),
        "play on": lambda: t.play_on.click(),
        "lay out": lambda: t.lay_out.click(),
    }
    if a.verb in simple:
        simple[a.verb]()
    elif a.verb == "discard":
        t.hand.select(a.card)
        t.discard_button.click()
    elif a.verb in ("go out", "knock", "gin"):
        t.hand.select(a.card)
        {"go out": lambda: t.go_out, "knock": lambda: t.knock, "gin": lambda: t.gin}[a.verb]() \
            .click()
        t.confirm_yes.click()
    elif a.verb == "lay off":
        next(b for b in t._layoff_buttons if b.action == a).click()
    else:
        pytest.fail(f"no control for the legal move {a}")


@pytest.mark.parametrize("make", [
    lambda: ThreeThirteenTable("three_thirteen_jokers", seed=1, speed=0, bots="greedy",
                               jokers=4),
    lambda: ThreeThirteenTable("tre_tretton", players=3, seed=2, speed=0, bots="greedy"),
    lambda: BigTableTable(players=4, seed=3, speed=0, bots="greedy"),
    lambda: GinTable(seed=4, speed=0, bots="greedy", target=50),
], ids=["jokers", "tre_tretton", "big_table", "gin"])
def test_every_legal_move_is_reachable_through_the_controls(make: Callable[[], Any]) -> None:
    # a random learner picks any legal move; the table's own buttons make it,
    # and the engine records exactly that move
    import random

    rng = random.Random(0)
    t = make()
    for _ in range(120):
        if t.state.is_over:
            break
        if t.paused:
            t.next_round.click()
            continue
        obs = t.observation()
        assert obs.legal_actions, f"the learner has nothing to do in {obs.phase}"
        a = rng.choice(obs.legal_actions)
        n = len(t.state.history)
        _through_controls(t, a)
        no_traceback(t)
        assert t.state.history[n] == (t.learner, a)


def test_G_8a_a_learner_who_knocks_chooses_the_arrangement() -> None:
    # the G-8a position of test_gin.py, with the learner (seat 0) as the knocker in the box:
    # laid out as three sets nothing lays off and the learner wins 20 - 10 = 10;
    # as three runs the defender lays off nine cards and undercuts for 10 + 10 - 1 = 19
    from tests.positions import position

    t = GinTable(seed=3, speed=0)
    assert t.learner == 0
    t.state = position("3c 4c 5c 3d 4d 5d 3h 4h 5h Ks", "2c 6c 7c 8c 2d 6d 7d 2h 6h As",
                       stock_top="Tc", turn="box", phase="draw")
    t._paused = False                            # no review of the first hand pending
    t._number_seen = t.state.number
    t.refresh()
    t.stock.button.click()                       # draw Tc
    t.hand.select(Card.parse("Tc"))
    t.knock.click()
    assert t.confirm_box.layout.display != "none" and t.layouts.layout.display != "none"
    labels = [label for label, _ in t.layouts.options]
    assert len(labels) == 3 and labels[0].startswith("The best for you")
    # the sets leave 3 unseen cards that could be laid off (3s 4s 5s), the runs 6
    assert "[3c-3d-3h]" in labels[1] and "3 cards you haven't seen" in labels[1]
    assert "[3c-4c-5c]" in labels[2] and "6 cards you haven't seen" in labels[2]
    hidden = hidden_hands(t)                     # the defender's cards are never named
    assert hidden and not any(str(c) in label for c in hidden for label in labels)
    t.layouts.value = t.layouts.options[2][1]   # the runs, against the rules' advice
    t.confirm_yes.click()
    assert t.state.results[-1].kind == "undercut" and t.state.results[-1].points == 19
    assert t.layouts.layout.display == "none"


# -- words, announcements, the log, waiting for the page -----------------------------

_TOKEN = re.compile(r"(?<![A-Za-z0-9])([2-9TJQKA][cdhs]|Jk)(?![A-Za-z0-9])")


def _visible(html: str) -> str:
    """What a sighted learner reads in ``html``: tags and screen-reader-only text out."""
    html = re.sub(r"<span class=\"rummy-sr\">[^<]*</span>", "", html)
    html = re.sub(r"<svg.*?</svg>", "", html, flags=re.S)
    return re.sub(r"<[^>]+>", "", html)


def _spoken(html: str) -> str:
    """What a screen reader says for ``html``: aria-hidden parts out."""
    html = re.sub(r"<span aria-hidden=\"true\">[^<]*</span>", "", html)
    return re.sub(r"<[^>]+>", "", html)


@pytest.mark.parametrize("make", [
    lambda: ThreeThirteenTable("three_thirteen", players=3, seed=21, speed=0),
    lambda: BigTableTable(players=4, seed=7, speed=0),
    lambda: GinTable(seed=7, speed=0),
])
def test_learners_read_cards_as_faces_never_engine_shorthand(make: Callable[[], Any]) -> None:
    """Banner, log and review show cards as the banners do (J♦, 10♥), never
    ``Th`` or ``7c``."""
    t = make()
    for _ in range(40):
        obs = t.observation()
        if t.paused or obs.is_over:
            break
        texts = [t.status.value, t.log_html, t.review.value]
        if hasattr(t, "opponents"):
            texts += [o.last.value for o in t.opponents]
        for text in texts:
            assert not _TOKEN.findall(_visible(text)), _visible(text)
            assert "T♠" not in text and "T♥" not in text and "T♦" not in text
        if obs.legal_actions:
            t.coach.do_it.click()
        else:
            t.run_bots()


def test_the_banner_announces_each_opponents_move_in_words() -> None:
    """After the learner's move, the live region says what each AI player did,
    each card in words ("Ben discards the king of spades"); the cards named are
    the engine's own, read from its history."""
    t = ThreeThirteenTable("three_thirteen", players=3, seed=21, speed=0)
    me = t.learner
    for _ in range(3):
        obs = t.observation()
        if not obs.legal_actions or t.paused:
            break
        mark = len(t.state.history)
        t.coach.do_it.click()
        if t.paused:
            break
        spoken = _spoken(t.status.value)
        theirs = [(seat, Action.parse(str(a))) for seat, a in t.state.history[mark:]
                  if seat != me]
        discards = [(seat, a.card) for seat, a in theirs if a.verb == "discard"]
        if not theirs:
            continue  # the learner drew: still the learner's turn
        assert discards, "the opponents moved, yet no discard in the history"
        for seat, card in discards[-2:]:
            name = t.state.players[seat]
            assert re.search(rf"{name} [^.]*discards the {card.name}", spoken), spoken
        assert "Your turn" in spoken


def test_the_log_appends_oldest_first() -> None:
    """A move adds the new lines after the old ones, which stay the same
    widgets (a screen reader's log region hears only the new lines)."""
    t = ThreeThirteenTable("three_thirteen", players=3, seed=21, speed=0)
    before = t.log_view.children
    first = t.observation().log[0]
    t.stock.button.click()
    after = t.log_view.children
    assert after[:len(before)] == before and len(after) > len(before)
    assert t.log_html.index(first.split()[0]) < t.log_html.index("You draw")


def test_bots_wait_until_the_page_has_drawn_the_table() -> None:
    """With ``wait_for_page`` no bot moves until the page says the table is
    drawn: a learner whose page is slow to draw misses no bot move."""
    t = ThreeThirteenTable("three_thirteen", players=3, learner=2, seed=21, speed=0,
                           wait_for_page=True)
    assert t.state.current_player != 2  # a bot plays first
    assert len(t.state.history) == 0
    t.seen_button.click()
    assert len(t.state.history) > 0
    assert t.seen_button.layout.display == "none"


def test_the_score_strip_shows_every_running_total() -> None:
    t = ThreeThirteenTable("three_thirteen", players=3, seed=21, speed=0)
    play_out(t, click_three_thirteen, lambda t: t.paused)
    obs = t.observation()
    strip = _visible(t.score_strip.value)
    for name, total in zip(obs.players, obs.scores):
        assert f"{name} {total}" in strip


def test_the_shared_layouts_and_styles_stay_as_they_were_made() -> None:
    """Every card's picture and button share one layout and style (fewer
    front-end models, a table ready sooner); a whole round played must leave
    them as they were made, or one card's change would show on every card."""
    from widgets.view import SHARED_MAKERS, shared

    t = ThreeThirteenTable("three_thirteen", players=3, seed=21, speed=0)
    views = t.hand.views
    assert len(views) >= 3
    assert len({id(v.button.layout) for v in views}) == 1
    assert len({id(v.picture.style) for v in views}) == 1
    play_out(t, click_three_thirteen, lambda t: t.paused)
    for kind, make in SHARED_MAKERS.items():
        fresh = make()
        try:
            assert shared(kind).get_state() == fresh.get_state(), kind
        finally:
            fresh.close()


def test_G_10_G_13_gins_score_strip_shows_totals_roles_and_the_target() -> None:
    """Gin's strip: each player's total with their role this hand
    (G-2, G-11), and the points that win the game (G-13: 100)."""
    t = GinTable(seed=4, speed=0)
    obs = t.observation()
    strip = _visible(t.score_strip.value)
    assert "first to 100 wins" in strip
    assert sorted(obs.roles) == ["advisor", "box", "captain"]
    for name, total, role in zip(obs.players, obs.scores, obs.roles):
        assert f"{name} {total} ({role})" in strip


def test_without_word_from_the_page_the_bots_start_after_a_while(run_async: Any) -> None:
    """A page that never presses rummy-page-ready (another Voilà template) still
    gets a game: the bots start after PAGE_WAIT_S seconds."""
    import asyncio

    from widgets import game_table

    async def main() -> int:
        old, game_table.PAGE_WAIT_S = game_table.PAGE_WAIT_S, 0.05
        try:
            t = ThreeThirteenTable("three_thirteen", players=3, learner=2, seed=21, speed=0,
                                   wait_for_page=True)
            assert len(t.state.history) == 0
            await asyncio.sleep(0.3)
            return len(t.state.history)
        finally:
            game_table.PAGE_WAIT_S = old

    assert run_async(main()) > 0
