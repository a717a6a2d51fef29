"""What a kernel sends to the page: the state of every widget a view holds.

A helper module of the tests (not a test module): a test that must show a
secret never reaches a page (a teacher key, another seat's cards) looks for
it in :func:`widget_state`.
"""

from __future__ import annotations

import json
from typing import Any


def widget_state(view: Any) -> str:
    """Every widget's state under ``view.widget`` (child models followed), as JSON lines."""
    from ipywidgets.widgets.widget import Widget, _instances

    out = []
    seen: set[int] = set()

    def walk(w: Any) -> None:
        if id(w) in seen or not isinstance(w, Widget):
            return
        seen.add(id(w))
        state = w.get_state()
        out.append(json.dumps(state, default=str))
        for v in state.values():
            for x in (v if isinstance(v, (list, tuple)) else [v]):
                if isinstance(x, str) and x.startswith("IPY_MODEL_"):
                    walk(_instances.get(x[len("IPY_MODEL_"):]))
    walk(view.widget)
    return "\n".join(out)
