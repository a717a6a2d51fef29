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
        assert steps < 60, "a guided hand should be short"
    assert g.done and g.summary().startswith("The hand is over.")
    assert g.feedback.startswith("Good. The hand is over.")
    assert 2 <= steps <= 30
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
    expected = {"three_thirteen": {"TT-5", "TT-6", "TT-7", "TT-8"},
                "tre_tretton": {"TT-2", "TT-6", "TT-7", "TT-8", "TR-2", "TR-3"},
                "three_thirteen_jokers": {"TT-6", "TT-7", "TJ-7"},
                "big_table": {"BT-3", "BT-4", "BT-5", "BT-6"},
                "gin_three": {"G-4", "G-5", "G-6", "G-7"}}[variant]
    assert expected <= rules_seen, rules_seen


@pytest.mark.parametrize("variant", VARIANTS)
def test_illegal_moves_get_the_engines_reason_with_a_rule_id(variant: str) -> None:
    g = Guide(variant)
    before = snapshot(g)
    card = g.observation().hand[0]
    ok, feedback = g.try_move(f"discard {card}")   # legal only after a draw
    assert not ok and RULE.search(feedback) and snapshot(g) == before


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("typo", ["discard 9x", "fly away", "", "draw stok"])
def test_a_move_that_does_not_parse_says_how_moves_are_written_and_cites_no_rule(
        variant: str, typo: str) -> None:
    g = Guide(variant)
    before = snapshot(g)
    ok, feedback = g.try_move(typo)
    assert not ok and snapshot(g) == before
    assert not RULE.search(feedback), feedback          # a spelling matter, not a game rule
    assert "write a move as a verb, then a card" in feedback and "Your moves now:" in feedback


def test_TT_5_throwing_back_the_card_taken_is_refused() -> None:
    g = Guide("three_thirteen")
    assert "draw discard" in map(str, g.legal())
    g.game.apply("draw discard", player=g.learner)  # the guide would refuse it: this Ks does not help
    taken = g.observation().taken
    ok, feedback = g.try_move(f"discard {taken}")
    assert not ok and "(TT-5)" in feedback


def test_BT_3_your_own_pile_is_refused() -> None:
    g = Guide("big_table")
    obs = g.observation()
    own = obs.piles[g.learner][-1]
    ok, feedback = g.try_move(f"draw pile {own}")
    assert not ok and "BT-3" in feedback


@pytest.mark.parametrize("variant", [v for v in VARIANTS if v != "three_thirteen_jokers"])
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
    # the scripted three_thirteen hand (threes wild): you draw Q♦ onto K♣ 7♥ 8♥;
    # K♣ or Q♦ leave 7+8+10 = 25 points, 7♥ leaves 8+10+10 = 28, 8♥ leaves 27
    g = Guide("three_thirteen")
    assert g.try_move("draw stock")[0]
    assert sorted(map(str, g.observation().hand)) == ["7h", "8h", "Kc", "Qd"]
    ok, feedback = g.try_move("discard 7h")
    assert not ok and "TT-8" in feedback and "28 points" in feedback and "K♣ only 25" in feedback
    ok, feedback = g.try_move("discard 8h")
    assert not ok and "27 points" in feedback
    assert sorted(str(a) for a in g.good_moves()) == ["discard Kc", "discard Qd"]


# --- draw choices: the open card against a blind draw ---------------------------------------

def test_TT_5_taking_a_discard_that_does_not_help_is_refused() -> None:
    g = Guide("three_thirteen")                      # Q♠ on the pile, you hold K♣ 7♥ 8♥
    before = snapshot(g)
    ok, feedback = g.try_move("draw discard")
    assert not ok and "(TT-5)" in feedback and "Q♠ does not help" in feedback
    assert "25 points (now 25)" in feedback and snapshot(g) == before
    assert [str(a) for a in g.good_moves()] == ["draw stock"]
    assert g.hint() == ("Look at the open Q♠: does it make a meld with your cards, or lower the "
                        "points you would keep?")


