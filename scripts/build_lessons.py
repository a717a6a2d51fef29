"""Build the lesson notebooks (notebooks/NN_*.ipynb) from their sources.

Each lesson is written as plain text in ``scripts/lessons/NN_name.txt``:
cells start with a line ``%% md`` (markdown) or ``%% code``; ``%% code
hidden`` makes a code cell whose source *and output* are collapsed in
JupyterLab (worked answers: their output says "right!").

Worked answers fold away: ``%% md answer`` makes a markdown cell wrapped in an
HTML ``<details>`` element (closed until clicked); it and every ``%% code
hidden`` cell carry the cell tag ``worked-answer``, which
``scripts/student_copy.py`` drops.  ``%% md teacher`` is prose about those
folded answers (tag ``teacher-only``), which the student copy drops too.

One source, two faces.  The notebook is the JupyterLab face (code shown, run
and changed); Voilà's "rummy" template draws the same notebook as a lesson
page: prose, pictures and widgets, no code and no bare output (a value's
``repr`` or printed text), no worked-answer code and no teacher notes.  So
``%% md lab`` / ``%% code lab`` are cells for the JupyterLab face only (how
to run and change code; tag ``lab-only``, left out of the page) and ``%% md
page`` is prose for the page only (tag ``page-only``, folded in JupyterLab).
A code cell asking for an exercise's answer (``check(2, None)``, or
``answer_2 = None`` then ``check(2, answer_2)``) becomes lab-only, after a
cell ``exercise(2)``: the exercise as an answer box, judged by the same
checker, in both faces.

A quiz is a block ``%% quiz`` of ``key: value`` lines::

    %% quiz
    Q: Which card do you throw to go out?
    A: Kc                       (several right answers: Kc | Qs)
    right: king of clubs | K♣   (two more spellings, answered by the tests)
    wrong: 9h -> The 9♥ completes your run: keep it.   (a hint per wrong answer)
    hint: Which card is in no meld?                   (for any other wrong answer)
    why: 7♥ 8♥ 9♥ is a run (M-2) ... (the worked answer)
    choices: stock | discard pile                     (optional: buttons)
    digits: 3          (optional: significant digits a decimal answer needs)

``A:`` is the answer the answer box shows, then its synonyms, which the
checker takes too (``A: nobody | no one | no winner``).  Every question needs
a ``hint:`` naming its rule id.  An exercise is the same block under
``%% exercise`` (``Q:`` optional): it makes no cell, only an entry of the quiz
file, which the lesson's ``check = exercise_book("quizzes/<lesson>.json")``
reads; ``check(1, answer)`` prints "right!" or the hint.

It becomes a markdown cell with the question, a code cell ``quiz(N)`` (the
lesson defines ``quiz = quiz_book("quizzes/<lesson>.json")``; the answers
live in that file, ``{"quizzes": [...], "exercises": [...]}``, written by
this script, not in the notebook) and a folded worked answer.  Answers are
checked by :mod:`rummy.teach`, the kit's one checker.

A page runs its lesson's code cells while the learner waits (Voilà sends the
page's end only then), so it runs only what it shows.  The code cells it leaves
out (lab-only, worked answers) carry the tag ``skip-execution``, which Voilà's
executor (nbclient's) skips; the build and nbval run every cell.  ``%% code
ahead`` is a code cell computed ahead of the page: in JupyterLab an ordinary
cell (run, checked by nbval); on the page it is not run, and what it shows
(pictures, formulas, tables: not printed lines) is copied by the build, from its
own run, into a page-only markdown cell right after it (a picture as an
attachment, its alternative text from the cell's ``# picture: ...`` line).  So
a lesson's heavy parts (pandas, matplotlib, sympy, long counts) cost its page
nothing; tests recompute what the page shows.

A result too slow to compute each time a lesson page is drawn (half a minute
and more, on a page a learner waits for) is computed once by the build, before
the lesson runs, and saved in ``notebooks/data/`` (:data:`PRECOMPUTED`); the
lesson reads it and says, in its notebook face, how to compute it again.

The notebooks are executed in a fresh kernel (nbclient, cwd notebooks/) and
saved executed (with a fresh, empty ``$RUMMY_DATA``: nobody's progress, and
nothing written to the user's own data folder), with the widget state
stripped: no ``metadata.widgets`` and widget outputs keep only their
``text/plain`` form.  So they read well on a
code host and stay small.

    .venv/bin/python scripts/build_lessons.py            # every lesson
    .venv/bin/python scripts/build_lessons.py 01 06      # the lessons whose name starts so
    .venv/bin/python scripts/build_lessons.py --draft 04 # run past errors and list them
"""

