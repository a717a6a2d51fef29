"""What a learner reads at the table, in plain words: who is winning ("Lowest
score wins", the players ranked), what a penalty is for ("+7: three cards left
over"), one sentence per move in the live region, and no game jargon."""

from __future__ import annotations

import re

from tests.table_play import click_big_table, click_three_thirteen, play_out
from widgets import BigTableTable, GinTable, ThreeThirteenTable


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip()


def _ranked(strip: str, names: list[str], scores: list[int]) -> None:
    """The strip names every player once, lowest score first, each with a place."""
    text = _text(strip)
    at = [text.index(n + " ") for n in names]
    order = [n for _, n in sorted(zip(at, names))]
    # lowest first: (score, name) by hand from the engine's totals
    want = sorted(range(len(names)), key=lambda i: scores[i])
    assert [scores[names.index(n)] for n in order] == [scores[i] for i in want], text
    for n, s in zip(names, scores):
        assert re.search(rf"{re.escape(n)} {s}\b", text), (n, s, text)


def test_three_thirteen_says_lowest_score_wins_and_ranks_the_players() -> None:
    t = ThreeThirteenTable(players=3, seed=5, speed=0)
    assert "Lowest score wins" in t.score_strip.value
    play_out(t, click_three_thirteen, lambda t: t.paused)
    obs = t.observation()
    names = ["You" if n == "You" else n for n in obs.players]
    assert "Lowest score wins" in t.score_strip.value
    _ranked(t.score_strip.value, names, list(obs.scores))
    text = _text(t.score_strip.value)
    assert "1st" in text or "1." in text


def test_big_table_says_lowest_score_wins() -> None:
    t = BigTableTable(players=3, seed=4, speed=0)
    assert "Lowest score wins" in t.score_strip.value
    play_out(t, click_big_table, lambda t: t.paused)
    obs = t.observation()
    _ranked(t.score_strip.value, list(obs.players), list(obs.scores))


def test_gin_still_says_first_to_the_target_wins() -> None:
    t = GinTable(seed=6, speed=0)
    assert "first to 100 wins" in t.score_strip.value
    assert "Lowest" not in t.score_strip.value


_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven",
          8: "eight", 9: "nine", 10: "ten"}


def test_the_review_explains_each_penalty() -> None:
    t = ThreeThirteenTable(players=2, seed=5, speed=0)
    play_out(t, click_three_thirteen, lambda t: t.paused)
    obs = t.observation()
    review = _text(t.review.value)
    for _seat, arr, pts in obs.last_round:
        left = len(arr.deadwood)
        if pts:
            words = _WORDS.get(left, str(left))
            want = f"+{pts}: {words} card{'s' if left != 1 else ''} left over"
            assert want in review, (want, review)
        else:
            assert "+0: no cards left over" in review, review
    assert "penalty" not in review.lower()


def test_the_hand_summary_says_what_is_left_over_not_penalty() -> None:
    t = ThreeThirteenTable(players=2, seed=5, speed=0)
    t.hand.sort.value = "melds"
    summary = _text(t.hand.summary.value)
    assert "penalty" not in summary and "unmelded" not in summary, summary
    assert "left over" in summary, summary


def test_the_live_region_says_each_move_once_as_a_sentence() -> None:
    """One announcement per learner move (its value changes once), only what is
    new, melds read as cards without brackets or dashes; the banner is no live
    region of its own (it would be re-read whole on every move)."""
    t = ThreeThirteenTable(players=2, seed=5, speed=0)
    assert "rummy-live" in t.announce._dom_classes
    assert "rummy-live" not in t.status._dom_classes
    said: list[str] = []
    t.announce.observe(lambda c: said.append(_text(c["new"])), names="value")
    clicks = 0
    went_out = 0
    while not t.paused:
        before = len(said)
        click_three_thirteen(t)
        clicks += 1
        assert len(said) - before <= 1, said[before:]
        assert clicks < 500
    assert len(said) >= clicks - 1
    for text in said:
        assert not re.search(r"[\[\]]", text), text
        assert not re.search(r"(?<![A-Za-z0-9])([2-9TJQKA][cdhs])(?![A-Za-z0-9])", text), text
        went_out += text.count("went out: everyone else has one last turn")
    assert went_out <= 1, said
    assert any("goes out" in x and "the " in x for x in said), said
    # a draw says what you drew and what to do now, not the whole banner again
    t.next_round.click()
    n = len(said)
    t.stock.button.click()
    assert len(said) == n + 1
    assert said[-1].startswith("Your turn: discard a card") and "You drew the " in said[-1]


def test_the_meld_checker_lists_games_by_name_not_id() -> None:
    from widgets import MeldChecker

    m = MeldChecker()
    labels = [label for label, _value in m.variant.options]
    assert "Three Thirteen" in labels and "Big Table" in labels
    assert not any("_" in label for label in labels), labels
    m.variant.value = "tre_tretton"  # the value is still the variant's id
    assert m.round.max == 11


def test_a_rule_code_is_behind_why_and_the_log_is_in_plain_words() -> None:
    t = BigTableTable(players=3, seed=4, speed=0)
    play_out(t, click_big_table,
             lambda t: "draw pool" in {a.verb for a in t.observation().legal_actions})
    t.own_pile.button.click()  # you never take from your own pile (BT-3)
    alert = re.search(r"<span class='rummy-error'[^>]*>(.*?)</span>", t.message.value)
    assert alert and "BT-3" not in alert.group(1) and "(" not in alert.group(1), t.message.value
    assert "<summary>Why?</summary>" in t.message.value
    assert "(rule BT-3)" in t.message.value


def test_the_logs_say_left_over_not_deadwood_and_no_rule_codes() -> None:
    from tests.table_play import click_gin

    t = ThreeThirteenTable(players=2, seed=5, speed=0)
    play_out(t, click_three_thirteen, lambda t: t.paused)
    g = GinTable(seed=6, speed=0)
    play_out(g, click_gin, lambda g: g.paused)
    for html in (t.log_html, g.log_html, g.review.value, t.review.value):
        text = _text(html)
        assert "deadwood" not in text and "unmelded" not in text, text
        assert not re.search(r"\((?:[A-Z]{1,2}-\d+[a-z]?(?:, )?)+\)", text), text


def test_the_projector_says_the_round_whose_turn_and_the_last_move() -> None:
    import rummy
    from tableserver.tables import public_view
    from widgets.projector import projector_html

    g = rummy.new_game("three_thirteen", players=3, seed=1)
    cur = g.current_player
    g.apply("draw stock", player=cur)
    view = {**public_view(g, 3), "code": "K7QM", "status": "playing"}
    page = _text(projector_html(view))
    name = g.players[cur]
    assert "Round 1 of 11" in page, page
    assert f"{name}'s turn to discard" in page.replace("&#x27;", "'"), page
    assert f"Last move: {name} draws from the stock" in page, page


def test_the_coachs_chances_show_cards_as_faces() -> None:
    t = ThreeThirteenTable(players=2, seed=5, speed=0, show_odds=True)
    t.coach.odds_toggle.value = True
    shown = _text(re.sub(r"<span class=\"rummy-sr\">[^<]*</span>", "", t.coach.odds.value))
    assert "♠" in shown
    assert not re.search(r"(?<![A-Za-z0-9])([2-9TJQKA][cdhs])(?![A-Za-z0-9])", shown), shown