def test_TT_6_drawing_blind_when_the_discard_lets_you_go_out_is_refused() -> None:
    g = replay("three_thirteen", ["draw stock", "discard Kc"])   # Ana throws 9♥
    assert str(g.observation().discard_top) == "9h"
    ok, feedback = g.try_move("draw stock")
    assert not ok and "TT-6" in feedback and "take the 9♥" in feedback
    assert g.try_move("draw discard")[0]
    assert g.try_move("go out Qd")[0] and not g.done        # round 2 follows (TT-7 for you)
    assert g.observation().round == 2


def test_a_discard_that_completes_a_meld_is_preferred_to_a_blind_draw() -> None:
    import rummy
    from rummy.cards import cards

    g = Guide("three_thirteen", seed=4)
    rules = g.rules()
    hand = list(cards("7h 8h Kc Qd"))                # four cards: the 9♥ completes a run, not the hand
    take, blind = rummy.Action.parse("draw discard"), rummy.Action.parse("draw stock")
    top = rummy.Card.parse("9h")
    v = g._weak_draw(blind, take, top, hand, rules, keep_top=True)
    assert v is not None and v.rule == "TT-5" and "completes the meld 7♥ 8♥ 9♥" in v.why
    assert "drops from 35 to 10 points" in v.why        # K♣+Q♦+7+8 = 35; 9♥ in, Q♦ out: K♣ 10
    assert g._weak_draw(take, take, top, hand, rules, keep_top=True) is None
    # a card that lowers the points without a meld (a 2 for the K): both draws are fine
    two = rummy.Card.parse("2s")
    assert g._weak_draw(blind, take, two, hand, rules, keep_top=True) is None
    assert g._weak_draw(take, take, two, hand, rules, keep_top=True) is None


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
    view.moves.children[1].click()                      # draw discard: the Q♠ does not help
    assert "TT-5" in view.feedback and "rummy-quiz-wrong" in view.feedback_view.value
    view.moves.children[0].click()                      # draw stock: fine
    assert view.feedback.startswith("Good.")
    view.typed.value = "discard 7h"                     # keeps more points: refused, with its rule
    view.play_typed.click()
    assert "TT-8" in view.feedback and "rummy-quiz-wrong" in view.feedback_view.value
    view.hint_button.click()   # three steps: a question, the rule and why, the move
    assert view.feedback == ("Hint 1 of 3: Which card of your hand is in no meld, and which "
                             "costs the most points?")
    view.hint_button.click()
    assert view.feedback.startswith("Hint 2 of 3: TT-5: a turn is")
    view.hint_button.click()
    assert view.feedback == "Hint 3 of 3: Play discard Kc or discard Qd."
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
    from tests.table_play import walk

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
    moves, rules, finished = guided_seeds.probe("tre_tretton", None)   # the chosen deal
    assert finished and moves == 4 and "TR-2" in rules          # round 1 in 2 moves, round 2 in 2


# --- what each guided hand shows (SHOWS), on its scripted or seeded deal ------------------------

def shown_rules(variant: str) -> tuple[set[str], int]:
    """Rule ids in what the learner reads on the good path: the situation at each
    decision and the feedback on every weaker or wrong move tried on the way."""
    g = Guide(variant)
    seen: set[str] = set()
    steps = 0
    while not g.done:
        seen.update(RULE.findall(g.situation()))
        good = g.good_moves()
        for move in g.legal():
            if move not in good:
                seen.update(RULE.findall(g.judge(move).why))
        g.try_move(good[0])
        steps += 1
    for line in g.narration:
        seen.update(RULE.findall(line))
    return seen, steps