from __future__ import annotations

import json
import os
import re
import sys
import tempfile
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ROOT / "scripts" / "lessons"
OUT = ROOT / "notebooks"
WIDGET_NOTE = "[an interactive widget: run the notebook (JupyterLab, Binder or Voila) to use it]"
WIDGET_MIMES = ("application/vnd.jupyter.widget-view+json",
                "application/vnd.jupyter.widget-state+json")


WORKED = "worked-answer"
TEACHER_ONLY = "teacher-only"
#: cells of one face only: the lesson page (Voilà, the "rummy" template) leaves out
#: ``lab-only`` cells, JupyterLab folds ``page-only`` ones
LAB_ONLY = "lab-only"
PAGE_ONLY = "page-only"
#: a code cell computed ahead of the page (``%% code ahead``)
AHEAD = "ahead"
#: the tag of cells a page leaves unrun (nbclient's ``skip_cells_with_tag``, which
#: Voilà's executor keeps); the build runs them all
NOT_RUN_ON_THE_PAGE = "skip-execution"
#: an ahead cell's line saying what its picture shows (the page's alternative text)
PICTURE_LINE = re.compile(r"^# picture: (.+)$", re.MULTILINE)
#: an ahead cell's lines saying on the page, in words, what its printed output shows
PAGE_LINE = re.compile(r"^# page: (.+)$", re.MULTILINE)
#: the exact values of a printed output (fractions and decimals): its page lines name each
EXACT_VALUE = re.compile(r"\d+/\d+|\d+\.\d+")
#: a cell asking for an exercise's answer in code: ``check(2, None)`` or
#: ``answer_2 = None`` then ``check(2, answer_2)``
EXERCISE_CALL = re.compile(r"^check\((\d+), (?:None|answer_\1)\)\s*$", re.MULTILINE)
QUIZ_KEYS = ("Q", "A", "right", "wrong", "hint", "why", "choices", "digits")


def parse_quiz(body: str, exercise: bool = False) -> dict:
    """A quiz block's ``key: value`` lines as a dict (see the module's description).

    >>> q = parse_quiz("Q: Who deals?\\nA: box\\nright: Box | the box\\nwrong: captain -> No.\\nhint: G-3.")
    >>> q["answer"], q["right"], q["hints"]
    ('box', ['Box', 'the box'], [['captain', 'No.']])
    """
    quiz: dict = {"question": "", "answer": "", "right": [], "hints": [], "hint": "", "why": "",
                  "choices": []}
    key = None
    for raw in body.splitlines():
        m = re.match(r"^(Q|A|right|wrong|hint|why|choices|digits):\s*(.*)$", raw)
        if not m:
            if key in ("Q", "why", "hint") and raw.strip():  # a continuation line
                field = {"Q": "question", "why": "why", "hint": "hint"}[key]
                quiz[field] += " " + raw.strip()
                continue
            if raw.strip():
                raise ValueError(f"quiz line {raw!r}: start it with one of {', '.join(QUIZ_KEYS)}")
            continue
        key, value = m.group(1), m.group(2).strip()
        if key == "Q":
            quiz["question"] = value
        elif key == "A":
            quiz["answer"] = value
        elif key == "right":
            quiz["right"] = [v.strip() for v in value.split(" | ")]
        elif key == "wrong":
            wrong, _, hint = value.partition(" -> ")
            quiz["hints"].append([wrong.strip(), hint.strip()])
        elif key == "choices":
            quiz["choices"] = [v.strip() for v in value.split(" | ")]
        elif key == "digits":
            quiz["digits"] = int(value)
        else:
            quiz[key] = value
    if not quiz["answer"] or not (quiz["question"] or exercise):
        raise ValueError(f"a quiz needs Q: and A: lines: {body[:80]!r}")
    if not quiz["hint"]:
        raise ValueError(f"every question needs a hint: line naming its rule: {body[:80]!r}")
    return quiz


