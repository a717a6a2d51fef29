"""One engine contract, checked for every variant.

In the spirit of OpenSpiel's random simulation test: every variant of
``rummy.variant_names()`` plays random games to the end, with and without a
seed, and after every move the engine's invariant check runs.  Around the
games the suite checks what every engine promises:

* saving and loading is exact (``load_game(g.to_json()).to_json() == g.to_json()``);
* an illegal move raises :class:`GameError` and leaves ``to_json()`` unchanged;
* ``undo()`` then the same move again gives the very same game;
* what a seat observes, and the errors it is shown, never depend on cards
  it may not see (every hidden card is dealt afresh and nothing changes);
* fuzzed action strings and corrupted saved games raise only
  :class:`GameError` (``VariantError`` and ``CardError`` are subclasses),
  never another exception, and never lose a card.

How much fuzzing: ``RUMMY_FUZZ`` action strings and ``RUMMY_CORRUPT``
corrupted saves per variant (defaults 1,000 and 400 keep the whole file under a minute
on a shared two-core machine).  The thorough counts run with
``RUMMY_FUZZ=100000 RUMMY_CORRUPT=10000 pytest --timeout 0 tests/test_conformance.py -k "fuzz or corrupt"``
(``--timeout 0``: one variant's 100,000 strings take 5 to 12 minutes here, far over the
suite's per-test limit of a minute).
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Callable
from typing import Any

import pytest

import rummy
from rummy import Action, GameError, find_variant, load_game, new_game
from rummy.cards import CardError, deck
from rummy.variants import VariantError

VARIANTS = rummy.variant_names()
FUZZ = int(os.environ.get("RUMMY_FUZZ", "1000"))
CORRUPT = int(os.environ.get("RUMMY_CORRUPT", "400"))


def players_for(variant: str) -> int:
    """A small table (three seats where the variant allows it)."""
    v = find_variant(variant)
    return max(v.min_players, min(3, v.max_players))


def pick(g: Any, rnd: random.Random) -> tuple[int, Any]:
    """A seat that must act and one of its legal moves, at random; going out,
    matching and knocking are taken most of the time so that games end."""
    seat = rnd.choice(g.to_act())
    acts = list(g.legal_actions(seat))
    assert acts, f"seat {seat} must act but has no legal move ({g!r})"
    ends = [a for a in acts if a.verb in ("go out", "call match", "gin", "knock")]
    if ends and rnd.random() < 0.9:
        return seat, rnd.choice(ends)
    return seat, rnd.choice(acts)


def play(g: Any, rnd: random.Random, every: Callable[[Any], None] | None = None,
         limit: int = 60_000) -> int:
    """Random moves to the end of the game, the invariant check after each."""
    g.check_invariants()
    moves = 0
    while not g.is_over:
        seat, a = pick(g, rnd)
        g.apply(a, player=seat)
        g.check_invariants()
        if every is not None:
            every(g)
        moves += 1
        assert moves < limit, "the game does not end"
    return moves


def game(variant: str, seed: int | None = 1) -> Any:
    return new_game(variant, players=players_for(variant), seed=seed)


def advance(g: Any, rnd: random.Random, moves: int) -> Any:
    for _ in range(moves):
        if g.is_over:
            break
        seat, a = pick(g, rnd)
        g.apply(a, player=seat)
    return g


# ---------------------------------------------------------------------------
# Random games to the end


@pytest.mark.parametrize("variant", VARIANTS)
def test_random_games_end_with_a_seed(variant: str) -> None:
    for seed in (1, 2):
        g = game(variant, seed)
        moves = play(g, random.Random(seed))
        assert g.is_over and g.to_act() == [] and moves > 0
        assert g.phase == "over"
        summary = g.summary()
        assert [row["score"] for row in summary] == list(g.scores)
        assert sum(row["won"] for row in summary) <= 1
        # the end is saved and loaded exactly too
        assert load_game(g.to_json()).to_json() == g.to_json()


@pytest.mark.parametrize("variant", VARIANTS)
def test_random_games_end_without_a_seed(variant: str) -> None:
    """A game started without a seed chooses one and saves it (``seed = None``
    kept would make loading and undo deal another game)."""
    g = game(variant, seed=None)
    assert isinstance(g.seed, int) and not isinstance(g.seed, bool)
    assert json.loads(g.to_json())["seed"] == g.seed
    rnd = random.Random(7)
    advance(g, rnd, 40)
    assert load_game(g.to_json()).to_json() == g.to_json()
    before = g.to_json()
    seat, a = pick(g, rnd)
    g.apply(a, player=seat)
    g.undo()
    assert g.to_json() == before
    play(g, rnd)
    assert g.is_over
    assert load_game(g.to_json()).to_json() == g.to_json()


# ---------------------------------------------------------------------------
# Save/load, illegal moves, undo


def _checkpoints(variant: str, seed: int, every: int) -> list[Any]:
    """Snapshots of one random game every ``every`` moves (as loaded copies)."""
    g = game(variant, seed)
    rnd = random.Random(seed)
    out = []
    moves = 0
    while not g.is_over and len(out) < 12:
        seat, a = pick(g, rnd)
        g.apply(a, player=seat)
        moves += 1
        if moves % every == 0:
            out.append(g.to_json())
    return [load_game(s) for s in out]


@pytest.mark.parametrize("variant", VARIANTS)
def test_observations_are_those_of_the_game_rebuilt_from_its_moves(variant: str) -> None:
    # what an engine keeps between observations (parts of the round that
    # change seldom) is never stale: after every move, each seat sees what
    # a game replayed from the same moves (which kept nothing) shows it.
    # Each seat observes before every move, so that what is kept is used
    # (every move of the first 100, then each new round or hand and the end)
    g = game(variant, 5)
    rnd = random.Random(5)
    moves = 0
    while not g.is_over:  # to the end: the last round's scores too
        for p in range(len(g.players)):
            g.observe(p)
        number = g.observe(0).number
        seat, a = pick(g, rnd)
        g.apply(a, player=seat)
        moves += 1
        if moves <= 100 or g.is_over or g.observe(0).number != number:
            fresh = load_game(g.to_json())
            for p in range(len(g.players)):
                assert g.observe(p) == fresh.observe(p), (moves, p, str(a))


@pytest.mark.parametrize("variant", VARIANTS)
def test_save_load_round_trip_is_exact(variant: str) -> None:
    for g in _checkpoints(variant, 3, 37):
        saved = g.to_json()
        h = load_game(saved)
        assert h.to_json() == saved
        assert h.log == g.log
        for p in range(len(g.players)):
            assert h.observe(p) == g.observe(p)
        assert load_game(json.loads(saved)).to_json() == saved  # a dict loads too


def _illegal_moves(g: Any, seat: int) -> list[str]:
    """Moves that ``seat`` may not make now: every verb with cards it does
    not hold or may not use, and verbs of the other families."""
    legal = {str(a) for a in g.legal_actions(seat)}
    legal |= {a.verb for a in g.legal_actions(seat)}  # "draw pile" means "draw pile 9c"
    obs = g.observe(seat)
    mine = set(obs.hand)
    out = []
    for c in deck(1, 0)[::5]:
        for verb in ("discard", "go out", "knock", "gin"):
            text = f"{verb} {c}"
            if text not in legal and c not in mine:
                out.append(text)
    for text in ("draw stock", "draw discard", "draw pool", "draw pile", "take upcard", "pass",
                 "call match", "play on", "lay out", "lay off 5h onto 6h 7h 8h", "fold",
                 "discard", "discard Jk", "go out 1z"):
        if text not in legal:
            out.append(text)
    return out


@pytest.mark.parametrize("variant", VARIANTS)
def test_illegal_move_raises_GameError_and_changes_nothing(variant: str) -> None:
    rnd = random.Random(11)
    for g in _checkpoints(variant, 5, 29)[:6]:
        before = g.to_json()
        views = [g.observe(p) for p in range(len(g.players))]
        for seat in range(len(g.players)):
            for text in rnd.sample(_illegal_moves(g, seat), 12):
                with pytest.raises(GameError) as err:
                    g.apply(text, player=seat)
                assert str(err.value), "an error says what was wrong"
                assert g.to_json() == before, f"{text!r} by seat {seat} changed the game"
        assert [g.observe(p) for p in range(len(g.players))] == views
        g.check_invariants()


@pytest.mark.parametrize("variant", VARIANTS)
def test_an_illegal_move_given_as_an_Action_says_what_its_text_says(variant: str) -> None:
    # Engine.apply hands the move, as given, to the family's check; its
    # message is written only for an illegal move, and must read the same
    # whether the player gave text or an Action
    rnd = random.Random(12)
    told = 0
    for g in _checkpoints(variant, 5, 29)[:4]:
        for seat in range(len(g.players)):
            for text in rnd.sample(_illegal_moves(g, seat), 6):
                try:
                    action = Action.parse(text)
                    g._parse(text)  # (a family may check text further as it reads it)
                except GameError:
                    continue  # refused as it is read, before the move is checked
                with pytest.raises(GameError) as as_text:
                    g.apply(str(action), player=seat)
                with pytest.raises(GameError) as as_action:
                    g.apply(action, player=seat)
                assert str(as_action.value) == str(as_text.value)
                told += 1
    assert told >= 20

@pytest.mark.parametrize("variant", VARIANTS)
def test_undo_then_the_same_move_is_exact(variant: str) -> None:
    g = game(variant, 9)
    rnd = random.Random(9)
    for _ in range(10):
        advance(g, rnd, rnd.randrange(1, 40))
        if g.is_over:
            break
        before = g.to_json()
        views = [g.observe(p) for p in range(len(g.players))]
        seat, a = pick(g, rnd)
        g.apply(a, player=seat)
        after = g.to_json()
        g.undo()
        assert g.to_json() == before
        assert [g.observe(p) for p in range(len(g.players))] == views
        g.check_invariants()
        g.apply(a, player=seat)
        assert g.to_json() == after


# ---------------------------------------------------------------------------
# Hidden information: re-deal every card a seat may not see


def _swap(g: Any, seat: int, rnd: random.Random) -> Any:
    """A copy of ``g`` in which every card ``seat`` can't know (the stock and
    the other seats' hidden cards) is dealt afresh (the engine's
    ``redeal_hidden``: each family says what a seat can't know)."""
    h = g.redeal_hidden(seat, rnd)
    assert h is not g
    h.check_invariants()
    return h


