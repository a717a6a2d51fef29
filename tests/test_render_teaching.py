"""The teaching pictures of rummy.render: the Big Table's layout and Gin's roles."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from rummy.render import big_table_layout_svg, gin_roles_svg


@pytest.mark.parametrize("n", [2, 3, 4, 6, 12])
def test_big_table_layout_is_valid_svg_with_one_pile_and_one_arrow_per_player(n: int) -> None:
    svg = big_table_layout_svg(n)
    ET.fromstring(svg)  # well-formed
    assert svg.count("class='rummy-layout-pile'") == n
    assert svg.count("marker-end") == n
    assert "BT-3" in svg and "your own pile" in svg


def test_each_arrow_points_at_the_right_hand_neighbours_pile() -> None:
    # seat i takes from seat i-1 (the engine: seat 0 takes from the last seat's pile)
    svg = big_table_layout_svg(["You", "Ana", "Ben", "Cleo"])
    piles = [tuple(map(float, m)) for m in
             re.findall(r"class='rummy-layout-pile' x='([-\d.]+)' y='([-\d.]+)'", svg)]
    arrows = [tuple(map(float, m)) for m in
              re.findall(r"<line x1='([-\d.]+)' y1='([-\d.]+)' x2='([-\d.]+)' y2='([-\d.]+)'", svg)]
    centres = [(x + 9, y + 12) for x, y in piles]
    for seat, (_x1, _y1, x2, y2) in enumerate(arrows):
        nearest = min(range(4), key=lambda i: (centres[i][0] - x2) ** 2 + (centres[i][1] - y2) ** 2)
        assert nearest == (seat - 1) % 4


def test_names_are_escaped_and_counts_checked() -> None:
    assert "&lt;b&gt;" in big_table_layout_svg(["<b>", "Ana"])
    with pytest.raises(ValueError, match="2 to 12"):
        big_table_layout_svg(13)


def test_gin_roles_rotation() -> None:
    svg = gin_roles_svg("Cleo", "Ben", "Ana")
    ET.fromstring(svg)
    # G-11: box wins -> Cleo box, Ana captain, Ben advisor; box loses -> Ben box, Ana captain, Cleo advisor
    assert re.findall(r">(\w+): (box|captain|advisor)<", svg) == [
        ("Cleo", "box"), ("Ana", "captain"), ("Ben", "advisor"),
        ("Cleo", "box"), ("Ben", "captain"), ("Ana", "advisor"),
        ("Ben", "box"), ("Ana", "captain"), ("Cleo", "advisor")]
    with pytest.raises(ValueError, match="three different players"):
        gin_roles_svg("Ana", "Ana", "Ben")