def quizzes_of(text: str, block: str = "quiz") -> list[dict]:
    """Every quiz (or, with ``block="exercise"``, every exercise) of a lesson source, in order."""
    return [parse_quiz(body, exercise=block == "exercise")
            for body in re.findall(rf"^%% {block}\s*\n(.*?)(?=^%% |\Z)", text,
                                   flags=re.MULTILINE | re.DOTALL)]


def questions_of(text: str) -> dict:
    """A lesson's quiz file: ``{"quizzes": [...], "exercises": [...]}``.

    An exercise without a ``Q:`` line is asked in the lesson's prose: its
    answer box says "Exercise N", and its answers are kept under the first
    rule its hint names."""
    from rummy.rulebook import rules_in

    exercises = quizzes_of(text, "exercise")
    for number, entry in enumerate(exercises, 1):
        entry["question"] = entry["question"] or f"Exercise {number}."
        named = rules_in(entry["hint"]) or rules_in(entry["why"])
        if named:
            entry["rule"] = named[0]
    return {"quizzes": quizzes_of(text), "exercises": exercises}


def _shown(answer: str) -> str:
    """The answer as the answer box shows it: the first of its spellings (the
    others are synonyms the checker takes, not part of the answer)."""
    from rummy.teach import show_answer

    return show_answer(answer.split(" | ")[0].strip())