def _errors(g: Any, seat: int) -> list[str]:
    """What ``seat`` is told for a battery of moves (nothing changes: each
    raises, or is undone at once)."""
    out = []
    for text in _illegal_moves(g, seat)[::3] + ["call match", "draw stock", "discard 9c"]:
        try:
            g.apply(text, player=seat)
        except GameError as e:
            out.append(str(e))
        else:
            g.undo()
            out.append("ok")
    return out


@pytest.mark.parametrize("variant", VARIANTS)
def test_observe_and_errors_never_depend_on_hidden_cards(variant: str) -> None:
    g = game(variant, 13)
    rnd = random.Random(13)
    checked = 0
    while not g.is_over and checked < 40:
        advance(g, rnd, rnd.randrange(1, 25))
        for p in range(len(g.players)):
            h = _swap(g, p, rnd)
            assert h.observe(p) == g.observe(p), f"seat {p} sees a hidden card"
            if checked % 4 == 0:
                assert _errors(h, p) == _errors(g, p), f"an error to seat {p} tells a hidden card"
        checked += 1
    assert checked >= 10


def test_a_refused_match_call_does_not_tell_who_is_complete() -> None:
    """A refused match call does not name the seat whose hand is complete."""
    told = []
    for complete in (0, 2):
        g = new_game("big_table", players=["Ana", "Ben", "Cleo"], seed=1)
        hands = ["Kc Qd 2s", "Kh Qs 2d", "9h 4c Jd"]
        hands[complete] = "5h 6h 7h"
        g.arrange(hands, ["9c", "4d", "8s"])
        assert g.to_act() == [complete]
        with pytest.raises(GameError) as err:
            g.apply("call match", player=1)
        told.append(str(err.value))
        assert "Ana" not in told[-1] and "Cleo" not in told[-1]
    assert told[0] == told[1]


