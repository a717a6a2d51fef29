"""The lessons (notebooks/NN_*.ipynb): every rule id is taught, notebooks are small.

Running the notebooks themselves is nbval's job (``make test`` runs
``pytest --nbval-lax --nbval-current-env notebooks``).  These tests check what
nbval doesn't:

* every rule id of RULES.md is mentioned by some lesson (the ids are read
  from RULES.md at test time: ``../shared/RULES.md`` next to the checkout, or
  the copy committed at ``docs/RULES.md``);
* each lesson is small (< 1.5 MB), carries no saved widget state, and is
  committed *executed*: every code cell ran, in order, in one fresh kernel
  (execution counts 1, 2, 3, ...), with no error output.  The lessons are
  built that way by ``scripts/build_lessons.py``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
LESSONS = sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))
EXPECTED_LESSONS = [
    "00_start_here", "01_three_thirteen", "02_tre_tretton", "03_three_thirteen_jokers",
    "04_big_table", "05_gin_three", "06_meld_odds", "07_bots_and_strategy",
]
MAX_BYTES = 1_500_000
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"

#: A rule line of RULES.md: "- TT-7 After a player goes out ..." (ids like C-1, M-4a, G-13).
RULE_LINE = re.compile(r"^- ([A-Z]{1,2}-\d+[a-z]?)\s", re.MULTILINE)


def rules_path() -> Path:
    """RULES.md next to the checkout, else the committed copy docs/RULES.md."""
    shared = ROOT.parent / "shared" / "RULES.md"
    return shared if shared.exists() else ROOT / "docs" / "RULES.md"


def rule_ids(text: str) -> list[str]:
    """The rule ids defined in RULES.md text, in order, without repeats.

    >>> rule_ids("- C-1 Ranks ...\\n- M-4a A card ...\\n  - not-a-rule\\n- G-13 Hands ...")
    ['C-1', 'M-4a', 'G-13']
    """
    return list(dict.fromkeys(RULE_LINE.findall(text)))


def mentions(rule_id: str, text: str) -> bool:
    """True if ``text`` cites ``rule_id`` as a whole id (TT-1 is not TT-12, M-4 not M-4a).

    >>> mentions("TT-1", "see TT-12"), mentions("TT-1", "(TT-1)"), mentions("M-4", "M-4a")
    (False, True, False)
    >>> mentions("M-4", "M-4, M-5"), mentions("G-1", "G-1...G-13")
    (True, True)
    """
    return re.search(rf"(?<![\w-]){re.escape(rule_id)}(?![0-9a-z])", text) is not None


def notebook_text(path: Path) -> str:
    """All markdown and code of a notebook (what a reader sees, not outputs)."""
    nb = json.loads(path.read_text(encoding="utf-8"))
    return "\n".join("".join(cell["source"]) for cell in nb["cells"])


def unmentioned(ids: list[str], texts: list[str]) -> list[str]:
    """The ids that no text mentions."""
    return [i for i in ids if not any(mentions(i, t) for t in texts)]


def test_rules_file_is_found_and_parsed() -> None:
    ids = rule_ids(rules_path().read_text(encoding="utf-8"))
    # RULES.md has C-1..C-4, M-1..M-7 with M-4a, TT-1..TT-12, TS, TR, TJ-1..TJ-7, BT and
    # G-1..G-13 with G-8a (the shared copy; the committed docs/RULES.md may lag by TJ-7, G-8a)
    assert {"C-1", "M-4a", "TT-12", "TS-2", "TR-3", "TJ-6", "BT-8", "G-13"} <= set(ids)
    assert len(ids) in (4 + 8 + 12 + 2 + 3 + 6 + 8 + 13, 4 + 8 + 12 + 2 + 3 + 7 + 8 + 14)


def test_committed_rules_copy_matches_shared_rules() -> None:
    shared = ROOT.parent / "shared" / "RULES.md"
    if not shared.exists():
        pytest.skip("no ../shared/RULES.md next to this checkout; docs/RULES.md is the source")
    copy = ROOT / "docs" / "RULES.md"
    assert rule_ids(copy.read_text(encoding="utf-8")) == rule_ids(shared.read_text(encoding="utf-8"))


def test_every_lesson_exists() -> None:
    assert [p.stem for p in LESSONS] == EXPECTED_LESSONS


def test_every_rule_id_is_demonstrated_in_some_lesson() -> None:
    ids = rule_ids(rules_path().read_text(encoding="utf-8"))
    missing = unmentioned(ids, [notebook_text(p) for p in LESSONS])
    assert not missing, "rule ids no lesson mentions: " + ", ".join(missing)


def test_the_coverage_check_can_fail() -> None:
    # A lesson set that forgets TT-7 (but mentions TT-70 and TT-7a) is caught.
    assert unmentioned(["TT-6", "TT-7"], ["TT-6 and TT-70, TT-7a"]) == ["TT-7"]


@pytest.mark.parametrize("path", LESSONS, ids=[p.stem for p in LESSONS])
def test_lesson_is_small_and_has_no_widget_state(path: Path) -> None:
    raw = path.read_text(encoding="utf-8")
    assert len(raw.encode()) < MAX_BYTES
    nb = json.loads(raw)
    assert "widgets" not in nb["metadata"]
    assert WIDGET_STATE not in raw
    for cell in nb["cells"]:
        for out in cell.get("outputs", []):
            assert WIDGET_VIEW not in out.get("data", {}), "a widget view output was kept"


@pytest.mark.parametrize("path", LESSONS, ids=[p.stem for p in LESSONS])
def test_lesson_is_committed_executed_top_to_bottom(path: Path) -> None:
    nb = json.loads(path.read_text(encoding="utf-8"))
    code = [c for c in nb["cells"] if c["cell_type"] == "code"]
    assert code, "a lesson without code"
    assert [c["execution_count"] for c in code] == list(range(1, len(code) + 1))
    errors = [o for c in code for o in c["outputs"] if o["output_type"] == "error"]
    assert not errors, f"{len(errors)} cell(s) raised: {errors[0].get('ename')}"


@pytest.mark.parametrize("path", LESSONS, ids=[p.stem for p in LESSONS])
def test_lesson_has_at_least_as_much_prose_as_code(path: Path) -> None:
    nb = json.loads(path.read_text(encoding="utf-8"))
    prose = sum(len("".join(c["source"])) for c in nb["cells"] if c["cell_type"] == "markdown")
    code = sum(len("".join(c["source"])) for c in nb["cells"] if c["cell_type"] == "code")
    assert prose >= code


@pytest.mark.parametrize("path", LESSONS, ids=[p.stem for p in LESSONS])
def test_lesson_has_self_checking_exercises(path: Path) -> None:
    text = notebook_text(path)
    # the exercises are checked by the kit's one checker (rummy.teach), not a check of their own
    assert "check = exercise_book(" in text and "check(1," in text and "def check(" not in text


def test_notebook_kernels_keep_their_data_out_of_the_users_folder(tmp_path: Path) -> None:
    """The nbval plugin gives the kernels a fresh ``$RUMMY_DATA`` (a lesson's last cell
    opens the learner's progress), unless the run names one."""
    import os
    import subprocess
    import sys

    code = "import os, tests.nbval_kernels; print(os.environ['RUMMY_DATA'])"
    env = {k: v for k, v in os.environ.items() if k not in ("RUMMY_DATA", "XDG_DATA_HOME")}
    env["HOME"] = str(tmp_path / "home")
    out = subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout.strip()
    assert "rummy-nbval-" in out and not out.startswith(env["HOME"])
    env["RUMMY_DATA"] = str(tmp_path / "mine")
    out = subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout.strip()
    assert out == str(tmp_path / "mine")