def parse(text: str) -> nbformat.NotebookNode:
    """A notebook from the ``%% md`` / ``%% code`` / ``%% quiz`` source format."""
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3 (rummy kit)",
                                 "language": "python"}
    nb.metadata["language_info"] = {"name": "python"}
    nb.metadata["rummy"] = {"lesson": True}  # Voilà draws it as a lesson page
    kind, lines = None, []
    count = 0

    def flush() -> None:
        nonlocal count
        if kind is None:
            return
        body = "\n".join(lines).strip("\n")
        if not body:
            return
        if kind == "md":
            nb.cells.append(nbformat.v4.new_markdown_cell(body))
        elif kind in ("md lab", "md page"):
            # one face only: ``lab`` cells (how to run and change the code) are left
            # out of the lesson page; ``page`` cells (what the page offers instead)
            # are folded away in JupyterLab
            cell = nbformat.v4.new_markdown_cell(body)
            cell.metadata["tags"] = [LAB_ONLY if kind == "md lab" else PAGE_ONLY]
            if kind == "md page":
                cell.metadata["jupyter"] = {"source_hidden": True}
            nb.cells.append(cell)
        elif kind == "md teacher":
            # prose about the folded answers, which the student copy leaves out
            cell = nbformat.v4.new_markdown_cell(body)
            cell.metadata["tags"] = [TEACHER_ONLY]
            nb.cells.append(cell)
        elif kind == "md answer":
            cell = nbformat.v4.new_markdown_cell(
                f'<details class="{WORKED}"><summary>Worked answer (click to open)</summary>\n\n'
                f"{body}\n\n</details>")
            cell.metadata["tags"] = [WORKED]
            nb.cells.append(cell)
        elif kind == "quiz":
            count += 1
            quiz = parse_quiz(body)
            ask = f"**Quiz {count}.** {quiz['question']}"
            if quiz["choices"]:
                ask += " (" + ", ".join(quiz["choices"]) + ")"
            nb.cells.append(nbformat.v4.new_markdown_cell(ask))
            code = nbformat.v4.new_code_cell(f"quiz({count})")
            code.metadata["tags"] = ["quiz"]
            nb.cells.append(code)
            worked = f"**{_shown(quiz['answer'])}**. {quiz['why']}".strip()
            cell = nbformat.v4.new_markdown_cell(
                f'<details class="{WORKED}"><summary>Answer (click to open)</summary>\n\n'
                f"{worked}\n\n</details>")
            cell.metadata["tags"] = [WORKED]
            nb.cells.append(cell)
        elif kind == "exercise":
            return  # its answer goes to the quiz file only
        else:
            asked = EXERCISE_CALL.search(body) if kind == "code" else None
            if asked:
                # the page has no code to edit: an answer box (the same checker) comes
                # first, and the cell that checks an edited answer is the notebook's only
                box = nbformat.v4.new_code_cell(f"exercise({asked.group(1)})")
                box.metadata["tags"] = ["exercise"]
                at = len(nb.cells)  # before the notebook's own words on answering in code
                while at and LAB_ONLY in nb.cells[at - 1].metadata.get("tags", []) \
                        and nb.cells[at - 1].cell_type == "markdown":
                    at -= 1
                nb.cells.insert(at, box)
            cell = nbformat.v4.new_code_cell(body)
            if asked or kind == "code lab":
                cell.metadata["tags"] = [LAB_ONLY, NOT_RUN_ON_THE_PAGE]
            if kind == "code ahead":
                # the page shows what the build's run of it showed (page_face)
                cell.metadata["tags"] = [LAB_ONLY, AHEAD, NOT_RUN_ON_THE_PAGE]
            if kind == "code hidden":
                # source and output fold away (an output says "right!" next to the answer)
                cell.metadata["jupyter"] = {"source_hidden": True, "outputs_hidden": True}
                cell.metadata["tags"] = [WORKED, NOT_RUN_ON_THE_PAGE]
            nb.cells.append(cell)

    for line in text.splitlines():
        m = re.fullmatch(r"%% (md|md answer|md teacher|md lab|md page|code|code hidden|code lab|code ahead|"
                         r"quiz|exercise)\s*", line)
        if m:
            flush()
            kind, lines = m.group(1), []
        else:
            lines.append(line)
    flush()
    for i, cell in enumerate(nb.cells):
        cell["id"] = f"cell-{i:03d}"
    return nb


def strip_widgets(nb: nbformat.NotebookNode) -> None:
    """Drop widget state: metadata.widgets and widget mime types of outputs."""
    nb.metadata.pop("widgets", None)
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        cell.metadata.pop("execution", None)
        for out in cell.get("outputs", []):
            data = out.get("data")
            if data and any(mime in data for mime in WIDGET_MIMES):
                for mime in WIDGET_MIMES:
                    data.pop(mime, None)
                # the widget's repr is long and says nothing on a static page
                data["text/plain"] = WIDGET_NOTE


#: what an ahead cell's output shows on the page, best first (printed lines and bare
#: values are never shown on a page)
PAGE_MIMES = ("image/png", "image/svg+xml", "text/latex", "text/html")


def printed(cell: nbformat.NotebookNode) -> str:
    """The text a code cell printed or answered, exact fractions written a/b.

    >>> cell = nbformat.v4.new_code_cell("x")
    >>> cell.outputs = [nbformat.v4.new_output("execute_result", data={
    ...     "text/plain": "(Fraction(24, 5525), True)"})]
    >>> printed(cell)
    '(24/5525, True)'
    """
    text = []
    for out in cell.get("outputs", []):
        value = out.get("text") or (out.get("data") or {}).get("text/plain") or ""
        text.append(value if isinstance(value, str) else "".join(value))
    return re.sub(r"Fraction\((\d+), (\d+)\)", r"\1/\2", "\n".join(text))