@pytest.mark.parametrize("variant", VARIANTS)
def test_each_guided_hand_shows_the_rules_listed_for_it(variant: str) -> None:
    from rummy.guided import SHOWS

    must = {"three_thirteen": {"TT-2", "TT-5", "TT-6", "TT-7", "TT-8"},
            "tre_tretton": {"TT-2", "TT-5", "TT-6", "TT-7", "TT-8", "TR-2", "TR-3"},
            "three_thirteen_jokers": {"TT-2", "TT-5", "TT-6", "TT-7", "TJ-3", "TJ-7"},
            "big_table": {"BT-1", "BT-3", "BT-4", "BT-5", "BT-6"},
            "gin_three": {"G-2", "G-4", "G-5", "G-6", "G-8", "G-8a", "G-9", "G-11"}}[variant]
    assert SHOWS[variant] == must
    seen, steps = shown_rules(variant)
    assert must <= seen, sorted(must - seen)
    assert 2 <= steps <= 30


def test_tre_tretton_is_a_chosen_deal_that_reaches_TR_2() -> None:
    """The scripted deal, step by step: three wilds dealt, the fourth refused
    (TR-2), a natural card from the stock, throwing it refused (TR-2), out."""
    g = Guide("tre_tretton")
    assert g.script is not None
    assert sorted(map(str, g.observation().hand)) == ["3c", "3d", "3s"]
    assert str(g.observation().discard_top) == "3h"
    assert "The first discard is 3h." in g.narration[-1]
    assert g.game.current_player == g.learner          # you play first
    ok, feedback = g.try_move("draw discard")           # a fourth wild does not help
    assert not ok and "(TR-2)" in feedback and "TR-3" in feedback
    assert g.good_moves() == [g.legal()[0]] and str(g.legal()[0]) == "draw stock"
    assert g.try_move("draw stock")[0]
    assert str(g.observation().drawn) == "8h"
    ok, feedback = g.try_move("discard 8h")             # leaves wilds only
    assert not ok and "TR-2" in feedback and "TT-6" in feedback
    ok, feedback = g.try_move("go out 8h")              # not legal: 3c 3d 3s is no meld here
    assert not ok and "wilds only" in feedback and "(TR-2)" in feedback
    assert sorted(str(a) for a in g.good_moves()) == ["discard 3c", "discard 3d", "discard 3s",
                                                      "go out 3c", "go out 3d", "go out 3s"]
    ok, feedback = g.try_move("go out 3s")
    assert ok and not g.done and g.observation().round == 2     # TT-7 for you comes next
    g.game.check_invariants()
    # the same three threes are a meld in standard Three Thirteen: TR-2 is this variant's own
    import rummy
    assert rummy.is_meld("3c 3d 3s", rummy.find_variant("three_thirteen").meld_rules(1))
    assert not rummy.is_meld("3c 3d 3s", rummy.find_variant("tre_tretton").meld_rules(1))


def test_a_scripted_deal_keeps_every_card_once_and_checks_its_script() -> None:
    import rummy
    from rummy.guided import Script, _stack_deal

    game = rummy.new_game("tre_tretton", players=["Ana", "You", "Ben"], seed=4)
    with pytest.raises(ValueError, match="Cleo, who is not at the table"):
        _stack_deal(game, Script(hands={"Cleo": "3c 3d 3s"}, upcard="3h"))
    with pytest.raises(ValueError, match="dealt 3 cards, not 2"):
        _stack_deal(game, Script(hands={"You": "3c 3d"}, upcard="3h"))
    with pytest.raises(ValueError, match="does not hold 3c"):  # two packs for three players (TT-11)
        _stack_deal(game, Script(hands={"You": "3c 3d 3s", "Ana": "3c 3c 5c"}, upcard="3h"))
    _stack_deal(game, Script(hands={"You": "3c 3d 3s"}, upcard="3h", stock_top="8h 7s"))
    game.check_invariants()
    seat = game.current_player
    assert seat == 1 and sorted(map(str, game.hands[1])) == ["3c", "3d", "3s"]
    game.apply("draw stock", player=seat)
    assert str(game.observe(seat).drawn) == "8h"