# ---------------------------------------------------------------------------
# Fuzzing: only GameError, and no card lost

_VERBS = ("draw stock", "draw discard", "draw pool", "draw pile", "discard", "go out", "knock",
          "gin", "lay off", "lay out", "take upcard", "pass", "call match", "play on", "draw",
          "DISCARD", "Go  Out", "undo", "", "onto", "with", "knock with")
_CARD_TEXT = [str(c) for c in deck(1, 0)] + ["Jk", "10h", "1h", "Zz", "h", "Q", "AS", "🃏", "♥"]


def _fuzz_text(rnd: random.Random) -> Any:
    r = rnd.random()
    if r < 0.03:
        return rnd.choice([None, 5, 1.5, b"discard 9c", ["discard", "9c"], {"verb": "pass"}])
    if r < 0.08:
        return "".join(chr(rnd.randrange(32, 0x2600)) for _ in range(rnd.randrange(0, 12)))
    words = [rnd.choice(_VERBS)]
    for _ in range(rnd.choice((0, 1, 1, 1, 2))):
        words.append(rnd.choice(_CARD_TEXT))
    if rnd.random() < 0.2:
        words.append(rnd.choice(("onto", "with", ",", "onto onto")))
        words.extend(rnd.choice(_CARD_TEXT) for _ in range(rnd.randrange(0, 5)))
    return " ".join(words)


