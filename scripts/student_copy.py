"""Write student copies of the lessons, without worked answers, into build/student/.

A student copy carries no answer in any form:

* every cell tagged ``worked-answer`` is left out (the folded answers of the
  quizzes and exercises, and the hidden code that works them and prints
  "right!"; see ``scripts/build_lessons.py``), and the "Worked answers" heading;
* the prose no longer promises folded answers: the markdown cells that speak
  of them are tagged ``teacher-only`` (written as ``%% md teacher``) and left out;
* the quiz files (``quizzes/*.json``) keep what a page may hold of each quiz
  and exercise (:func:`rummy.teach_book.student_entry`: the question, its
  choices, the kind of answer, the general hint and the rule): no answer, no
  hash of one (salted hashes of a small space of answers are found by trying
  them all), no spellings, worked answer or hints keyed by wrong answers.
  The kit's server judges their answers with its own copy
  (``POST /rummy/api/progress/answer``); without a server there is nothing
  to check against, and the page says so.

    .venv/bin/python scripts/student_copy.py            # make student
    .venv/bin/python scripts/student_copy.py --out DIR
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path
from typing import Any

import nbformat

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
WORKED = "worked-answer"
TEACHER_ONLY = "teacher-only"


def is_worked(cell: nbformat.NotebookNode) -> bool:
    """True for a cell a student copy leaves out."""
    tags = cell.get("metadata", {}).get("tags", [])
    if WORKED in tags or TEACHER_ONLY in tags:
        return True
    return cell.cell_type == "markdown" and cell.source.lstrip().startswith("## Worked answers")


def student_copy(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """The notebook without worked answers (a new notebook; ``nb`` is unchanged)."""
    out = nbformat.from_dict(nb)
    out.cells = [c for c in out.cells if not is_worked(c)]
    return out


def sealed_entry(entry: dict[str, Any]) -> dict[str, Any]:
    """A quiz or exercise of a quiz file with its answer kept as salted hashes
    (what an older student copy held; a student copy now holds :func:`public_entry`)."""
    sys.path.insert(0, str(ROOT))
    from rummy.teach import seal
    from widgets.quiz import answer_of, unit_from

    out = {k: v for k, v in entry.items() if k not in ("answer", "right", "why")}
    out["sealed"] = seal(answer_of(entry["answer"]), digits=int(entry.get("digits", 2)),
                         unit=unit_from(entry) or None)
    return out


def public_entry(entry: dict[str, Any], part: str) -> dict[str, Any]:
    """What a student copy holds of a quiz or exercise: no answer in any form."""
    sys.path.insert(0, str(ROOT))
    from rummy.teach_book import student_entry

    return student_entry(entry, part)


def student_quizzes(data: Any) -> dict[str, Any]:
    """A quiz file (``{"quizzes": [...], "exercises": [...]}``) as a student
    copy holds it: the questions without their answers."""
    if isinstance(data, list):
        data = {"quizzes": data, "exercises": []}
    return {part: [public_entry(e, part) for e in data.get(part, [])]
            for part in ("quizzes", "exercises")}


def main(argv: list[str]) -> int:
    target = Path(argv[argv.index("--out") + 1]) if "--out" in argv else ROOT / "build" / "student"
    target.mkdir(parents=True, exist_ok=True)
    lessons = sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))
    for path in lessons:
        nb = nbformat.read(path, as_version=4)
        copy = student_copy(nb)
        nbformat.write(copy, target / path.name)
        print(f"{path.name}: {len(nb.cells) - len(copy.cells)} worked-answer cells left out")
    quizzes = sorted((NOTEBOOKS / "quizzes").glob("*.json"))
    if quizzes:
        (target / "quizzes").mkdir(exist_ok=True)
    for path in quizzes:
        data = json.loads(path.read_text(encoding="utf-8"))
        (target / "quizzes" / path.name).write_text(
            json.dumps(student_quizzes(data), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    if (NOTEBOOKS / "data").is_dir():  # results the lesson build computed once, which lessons read
        shutil.copytree(NOTEBOOKS / "data", target / "data", dirs_exist_ok=True)
    print(f"{len(lessons)} student copies and {len(quizzes)} quiz files without answers in "
          f"{target}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
