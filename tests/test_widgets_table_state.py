"""No wrong or confusing state: what the tables, explorers and apps show must
be one situation at a time, for the learner, in words.

Headless: every check drives the views through their own buttons (speed 0),
the expected values come from the engine state or are worked out by hand in
the comments.
"""

from __future__ import annotations

import asyncio
import html
import re
from pathlib import Path
from typing import Any

import pytest

import rummy
from rummy.action import Action
from rummy.cards import Card
from tests.table_play import click_big_table, click_gin, click_three_thirteen, play_out
from widgets import BigTableTable, GinTable, MeldChecker, OddsExplorer, ThreeThirteenTable, apps
from widgets.view import learner_error, second_person, to_learner

APPS = Path(__file__).resolve().parents[1] / "notebooks" / "apps"
TITLE = re.compile(r"<title>([^<]*)</title>")


def shown(widget: Any) -> bool:
    return widget.layout.display != "none"


# -- one hand's state at a time --------------------------------------------------------


def test_TT_8_review_is_shown_alone_then_the_next_deal() -> None:
    t = ThreeThirteenTable("three_thirteen", players=2, seed=11, speed=0)
    assert shown(t.play_area) and not shown(t.review_box)
    play_out(t, click_three_thirteen, lambda t: t.paused)
    # round 1 is over: the review, and nothing of round 2 (its wild rank, its hand)
    assert shown(t.review_box) and "Review of round 1" in t.review.value
    assert not shown(t.my_seat) and not shown(t.wild) and shown(t.felt)
    assert "Round 1 is over" in t.status.value and "Next round" in t.status.value
    moves = len(t.state.history)
    assert t.run_bots() == 0  # no bot plays round 2 while the learner reads the review
    t.advance()
    assert len(t.state.history) == moves
    t.next_round.click()
    assert shown(t.play_area) and not shown(t.review_box)
    assert "Round 2 of 11" in t.wild.value and "fours are wild" in t.wild.value
    assert len(t.hand.cards) == 4 or t.observation().phase == "discard"


def test_TT_8_live_bots_wait_while_the_review_is_read(run_async: Any) -> None:
    # a live kernel: bots move in an asyncio task, one every `speed` seconds
    async def run() -> None:
        t = ThreeThirteenTable("three_thirteen", players=3, seed=11, speed=0.001)
        for _ in range(600):
            while t._task is not None and not t._task.done():
                await asyncio.sleep(0.002)
            if t.paused:
                break
            if t.observation().legal_actions:
                t.coach.do_it.click()
            await asyncio.sleep(0.002)
        assert t.paused and not shown(t.my_seat) and not shown(t.wild) and shown(t.felt)
        moves = len(t.state.history)
        await asyncio.sleep(0.1)  # fifty bot moves' worth of time
        assert len(t.state.history) == moves, "a bot played round 2 under the review"
        t.next_round.click()
        assert shown(t.play_area) and t.observation().round == 2
        t._generation += 1  # stop the task before the loop closes

    run_async(run())  # a loop of its own, whatever ran before in this process


def test_BT_1_review_marks_the_wild_rank_of_the_hand_that_ended() -> None:
    # hand 1 deals 3 cards: threes are wild (TT-2); hand 2's fours are not wild in hand 1
    t = BigTableTable(players=3, seed=4, speed=0)
    play_out(t, click_big_table, lambda t: t.paused)
    assert "Review of hand 1" in t.review.value
    assert "Threes are wild in hand 1" in t.review.value
    titles = TITLE.findall(t.review.value)
    assert titles, "the review shows no card"
    for title in titles:
        if "(wild)" in title:
            assert title.startswith("three of"), title
        elif title.startswith(("three of", "joker")):
            pytest.fail(f"a wild card is not marked: {title}")
    assert not shown(t.my_seat) and not shown(t.wild) and shown(t.felt)