def _fuzz_player(rnd: random.Random, g: Any) -> Any:
    r = rnd.random()
    if r < 0.6:
        return rnd.choice(g.to_act()) if g.to_act() else None
    if r < 0.85:
        return rnd.randrange(len(g.players))
    return rnd.choice([None, -1, len(g.players), 99, "nobody", g.players[0], 1.5, True, "0"])


def _fuzz_actions(variant: str, count: int) -> None:
    g = game(variant, 17)
    rnd = random.Random(17)
    legal_hits = 0
    for i in range(count):
        if g.is_over:
            g = game(variant, 17 + i)
        if i % 50 == 0:  # move on now and then, so that every phase is fuzzed
            advance(g, rnd, rnd.randrange(1, 8))
            if g.is_over:
                continue
        before = g.to_json()
        try:
            g.apply(_fuzz_text(rnd), player=_fuzz_player(rnd, g))
        except GameError:
            assert g.to_json() == before
        else:
            legal_hits += 1
        g.check_invariants()
    assert legal_hits < count


@pytest.mark.parametrize("variant", VARIANTS)
def test_fuzzed_action_strings_raise_only_GameError(variant: str) -> None:
    _fuzz_actions(variant, FUZZ)


def _junk(rnd: random.Random) -> Any:
    return rnd.choice([None, 0, -1, 1.5, True, "", "x", "Ana", [], {}, [[0]], [0, "draw stock"],
                       10**30, {"a": 1}, [None], "discard 9c", [[0, "discard Zz"]], 2, 12])


def _corrupt(saved: str, rnd: random.Random) -> Any:
    r = rnd.random()
    if r < 0.1:  # a cut or garbled file
        cut = rnd.randrange(len(saved))
        return saved[:cut] + ("" if rnd.random() < 0.5 else rnd.choice("{}[]\",:x0"))
    obj = json.loads(saved)
    keys = list(obj)
    if r < 0.25:
        del obj[rnd.choice(keys)]
    elif r < 0.45:
        obj[rnd.choice(keys)] = _junk(rnd)
    elif r < 0.8 and obj["actions"]:
        acts = obj["actions"]
        i = rnd.randrange(len(acts))
        what = rnd.randrange(7)
        if what == 0:
            acts[i][0] = _junk(rnd)
        elif what == 1:
            acts[i][1] = _fuzz_text(rnd)
        elif what == 2:
            acts[i] = _junk(rnd)
        elif what == 3:
            j = rnd.randrange(len(acts))
            acts[i], acts[j] = acts[j], acts[i]
        elif what == 4:
            del acts[i]
        elif what == 5:
            acts.insert(i, list(acts[i]))
        else:
            acts[i][0] = (acts[i][0] + 1) if isinstance(acts[i][0], int) else 0
    elif r < 0.9:
        obj["options"] = rnd.choice([{"aces": "high"}, {"jokers": 3}, {"bogus": 1}, {"jokers": True},
                                     {"target": 5}, {"max_players": 16}, [], None, {"packs": 0}])
    else:
        obj["players"] = rnd.choice([1, 0, 13, 99, -3, ["A", "A", "B"], ["A"], "ABC", [1, 2, 3],
                                     None, 2.5])
    # (a fuzzed action may be bytes or another non-JSON value: saved as its repr)
    return json.dumps(obj, default=repr) if rnd.random() < 0.8 else obj


def _corrupt_saves(variant: str, count: int) -> None:
    rnd = random.Random(23)
    saves = [g.to_json() for g in _checkpoints(variant, 23, 13)[:6]]
    loaded = 0
    for _ in range(count):
        bad = _corrupt(rnd.choice(saves), rnd)
        try:
            g = load_game(bad)
        except GameError as e:
            assert str(e)
        else:
            loaded += 1
            g.check_invariants()  # whatever loads is a whole game
    assert loaded < count


@pytest.mark.parametrize("variant", VARIANTS)
def test_corrupted_saved_games_raise_only_GameError(variant: str) -> None:
    _corrupt_saves(variant, CORRUPT)


def test_errors_of_cards_and_variants_are_game_errors() -> None:
    assert issubclass(VariantError, GameError) and issubclass(CardError, GameError)
    with pytest.raises(GameError):
        load_game("{not json")
    with pytest.raises(GameError):
        new_game("canasta")


