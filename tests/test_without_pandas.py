"""The engine and the tables without pandas or matplotlib, as on the static site (Pyodide).

No Pyodide build of pandas, numpy or matplotlib can be had for the site, so every table,
guided hand, quiz, drill and odds figure must work without them: the score sheet falls
back to an HTML table, the odds plot to an SVG the kit draws, and the outs table is made
without pandas.  Each test blocks the imports (``sys.modules[name] = None`` makes
``import name`` fail) and plays through the widget; the expected figures are counted by
hand from the deal or the scores.
"""

from __future__ import annotations

import re
import sys

import pytest

BLOCKED = ("pandas", "numpy", "matplotlib", "matplotlib.figure", "matplotlib.pyplot")


@pytest.fixture()
def no_pandas(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in BLOCKED:
        monkeypatch.setitem(sys.modules, name, None)
    with pytest.raises(ImportError):
        import pandas  # noqa: F401


def test_score_rows_need_no_pandas(no_pandas: None) -> None:
    from rummy import new_game

    g = new_game("three_thirteen", players=["Ana", "Ben"], seed=1)
    assert g.score_rows() == [("Total", [0, 0])]


def test_score_sheet_falls_back_to_an_html_table(no_pandas: None) -> None:
    from rummy import new_game
    from widgets import ScoreSheet

    g = new_game("three_thirteen", players=["Ana", "Ben"], seed=1)
    g.round_scores.append([5, 12])  # as if round 1 were scored: Ana 5, Ben 12
    g.scores[:] = [5, 12]
    sheet = ScoreSheet(g)
    html = sheet.table.value
    assert "No game yet" not in html and "rummy-score-table" in html
    cells = re.findall(r"<t[hd][^>]*>([^<]*)</t[hd]>", html)
    assert cells == ["Round", "Ana", "Ben", "Round 1", "5", "12", "Total", "5", "12"], cells
    assert sheet.message.value == ""


def test_odds_explorer_draws_its_plot_and_table_without_pandas(no_pandas: None) -> None:
    from widgets import OddsExplorer

    # round 1 (threes wild), 7h 8h Kc: outs 6h 9h and the four threes, 6 of 49 unseen
    o = OddsExplorer(round=1, hand="7h 8h Kc", draws=2, players=2)
    assert o.message.value == "", o.message.value
    assert "6 outs among 49 unseen cards" in o.fraction.value
    assert o.plot.value.startswith("<svg") and "<polyline" in o.plot.value
    assert "<title>" in o.plot.value  # the plot says what it shows
    table = o.table.value
    assert "rummy-outs-table" in table and "<th>partial meld</th>" in table
    rows = re.findall(r"<tr>(.*?)</tr>", table, re.S)[1:]
    assert len(rows) == 3 and all("<td>yes</td>" in r for r in rows)


def test_outs_need_no_pandas(no_pandas: None) -> None:
    from rummy.probability import outs

    o = outs("7h 8h Kc", round=1, players=2)
    assert (o.count, o.completing, o.unseen) == (6, 6, 49)
    assert [(m, cards, n) for m, cards, n, _ in o.melds()] == [
        ("7h 8h + wild", "3c 3d 3h 3s", 4), ("6h 7h 8h", "6h", 1), ("7h 8h 9h", "9h", 1)]
    assert "6 outs among 49 unseen cards" in str(o)


def test_tables_play_without_pandas(no_pandas: None) -> None:
    from widgets import ThreeThirteenTable

    t = ThreeThirteenTable("three_thirteen", players=2, seed=1, speed=0)
    t.scores.show()
    assert "No game yet" not in t.scores.table.value
    assert "<table" in t.scores.table.value and t.scores.message.value == ""


def test_a_missing_package_shows_a_message_that_names_it() -> None:
    from widgets.view import View, friendly_error, safe

    class Pane(View):
        @safe
        def draw(self) -> None:
            import pandas  # noqa: F401

    said = friendly_error(ModuleNotFoundError("No module named 'pandas'", name="pandas"))
    assert "pandas" in said and "make lab" in said and "No module named" not in said, said
    import sys

    saved = sys.modules.get("pandas")
    sys.modules["pandas"] = None  # type: ignore[assignment]
    try:
        pane = Pane()
        pane.draw()
    finally:
        if saved is None:
            del sys.modules["pandas"]
        else:
            sys.modules["pandas"] = saved
    assert "pandas" in pane.message.value and "role='alert'" in pane.message.value