def test_G_2_advisor_at_speed_0_sees_the_hand_before_the_captain_plays() -> None:
    t = GinTable(seed=3, speed=0)  # seed 3: the learner (seat 0) draws the advisor's role
    obs = t.observation()
    assert obs.role == "advisor" and obs.hand_number == 1
    assert t.state.history == [] and not t.paused  # nothing played before the page shows
    assert sorted(t.hand.shown_cards()) == sorted(obs.partner_hand)
    assert "waits for your advice" in t.status.value
    t.continue_button.click()  # the captain decides; the table stops at the next decision
    assert len(t.state.history) >= 1 and t.observation().hand_number == 1


def _learner_captain_to_act(seed: int) -> GinTable:
    t = GinTable(seed=seed, speed=0)
    for _ in range(400):
        obs = t.observation()
        if (obs.role == "captain" and obs.legal_actions and not t.paused
                and obs.phase in ("draw", "upcard")):
            return t
        click_gin(t)
    pytest.fail("the learner never had to act as captain")


def test_G_2_advisor_suggestion_is_for_one_decision_only() -> None:
    t = _learner_captain_to_act(1)
    t.ask_advisor.click()
    assert "advisor suggests" in t.advice.value
    # words, not an action string; the estimates explained
    assert "'" not in t.advice.value.split("suggests:</b>")[1].split("—")[0]
    assert "estimate" in t.advice.value
    hand = t.observation().hand_number
    t.coach.do_it.click()  # the learner moves: the advice was for that move
    assert t.advice.value == ""
    while t.observation().hand_number == hand or t.paused:
        click_gin(t)
    assert "advisor suggests" not in t.advice.value


def test_G_8_done_button_is_there_while_laying_off() -> None:
    for seed in range(1, 40):
        t = GinTable(seed=seed, speed=0, bots="greedy")
        for _ in range(300):
            obs = t.observation()
            if t.state.is_over or obs.hand_number > 2:
                break
            if obs.phase == "lay off" and obs.legal_actions:
                verbs = {a.verb for a in obs.legal_actions}
                assert t.lay_out in t.layoffs.children, "no Done button while laying off"
                assert t.lay_out.description == "Done"
                assert t.lay_out.disabled == ("lay out" not in verbs)
                assert "Done" in t.status.value
                if "lay out" in verbs:
                    t.lay_out.click()
                    assert t.observation().phase != "lay off"
                return
            click_gin(t)
    pytest.fail("the learner never laid off in seeds 1..39")


def test_stale_error_is_cleared_when_the_situation_changes() -> None:
    t = ThreeThirteenTable("three_thirteen", players=2, seed=5, speed=0)
    t.stock.button.click()
    t.hand.select(None)
    t.discard_button.click()
    assert "Tap a card in your hand" in t.message.value
    t.hand.views[0].button.click()  # selecting a card answers the error
    assert t.message.value == ""
    t.hand.select(None)
    t.discard_button.click()
    assert "Tap a card in your hand" in t.message.value
    card = t.observation().hand[0]
    t.play_move(Action("discard", card))  # a move: the old error is gone
    assert "Tap a card in your hand" not in t.message.value


def test_go_out_confirmation_clears_an_old_error() -> None:
    t = ThreeThirteenTable("three_thirteen", players=2, seed=5, speed=0)
    t.show_error("Select a card in your hand first")
    t.ask_confirm("Go out, discarding 9♣?", Action("go out", Card.parse("9c")))
    assert t.message.value == "" and shown(t.confirm_box)


# -- the meld checker and the odds explorer: the variant's own cards ---------------------


@pytest.mark.parametrize("hand", ["7h " * 50, "Jk Jk Jk Jk Jk"])
def test_C_1_meld_checker_refuses_a_hand_the_shoe_cannot_hold(hand: str) -> None:
    # three_thirteen for 4 players: 2 packs, no jokers (TT-11); 50 x 7h and 5 jokers can't be
    m = MeldChecker("three_thirteen")
    m.input.value = hand.strip()
    assert m.result.value.startswith("<b>No"), m.result.value
    assert "pack" in m.result.value or "without jokers" in m.result.value
    assert m.picture.value == ""