def said_in_words(cell: nbformat.NotebookNode,
                  before: list[nbformat.NotebookNode]) -> list[str]:
    """What an ahead cell's ``# page:`` lines say on the page, once checked to
    name every exact value (``a/b``, decimals) the cell printed.  An ahead cell
    that printed something the page's prose leads into (the last paragraph the
    page shows before it ends with a colon) must have such lines: a page never
    ends a sentence on nothing.

    >>> cell = nbformat.v4.new_code_cell("# page: One in two: 1/2.\\nP(even)")
    >>> cell.outputs = [nbformat.v4.new_output("execute_result", data={
    ...     "text/plain": "Fraction(1, 2)"})]
    >>> said_in_words(cell, [])
    ['One in two: 1/2.']
    >>> cell.source = "# page: One in two.\\nP(even)"
    >>> said_in_words(cell, [])
    Traceback (most recent call last):
    ...
    ValueError: the page line of 'P(even)' leaves out 1/2, which the cell printed
    """
    lines = [m.strip() for m in PAGE_LINE.findall(cell.source)]
    out = printed(cell)
    code = "\n".join(line for line in cell.source.splitlines()
                     if not line.startswith("#")).strip()
    if lines:
        words = " ".join(lines).replace(",", "")
        for value in EXACT_VALUE.findall(out):
            if value not in words:
                raise ValueError(f"the page line of {code[:60]!r} leaves out {value}, "
                                 "which the cell printed")
        return ["\n".join(lines)]
    shown = [c for c in before if c.cell_type == "markdown"
             and LAB_ONLY not in c.metadata.get("tags", [])]
    pictured = any(m in (o.get("data") or {}) for o in cell.get("outputs", [])
                   for m in PAGE_MIMES)
    if out.strip() and not pictured and shown and shown[-1].source.rstrip().endswith(":"):
        raise ValueError(f"the page leads into what {code[:60]!r} printed ("
                         f"{shown[-1].source.rstrip()[-40:]!r}): say it in a "
                         "'# page: ...' line")
    return []


def page_face(nb: nbformat.NotebookNode) -> None:
    """After each ahead cell of the executed ``nb``, a page-only markdown cell with
    what its outputs show (pictures as attachments, formulas, tables), if anything.

    >>> nb = parse("%% code ahead\\n# picture: two bars\\nplot()\\n")
    >>> nb.cells[0].outputs = [nbformat.v4.new_output("display_data", data={
    ...     "image/png": "iVBO", "text/plain": "<Figure>"}), nbformat.v4.new_output(
    ...     "execute_result", data={"text/latex": "$x^2$", "text/plain": "x**2"})]
    >>> page_face(nb)
    >>> shown = nb.cells[1]
    >>> shown.metadata["tags"], shown.source
    (['page-only'], '![two bars](attachment:cell-000-1.png)\\n\\n$x^2$')
    >>> list(shown.attachments["cell-000-1.png"])
    ['image/png']
    """
    at = 0
    while at < len(nb.cells):
        cell = nb.cells[at]
        at += 1
        if cell.cell_type != "code" or AHEAD not in cell.metadata.get("tags", []):
            continue
        parts, attachments = said_in_words(cell, nb.cells[:at - 1]), {}
        for number, out in enumerate(cell.get("outputs", []), 1):
            data = out.get("data") or {}
            mime = next((m for m in PAGE_MIMES if m in data), None)
            if mime is None:
                continue
            value = data[mime] if isinstance(data[mime], str) else "".join(data[mime])
            if mime.startswith("image/"):
                said = PICTURE_LINE.search(cell.source)
                if not said:
                    raise ValueError(f"the ahead cell {cell.source[:60]!r} draws a picture: "
                                     "say what it shows in a line '# picture: ...'")
                name = f"{cell.id}-{number}.{'png' if mime == 'image/png' else 'svg'}"
                if mime == "image/svg+xml":  # attachments are base64, as a PNG is
                    import base64

                    value = base64.b64encode(value.encode("utf-8")).decode("ascii")
                attachments[name] = {mime: value}
                parts.append(f"![{said.group(1).strip()}](attachment:{name})")
            elif mime == "text/html":  # a blank line would end Markdown's HTML block
                parts.append("\n".join(line for line in value.splitlines() if line.strip()))
            else:
                parts.append(value.strip())
        if not parts:
            continue
        shown = nbformat.v4.new_markdown_cell("\n\n".join(parts))
        shown.metadata["tags"] = [PAGE_ONLY]
        shown.metadata["jupyter"] = {"source_hidden": True}
        if attachments:
            shown["attachments"] = attachments
        shown["id"] = f"{cell.id}-page"
        nb.cells.insert(at, shown)
        at += 1