def test_G_4_passing_an_upcard_that_completes_a_meld_is_refused() -> None:
    g = Guide("gin_three")                # captain: 3♦ 3♥ in hand, the upcard is 3♣
    assert str(g.observation().discard_pile[-1]) == "3c"
    before = snapshot(g)
    ok, feedback = g.try_move("pass")
    assert not ok and "(G-4)" in feedback and "completes the meld 3♣ 3♦ 3♥" in feedback
    # deadwood by hand: J♣ J♥ J♠ meld; 4+3+5+6+3+10+10 = 41 left; with 3♣ 3♦ 3♥ melded and K♥ out: 25
    assert "from 41 to 25 points" in feedback and snapshot(g) == before
    assert g.try_move("take upcard")[0]


def test_G_5_taking_a_discard_that_does_not_help_is_refused_and_the_stock_accepted() -> None:
    g = replay("gin_three", ["take upcard", "discard Kh"])     # the box throws T♣
    assert str(g.observation().discard_pile[-1]) == "Tc"
    ok, feedback = g.try_move("draw discard")
    assert not ok and "(G-5)" in feedback and "T♣ does not help" in feedback
    assert "not throw it back" in feedback
    assert g.try_move("draw stock")[0]


def test_BT_3_draw_choices_refused_accepted_and_both_fine() -> None:
    import rummy

    g = Guide("big_table", seed=13)       # the seed's deal: 2♦ Q♥ 9♠, Cleo's pile shows 7♥
    assert g.script is None
    assert sorted(str(a) for a in g.good_moves()) == ["draw pile 7h", "draw pool"]  # both fine
    rules = g.rules()
    hand = list(rummy.cards("2d Qh 9s"))
    take, blind = rummy.Action.parse("draw pile Kc"), rummy.Action.parse("draw pool")
    v = g._weak_draw(take, take, rummy.Card.parse("Kc"), hand, rules, keep_top=False)
    # a K for a hand of 2+10+9 = 21 helps nothing; the Big Table lets you throw it back (no TT-5)
    assert v is not None and v.rule == "BT-3" and "21 points (now 21)" in v.why
    assert "throw it back" not in v.why and "a card from the pool may" in v.why
    assert g._weak_draw(blind, take, rummy.Card.parse("Kc"), hand, rules, keep_top=False) is None


def test_big_table_is_a_chosen_deal_played_through() -> None:
    """The scripted Big Table hand: Q♠ on Cleo's pile does not help (BT-3), your own
    pile's 9♥ is never yours to take (BT-3), K♣ or Q♣ go (BT-6), Cleo's 6♥ completes
    your run (BT-4), match, then one more cycle for the others (BT-5)."""
    g = Guide("big_table")
    obs = g.observation()
    assert sorted(map(str, obs.hand)) == ["7h", "8h", "Kc"]
    assert str(obs.piles[obs.right][-1]) == "Qs" and str(obs.piles[g.learner][-1]) == "9h"
    ok, feedback = g.try_move("draw pile 9h")
    assert not ok and "BT-3" in feedback
    ok, feedback = g.try_move("draw pile Qs")
    assert not ok and "(BT-3)" in feedback and "Q♠ does not help" in feedback
    assert g.try_move("draw pool")[0]
    assert sorted(str(a) for a in g.good_moves()) == ["discard Kc", "discard Qc"]
    ok, feedback = g.try_move("discard 7h")
    assert not ok and "BT-6" in feedback and "28 points" in feedback   # 8+10+10
    assert g.try_move("discard Qc")[0]
    obs = g.observation()
    assert str(obs.piles[obs.right][-1]) == "6h"
    ok, feedback = g.try_move("draw pool")
    assert not ok and "BT-4" in feedback and "take the 6♥" in feedback
    assert g.try_move("draw pile 6h")[0]
    assert g.try_move("discard Kc")[0]
    ok, feedback = g.try_move("play on")
    assert not ok and "BT-5" in feedback
    ok, feedback = g.try_move("call match")
    assert ok and g.done and "You 0 (match)" in feedback