def test_TJ_2_meld_checker_counts_the_jokers_of_the_variant() -> None:
    m = MeldChecker("three_thirteen_jokers", jokers=4)
    m.input.value = "Jk Jk Jk"  # TJ-6: wilds only is a meld; 4 jokers in the shoe
    assert m.result.value.startswith("<b>Yes"), m.result.value
    m.input.value = "Jk Jk Jk Jk Jk"
    assert m.result.value.startswith("<b>No") and "at most 4 times" in m.result.value


def test_odds_explorer_clears_the_old_answer_on_bad_input() -> None:
    o = OddsExplorer(round=2, hand="7h 8h Kc 2d", draws=3)
    assert "<svg" in o.plot.value and "<table" in o.table.value
    assert "False" not in o.table.value and "True" not in o.table.value
    assert "<th></th>" not in o.table.value
    o.hand.value = "Jk Jk Jk Jk"  # three_thirteen has no jokers
    assert "rummy-error" in o.message.value
    assert o.fraction.value == "" and o.plot.value == "" and o.table.value == ""


# -- words written to the learner --------------------------------------------------------


def test_engine_errors_are_told_to_the_learner_in_words() -> None:
    t = ThreeThirteenTable("three_thirteen", players=2, seed=5, speed=0)
    t.play_move(Action("discard", t.observation().hand[0]))  # before drawing (TT-5)
    msg = t.message.value
    assert "draw from the stock" in msg and "'draw stock'" not in msg and "legal now" not in msg
    b = BigTableTable(players=3, seed=4, speed=0)
    b.own_pile.button.click()  # BT-3
    alert = b.message.value.split("<details")[0]  # the rule itself is behind "Why?"
    assert "your own pile" in alert and "their own" not in alert


def test_a_shared_tables_refusals_say_you_not_the_learners_name() -> None:
    """At a shared table the engine names the learner's seat ("Ana has no
    complete hand"): the page says "You".  Seed 17 deals Ben a complete hand,
    so the deal opens with his match window (BT-4)."""
    names = ["Ana", "Ben", "Cleo"]
    game = rummy.new_game("big_table", players=names, seed=17)
    assert game.phase == "match call after deal" and game.to_act() == [1]
    refusals = []
    for seat in (0, 1):  # each clicks the own pile
        with pytest.raises(rummy.GameError) as caught:
            game.apply("draw own pile", player=seat)
        refusals.append(caught.value)
    assert str(refusals[0]).startswith("Ana has no complete hand")  # the engine's words
    said = []
    for seat, exc in enumerate(refusals):
        t = BigTableTable(players=names, learner=seat, name=names[seat], seed=17, speed=0)
        t.show_error(exc)
        alert = t.message.value.split("<details")[0]  # the rule's code is behind "Why?"
        said.append(html.unescape(re.sub(r"<[^>]+>", "", alert)).strip())
    assert said == [
        "You have no complete hand to call match with; only a player whose whole hand "
        "is melded may call now",
        "You can't take from your own pile now. You can: call match, or play on."]


def test_sentences_for_the_learner_say_you() -> None:
    assert second_person("You becomes captain (G-11).") == "You become captain (G-11)."
    assert second_person("You lays off 5h.") == "You lay off 5h."
    assert second_person("You advises: draw stock.") == "You advise: draw stock."
    assert to_learner("Qc would not lower my 24 points") == "Q♣ would not lower your 24 points"
    assert learner_error("'pass' is not a legal move now; legal moves: 'draw stock'") == (
        "You can't pass now. You can: draw from the stock.")


def test_coach_speaks_to_the_learner() -> None:
    t = ThreeThirteenTable("three_thirteen", players=2, seed=5, speed=0)
    for _ in range(6):
        t.coach.hint_button.click()
        text = t.coach.text.value
        assert not re.search(r"\b(my|I|me)\b", text), text
        assert "'" not in text
        t.coach.do_it.click()
        if t.paused:
            break


