"""Write student copies of the lessons, without worked answers, into build/student/.

Drops every cell tagged ``worked-answer`` (the folded answers of the quizzes
and exercises, and the hidden code that works them; see
``scripts/build_lessons.py``) and the "Worked answers" heading; keeps the
quizzes, which check answers without showing them, and their answer files
(``quizzes/*.json``), which the quizzes read.

    .venv/bin/python scripts/student_copy.py            # make student
    .venv/bin/python scripts/student_copy.py --out DIR
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
WORKED = "worked-answer"


def is_worked(cell: nbformat.NotebookNode) -> bool:
    """True for a cell a student copy leaves out."""
    if WORKED in cell.get("metadata", {}).get("tags", []):
        return True
    return cell.cell_type == "markdown" and cell.source.lstrip().startswith("## Worked answers")


def student_copy(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """The notebook without worked answers (a new notebook; ``nb`` is unchanged)."""
    out = nbformat.from_dict(nb)
    out.cells = [c for c in out.cells if not is_worked(c)]
    return out


def main(argv: list[str]) -> int:
    target = Path(argv[argv.index("--out") + 1]) if "--out" in argv else ROOT / "build" / "student"
    target.mkdir(parents=True, exist_ok=True)
    lessons = sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))
    for path in lessons:
        nb = nbformat.read(path, as_version=4)
        copy = student_copy(nb)
        nbformat.write(copy, target / path.name)
        print(f"{path.name}: {len(nb.cells) - len(copy.cells)} worked-answer cells left out")
    if (NOTEBOOKS / "quizzes").is_dir():
        shutil.copytree(NOTEBOOKS / "quizzes", target / "quizzes", dirs_exist_ok=True)
    print(f"{len(lessons)} student copies in {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