def test_TJ_7_a_discard_that_melds_everything_goes_out_and_is_accepted() -> None:
    """The jokers hand (scripted, 2 jokers): 7♥ K♠ + joker, the open 7♣ makes a set."""
    g = Guide("three_thirteen_jokers")
    assert g.game.jokers == 2 and "(TJ-3)" in g.situation()
    ok, feedback = g.try_move("draw stock")
    assert not ok and "take the 7♣" in feedback and "TT-6" in feedback
    assert g.try_move("draw discard")[0]
    assert [str(a) for a in g.good_moves()] == ["go out Ks"]
    ok, feedback = g.try_move("discard Jk")
    assert not ok and "(TJ-7)" in feedback and "throw K♠" in feedback
    # the engine lists only "go out Ks"; typing "discard Ks" is the same move here
    assert "discard Ks" not in map(str, g.legal())
    twin = replay("three_thirteen_jokers", ["draw discard"])
    ok, feedback = twin.try_move("discard Ks")
    assert ok and "goes out: here going out is not optional (TJ-7)" in feedback
    ok, feedback = g.try_move("go out Ks")
    assert ok and "You go out" in feedback and g.observation().round == 2
    assert twin.game.scores == g.game.scores


# --- every move rule comes up as a decision; refusals that say why; hints that teach -----------

def play_through(variant: str) -> tuple[Guide, set[str], list[str]]:
    """Play the guided hand with good moves (in its last hand preferring a knock
    with named melds, G-8a) and collect the rules of every decision met."""
    g = Guide(variant)
    seen: set[str] = set()
    played: list[str] = []
    while not g.done:
        seen.update(g.decision())
        good = g.good_moves()
        move = good[0]
        if g._hand_number() == g._start + g.hands - 1:
            move = next((a for a in good if a.melds), move)
        ok, _ = g.try_move(move)
        assert ok
        played.append(str(move))
        assert len(played) < 60
    return g, seen, played


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_move_rule_of_the_variant_comes_up_as_a_decision(variant: str) -> None:
    from rummy.guided import SHOWS
    from rummy.rulebook import MOVE_RULES

    must = set(MOVE_RULES[variant])
    assert must <= SHOWS[variant]
    g, seen, played = play_through(variant)
    assert must <= seen, sorted(must - seen)
    g.game.check_invariants()
    # an arranged guided game reloads and replays exactly
    import rummy
    assert rummy.load_game(g.game.to_json()).log == g.game.log


def test_TT_7_your_last_turn_after_someone_else_goes_out() -> None:
    g = replay("three_thirteen", ["draw stock", "discard Kc", "draw discard", "go out Qd"])
    obs = g.observation()
    assert obs.round == 2 and obs.went_out is not None and obs.went_out != g.learner
    assert g.decision()[0] == "TT-7" and "last turn" in g.situation()
    assert sorted(map(str, obs.hand)) == ["4s", "8h", "9h", "Kc"]      # as the script deals
    while not g.done:
        g.try_move(g.good_moves()[0])
    assert "You score 0" in g.feedback                                  # you completed too


def test_gin_hand_has_an_undercut_then_you_knock_and_choose_your_melds() -> None:
    g, seen, played = play_through("gin_three")
    text = " ".join(g.narration)
    assert "You undercuts Ana" in text                     # hand 1: you undercut the box (G-9)
    assert "You is in the box" in text                     # hand 2: G-11 put you in the box
    knocks = [m for m in played if m.startswith("knock") and " with " in m]
    assert knocks, played                                  # you knocked, naming your melds (G-8a)
    assert {"G-8", "G-8a"} <= seen


def test_G_8a_a_layout_that_gives_more_to_lay_off_is_refused() -> None:
    g = Guide("gin_three")
    while g._hand_number() == g._start or not any(a.melds for a in g.legal()):
        g.try_move(g.good_moves()[0])
    hand = sorted(map(str, g.observation().hand))
    assert {"3c", "3d", "3h", "4c", "4d", "4h", "5c", "5d", "5h"} <= set(hand)
    card = next(a.card for a in g.legal() if a.melds)
    runs = f"knock {card} with 3c 4c 5c, 3d 4d 5d, 3h 4h 5h"
    sets = f"knock {card} with 3c 3d 3h, 4c 4d 4h, 5c 5d 5h"
    before = snapshot(g)
    ok, feedback = g.try_move(runs)
    # runs: 2 and 6 of clubs, diamonds, hearts could go on them; sets: only 3♠ 4♠ 5♠
    assert not ok and "(G-8a)" in feedback and "leaves only 3" in feedback
    assert snapshot(g) == before
    assert g.judge(sets).accepted
    hints = g.hints()
    assert hints[1].startswith("G-8a:")


