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


def text_boxes(svg: str) -> list[tuple[float, float, float, float, str]]:
    """Each label's box (left, top, right, bottom), from its position, anchor and font size
    (a character of a sans-serif font is at most about 0.62 of the size wide)."""
    boxes = []
    for m in re.finditer(r"<text x='([-\d.]+)' y='([-\d.]+)'(?: text-anchor='(\w+)')? font-size='(\d+)'"
                         r"[^>]*>([^<]*)</text>", svg):
        x, y, size, text = float(m.group(1)), float(m.group(2)), float(m.group(4)), m.group(5)
        width = 0.62 * size * len(text.replace("&#x27;", "'").replace("&amp;", "&"))
        left = {"middle": x - width / 2, "end": x - width}.get(m.group(3) or "start", x)
        boxes.append((left, y - size, left + width, y + 0.25 * size, text))
    return boxes


@pytest.mark.parametrize("players", [["You", "Ana", "Ben", "Cleo", "Dev", "Eve"], 2, 3, 4, 5, 8, 12])
def test_big_table_layout_labels_neither_overlap_nor_leave_the_picture(players: object) -> None:
    svg = big_table_layout_svg(players)  # type: ignore[arg-type]
    width, height = map(float, re.search(r"viewBox='0 0 ([\d.]+) ([\d.]+)'", svg).groups())
    boxes = text_boxes(svg)
    assert len(boxes) >= 4
    for i, a in enumerate(boxes):
        assert a[0] >= 0 and a[1] >= 0 and a[2] <= width and a[3] <= height, a
        for b in boxes[i + 1:]:
            apart = a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]
            assert apart, (a, b)