def test_rummy_simulate_stays_the_function_after_importing_the_submodule() -> None:
    """In a fresh interpreter, ``rummy.simulate`` stays the (lazily imported)
    function after ``import rummy.simulate``, not the submodule of that name."""
    import subprocess
    import sys
    from pathlib import Path

    code = ("import rummy; f = rummy.simulate; import rummy.simulate; "
            "from rummy.simulate import simulate; "
            "assert callable(rummy.simulate) and rummy.simulate is f is simulate, rummy.simulate")
    root = str(Path(__file__).resolve().parent.parent)
    env = dict(os.environ, PYTHONPATH=root + os.pathsep + os.environ.get("PYTHONPATH", ""))
    done = subprocess.run([sys.executable, "-c", code], cwd=root, env=env, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr


def test_three_thirteen_seats_up_to_twelve_with_the_packs_of_TT_11() -> None:
    """9 to 12 players are seated, with the packs they need.  12 players need
    12 x 13 + 1 + 12 = 169 cards in round 11: 4 packs (208)."""
    g = new_game("three_thirteen", players=12, seed=4)
    assert g.packs == 4 and len(g.players) == 12
    play(g, random.Random(4))
    with pytest.raises(VariantError):
        new_game("three_thirteen", players=13, seed=4)


def test_a_named_knock_saves_and_loads_exactly() -> None:
    """G-8a: a knock that names its arrangement replays from the saved text."""
    rnd = random.Random(5)
    for seed in range(40):
        g = new_game("gin_three", seed=seed)
        while not g.is_over and not g.knock_options():
            seat, a = pick(g, rnd)
            if a.verb in ("knock", "gin"):
                a = g.legal_actions()[0]
            g.apply(a, player=seat)
        if g.is_over:
            continue
        option = g.knock_options()[-1]
        g.apply(option.action)
        assert str(g.history[-1][1]) == str(option.action)
        assert load_game(g.to_json()).to_json() == g.to_json()
        return
    pytest.fail("no knock came up in 40 games")


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_engine_speaks_the_same_names(variant: str) -> None:
    """The shared vocabulary: ``number``, ``winners()`` and
    ``winner``, ``undo(player=...)`` by seat or name, ``legal_actions`` as a
    tuple in observations, ``phase == "over"`` and ``is_over`` at the end."""
    g = game(variant, 21)
    rnd = random.Random(21)
    assert g.number == 1 and g.winners() == [] and g.winner is None
    obs = g.observe(g.to_act()[0])
    assert obs.number == 1 and isinstance(obs.legal_actions, tuple) and not obs.is_over
    advance(g, rnd, 30)
    seat = g.history[-1][0]
    moves = sum(s == seat for s, _ in g.history)
    g.undo(player=g.players[seat])               # by name: that seat's last move goes
    assert sum(s == seat for s, _ in g.history) == moves - 1
    play(g, rnd)
    end = g.observe(0)
    assert end.phase == "over" and end.is_over and end.legal_actions == ()
    assert g.winners() == ([g.winner] if g.winner is not None else [])
    assert [row["won"] for row in g.summary()] == [s in g.winners() for s in range(len(g.players))]


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_bad_player_count_is_a_VariantError_everywhere(variant: str) -> None:
    v = find_variant(variant)
    # 10**30 players once built 10**30 names before the count was checked (found by fuzzing)
    for count in (v.min_players - 1, 13 if v.max_players < 13 else 25, 10**30):
        with pytest.raises(VariantError, match=f"{v.name} is for"):
            new_game(variant, players=count, seed=1)


@pytest.mark.parametrize("variant", VARIANTS)
def test_observations_are_frozen_values(variant: str) -> None:
    # every family's observation is made by rummy.engine.frozen_of, from a
    # value for each field and nothing else (not through __init__): equal
    # to the same value made by __init__ from its fields, and still frozen
    import dataclasses

    g = rummy.new_game(variant, seed=3)
    for _ in range(6):
        seat = g.to_act()[0]
        obs = g.observe(seat)
        cls = type(obs)
        fields = dataclasses.fields(obs)
        assert list(vars(obs)) == [f.name for f in fields]  # every field, in order
        again = cls(**{f.name: getattr(obs, f.name) for f in fields})
        assert again == obs and dataclasses.replace(obs) == obs
        with pytest.raises(dataclasses.FrozenInstanceError):
            obs.player = 9  # type: ignore[misc]
        g.apply(obs.legal_actions[0], player=seat)