def test_G_11_roles_line_and_log_say_you() -> None:
    t = GinTable(seed=7, speed=0, target=50)
    for _ in range(600):
        if t.state.is_over:
            break
        for text in (t.roles.value, t.log_html, t.review.value, t.knock_view.value):
            assert not re.search(r"\bYou (becomes|lays|advises|is|has|takes|draws)\b", text), text
        click_gin(t)


# -- bad settings in the address: a message in words and a working default table ---------


def _big_table_app(kit: Any, query: str) -> Any:
    return kit.App({"players": 6, "seed": None, "speed": 0.0, "bots": "expert"},
                   lambda s: BigTableTable(players=s["players"], seed=s["seed"],
                                           speed=s["speed"], bots=s["bots"]), query=query)


@pytest.mark.parametrize("query, key", [("players=99", "players"), ("players=1", "players"),
                                        ("bots=nope", "bots")])
def test_bad_big_table_setting_is_reported_and_the_default_used(query: str,
                                                                key: str) -> None:
    app = _big_table_app(apps, f"{query}&seed=4")
    assert app.view is not None and "rummy-table-ready" in app.view.widget._dom_classes
    note = app.widget.children[0].value
    assert note.startswith(f"{key}=") and "Using the default" in note
    assert "Error" not in note  # words, not an exception's class name
    assert app.view.state.seed == 4  # the good settings are kept
    if key == "players":
        assert len(app.view.state.players) == 6


def test_bad_variant_in_melds_and_odds_is_reported() -> None:
    app = apps.App({"variant": "three_thirteen", "round": "1"},
                     lambda s: MeldChecker(s["variant"], round=int(s["round"])),
                     query="variant=nope")
    assert app.view is not None and app.view.variant.value == "three_thirteen"
    note = app.widget.children[0].value
    assert "variant='nope'" in note and "Using the default" in note


def test_three_thirteen_app_reports_clamped_settings() -> None:
    def make_table(variant: str, players: int, jokers: int) -> ThreeThirteenTable:
        options = {"jokers": jokers} if variant == "three_thirteen_jokers" else {}
        return ThreeThirteenTable(variant, players=players, seed=1, speed=0, **options)

    for players in (99, 0):
        c = apps.VariantChooser(make_table, variant="three_thirteen", players=players,
                                  jokers=0)
        assert c.players.value == 2 and len(c.table.state.players) == 2
        assert f"players={players}" in c.message.value
    c = apps.VariantChooser(make_table, variant="three_thirteen_jokers", players=4, jokers=7)
    assert c.jokers.value == 2 and "jokers=7" in c.message.value  # the usual 2
    assert c.table.state.options.get("jokers", c.table.options.get("jokers")) == 2


# -- the Big Table caller's countdown --------------------------------------------------


def test_BT_5_match_window_counts_down_visibly(run_async: Any) -> None:
    t = BigTableTable(players=3, seed=4, speed=0, match_window=1.5)
    missed: list[bool] = []
    t._legal = lambda verb, card=None: [Action("call match")]  # type: ignore[method-assign]
    t.miss_match = lambda: missed.append(True)  # type: ignore[method-assign]
    seen: list[str] = []

    async def run() -> None:
        task = asyncio.ensure_future(t._match_countdown(t._generation))
        for _ in range(4):
            await asyncio.sleep(0.4)
            if shown(t.countdown):
                seen.append(t.countdown.value)
        await task

    run_async(run())  # a loop of its own, whatever ran before in this process
    # 1.5 s: "2 seconds left" (1.5 rounded up), then "1 second left"
    assert any(">2</span> seconds left" in s for s in seen), seen
    assert any(">1</span> second left" in s for s in seen), seen
    assert missed == [True] and not shown(t.countdown)


