"""The Python examples of the README and docs/API.md run as written.

Each ``python`` block that needs no running server is run, one after another
within a file, as a reader would type them.
"""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BLOCK = re.compile(r"```python\n(.*?)```", re.S)
#: blocks that talk to a running server over HTTP (their names are checked by
#: tests/test_tableserver_remote.py instead)
NEEDS_A_SERVER = ("RemoteGame.join",)


def blocks(name: str) -> list[str]:
    return [b for b in BLOCK.findall((ROOT / name).read_text(encoding="utf-8"))
            if not any(s in b for s in NEEDS_A_SERVER)]


@pytest.mark.parametrize("name", ["README.md", "docs/API.md"])
def test_the_python_examples_run(name: str) -> None:
    found = blocks(name)
    assert found, f"{name} has no Python example"
    names: dict[str, object] = {}
    for code in found:
        with contextlib.redirect_stdout(io.StringIO()):
            exec(compile(code, name, "exec"), names)  # the docs' own examples