def _when(stamp: str) -> float:
    from datetime import datetime

    return datetime.fromisoformat(stamp.replace("Z", "+00:00")).timestamp()


def write_quizzes(source: Path) -> Path | None:
    """Write ``notebooks/quizzes/<lesson>.json`` (the answers, out of the notebook)."""
    questions = questions_of(source.read_text())
    if not questions["quizzes"] and not questions["exercises"]:
        return None
    target = OUT / "quizzes" / (source.stem + ".json")
    target.parent.mkdir(exist_ok=True)
    target.write_text(json.dumps(questions, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return target


#: lesson 06's table of the chance of a complete dealt hand in each of Three Thirteen's
#: eleven rounds (rounds 7-11 by Monte Carlo: half a minute and more)
ELEVEN_ROUNDS = {"players": 2, "samples": 100_000, "seed": 1}


def save_eleven_rounds() -> Path:
    """Compute lesson 06's eleven-round table and save it as ``notebooks/data/06_eleven_rounds.json``
    (pandas' "table" layout, which keeps the index and the columns' types)."""
    from rummy.probability import dealt_table

    table = dealt_table("three_thirteen", progress=False, **ELEVEN_ROUNDS)
    target = OUT / "data" / "06_eleven_rounds.json"
    target.parent.mkdir(exist_ok=True)
    target.write_text(table.to_json(orient="table", indent=1, double_precision=15) + "\n",
                      encoding="utf-8")
    return target


#: what the build computes before a lesson runs, by lesson
PRECOMPUTED = {"06_meld_odds": [save_eleven_rounds]}


def build(source: Path, timeout: int = 300, draft: bool = False) -> tuple[Path, float, int]:
    write_quizzes(source)
    for make in PRECOMPUTED.get(source.stem, []):
        make()
    nb = parse(source.read_text())
    client = NotebookClient(nb, timeout=timeout, kernel_name="python3", allow_errors=draft,
                            record_timing=True, resources={"metadata": {"path": str(OUT)}},
                            skip_cells_with_tag="")  # the build runs every cell
    t0 = time.perf_counter()
    client.execute()
    seconds = time.perf_counter() - t0
    for cell in nb.cells:  # name the slow cells (the timing itself is not saved)
        stamps = cell.metadata.get("execution", {})
        if "iopub.execute_input" in stamps and "shell.execute_reply" in stamps:
            took = (_when(stamps["shell.execute_reply"]) - _when(stamps["iopub.execute_input"]))
            if took > 10:
                print(f"  slow cell {cell.id}: {took:.0f} s: {cell.source.splitlines()[0][:60]}")
    strip_widgets(nb)
    page_face(nb)
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            if out.get("output_type") == "error":
                print(f"  error in {cell.id}: {out.ename}: {out.evalue[:300]}")
    target = OUT / (source.stem + ".ipynb")
    nbformat.write(nb, target)
    return target, seconds, target.stat().st_size


def main(argv: list[str]) -> int:
    draft = "--draft" in argv  # keep going past errors (they are listed); never commit a draft
    argv = [a for a in argv if a != "--draft"]
    sources = sorted(SOURCES.glob("*.txt"))
    if argv:
        sources = [s for s in sources if any(s.name.startswith(a) for a in argv)]
    with tempfile.TemporaryDirectory(prefix="rummy-build-") as data:
        os.environ["RUMMY_DATA"] = data  # the kernels' data folder (the progress map opens it)
        for s in sources:
            target, seconds, size = build(s, draft=draft)
            print(f"{target.relative_to(ROOT)}: {seconds:.1f} s, {size / 1024:.0f} KiB", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