def run_app_cell(name: str, query: str, monkeypatch: Any) -> Any:
    """Run the app notebook's first code cell as Voilà would, with ``query`` as
    the page's address; returns the value of its last expression (the App)."""
    import ast
    import json

    nb = json.loads((APPS / f"{name}.ipynb").read_text())
    code = "".join(next(c for c in nb["cells"] if c["cell_type"] == "code")["source"])
    tree = ast.parse(code)
    last = tree.body.pop()
    assert isinstance(last, ast.Expr), "the cell ends with the app"
    monkeypatch.setenv("QUERY_STRING", query)
    scope: dict[str, Any] = {}
    exec(compile(tree, name, "exec"), scope)  # noqa: S102 - the kit's own notebook
    return eval(compile(ast.Expression(last.value), name, "eval"), scope)  # noqa: S307


@pytest.mark.parametrize("name, query, said", [
    ("big_table", "players=99&seed=4&speed=0", "players=99"),
    ("big_table", "players=1&seed=4&speed=0", "players=1"),
    ("big_table", "bots=nope&seed=4&speed=0", "bots='nope'"),
    ("gin_three", "bots=nope&seed=4&speed=0", "bots='nope'"),
    ("three_thirteen", "bots=nope&seed=4&speed=0", "bots='nope'"),
    ("three_thirteen", "players=99&seed=4&speed=0", "players=99"),
    ("three_thirteen", "variant=tre_tretton&players=13&seed=4&speed=0", "players=13"),
    ("three_thirteen", "variant=three_thirteen_jokers&jokers=7&seed=4&speed=0", "jokers=7"),
    ("meld_odds", "variant=nope", "variant='nope'"),
])
def test_every_bad_setting_in_an_app_address_gives_words_and_a_working_table(
        name: str, query: str, said: str, monkeypatch: Any) -> None:
    app = run_app_cell(name, query, monkeypatch)
    assert app.view is not None, "no view at all"
    view = getattr(app.view, "table", None) or app.view  # the Three Thirteen chooser
    assert hasattr(view, "widget") and view.widget is not None
    if hasattr(view, "state"):
        assert "rummy-table-ready" in view.widget._dom_classes
        assert view.state.seed == 4  # the good settings are kept
    notes = app.widget.children[0].value  # the App's notes about the address
    own = getattr(app.view, "message", None)  # and the Three Thirteen chooser's own
    if own is not None:
        notes += " " + own.value
    assert said in notes, notes
    assert "default" in notes and "Error" not in notes, notes


# -- addresses ---------------------------------------------------------------------------


@pytest.mark.parametrize("query, says", [
    ("speed=-5", "speed=-5 is out of range: it must be 0 to 3"),
    ("speed=99", "speed=99 is out of range: it must be 0 to 3"),
    ("seed=-1", "seed=-1 is out of range: it must be 0 to"),
])
def test_out_of_range_settings_get_a_message_and_the_default(query: str,
                                                            says: str) -> None:
    app = _big_table_app(apps, query)
    note = app.widget.children[0].value
    assert says in note and "using the default" in note, note
    assert app.view.speed.value == 0.0 and app.view.state.seed != -1


def test_a_long_value_is_cut_in_the_message() -> None:
    app = _big_table_app(apps, "bots=" + "x" * 5000)
    note = app.widget.children[0].value
    assert "Using the default" in note and len(note) < 400, len(note)
    assert "x" * 38 + "…" in note


@pytest.mark.parametrize("code", ["<script>alert(1)</script>", "K7QM-X4P9-RT2H"])
def test_a_bad_table_code_says_no_table_with_that_code(code: str,
                                                      monkeypatch: Any) -> None:
    """A code that names no table (or can't be one) is told in the learner's
    words, not as the service's developer message."""
    from urllib.parse import quote

    monkeypatch.setenv("RUMMY_API", "http://127.0.0.1:9/rummy/api")  # nothing listens there

    class Refused(Exception):
        status = 404

    def refuse(where: dict[str, str]) -> Any:
        raise Refused("no such endpoint: see docs/API.md")

    monkeypatch.setattr(apps, "_shared", refuse)
    app = _big_table_app(apps, f"table={quote(code)}&name=Ana")
    note = app.widget.children[0].value
    assert "There is no table with that code" in note, note
    assert "docs/API.md" not in note and "endpoint" not in note
    assert "<script>" not in note  # escaped on the page