def test_G_8_a_right_lay_out_is_accepted() -> None:
    # hand 1: the box knocks with 4♦ 5♦ 6♦ and Q♦ Q♥ Q♠ (10 deadwood); you hold
    # 3♣ 4♣ 5♣, J♣ J♥ J♠, 3♦, 2♥ 3♥, 4♠: laid out as they are, 3♦ 2♥ 3♥ 4♠ = 12 (or
    # 3♣ 3♦ 3♥ and 4♣ 5♣ 2♥ 4♠ = 15); the 3♦ laid off onto 4♦ 5♦ 6♦ leaves 2 + 3 + 4 = 9
    g = replay("gin_three", ["take upcard", "discard Kh", "draw stock", "discard Ks",
                             "draw stock", "discard 6d", "draw stock", "discard 5d"])
    assert g.observation().phase == "lay off"
    assert {str(a) for a in g.legal()} == {"lay off 3d onto 4d 5d 6d"}
    assert not g.try_move("lay out")[0]
    ok, feedback = g.try_move("lay off 3d onto 4d 5d 6d")
    assert ok, feedback
    assert "= 9" in feedback and "scores 10 + 1 = 11" in feedback    # the undercut: 10 + (10 - 9)


def test_TT_6_typing_discard_for_the_card_that_goes_out_goes_out() -> None:
    g = replay("three_thirteen", ["draw stock", "discard Kc", "draw discard"])
    assert "go out Qd" in map(str, g.legal())
    ok, feedback = g.try_move("discard Q♦")
    assert ok and "so you go out with it (TT-6)" in feedback and "You go out" in feedback
    ok, feedback = g.try_move("discard 7h")     # another card: you could go out instead
    assert not ok


def test_TT_6_tre_tretton_discard_3c_goes_out() -> None:
    g = replay("tre_tretton", ["draw stock"])
    ok, feedback = g.try_move("discard 3♣")
    assert ok and "You go out" in feedback


@pytest.mark.parametrize("seed", [None, 1, 2, 3])
def test_G_4_upcard_phase_refusals_cite_G_4(seed: int | None) -> None:
    g = Guide("gin_three", seed=seed)
    assert g.observation().phase == "upcard" and g.decision() == ("G-4",)
    card = g.observation().hand[0]
    for move in ("draw stock", "draw discard", f"discard {card}", f"knock {card}"):
        ok, feedback = g.try_move(move)
        assert not ok and "(G-4)" in feedback and "G-5" not in feedback, feedback


@pytest.mark.parametrize("said", ["discard king of clubs", "discard K♣", "discard Kc",
                                  "Discard the king of Clubs"])
def test_every_card_notation_of_the_quizzes_is_read_in_moves(said: str) -> None:
    g = replay("three_thirteen", ["draw stock"])
    ok, feedback = g.try_move(said)
    assert ok and "You discard Kc" in feedback


@pytest.mark.parametrize("variant", VARIANTS)
def test_hints_come_in_three_steps_question_rule_move(variant: str) -> None:
    g = Guide(variant)
    for _ in range(3):   # at three decisions in a row
        rule = g.decision()[0]
        first, second, third = g.hint(), g.hint(), g.hint()
        assert first.endswith("?") and not RULE.search(first)
        good = [str(a) for a in g.good_moves()]
        assert not any(m in first or m in second for m in good)   # the move comes last
        assert second.startswith(f"{rule}: ")
        assert all(m in third for m in good)
        assert g.hint() == third and g.hint_step == 3
        g.try_move(g.good_moves()[0])
        assert g.hint_step == 0
        if g.done:
            break
