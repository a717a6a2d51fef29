"""The coach's "show my chances": the chance of going out within n draws."""

from __future__ import annotations

import rummy
from rummy.bots import make_bot
from rummy.probability import going_out_chance
from widgets.coach import going_out_chances, seen_cards


def position(variant: str, moves: int = 5, **kw):
    g = rummy.new_game(variant, seed=3, **kw)
    bot = make_bot("greedy")
    for _ in range(moves):
        p = g.to_act()[0]
        g.apply(bot.choose(g.observe(p)), player=p)
    return g


def test_coach_line_is_the_engine_figure() -> None:
    g = position("big_table", players=4)
    seat = g.to_act()[0]
    obs = g.observe(seat)
    text = going_out_chances(obs)
    one = going_out_chance(obs.hand, "big_table", obs.hand_number, draws=1, players=4,
                           seen=tuple(seen_cards(obs)), packs=obs.packs)
    assert f"on your next draw {one.probability} " in text and "(exact)" in text
    assert "within 3 draws" in text and "95% interval" in text


def test_gin_asks_about_knocking() -> None:
    g = position("gin_three")
    obs = g.observe(g.to_act()[0])
    assert going_out_chances(obs).startswith("Chance of being able to knock")
