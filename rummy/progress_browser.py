"""The record of learning kept by the browser, on the static site.

The static site's Python (Pyodide, in the page's worker) has no ``sqlite3`` and no disk
of its own: :mod:`rummy.progress` keeps the record there in its JSON-lines log
(:class:`rummy.progress_store.LogStore`), in the kit's data folder, and this module
makes that folder the browser's: :func:`keep_in_browser` mounts it on Emscripten's
IndexedDB file system (IDBFS), reads what an earlier visit kept, and copies every
change back to IndexedDB as soon as it is written.  The learner key stays in the
page's local storage, as under a server (``widgets.progress.LEARNER_JS``).

The site's pages run ``await keep_in_browser()`` before anything reads the record;
anywhere else it does nothing:

>>> import asyncio
>>> asyncio.run(keep_in_browser())
False
"""

from __future__ import annotations

import logging
import sys
from pathlib import Path
from typing import Any

from rummy.progress import data_dir
from rummy.progress_store import on_write

__all__ = ["keep_in_browser", "in_browser"]

log = logging.getLogger("rummy.progress_browser")

_kept: list[str] = []


def in_browser() -> bool:
    """Is this Python the static site's (Pyodide, in a browser)?"""
    return sys.platform == "emscripten"


def _sync(fs: Any, populate: bool) -> Any:
    """A JavaScript promise of IDBFS's ``syncfs`` (``populate``: IndexedDB to memory)."""
    import js  # type: ignore[import-not-found]  # Pyodide's own module
    from pyodide.ffi import create_once_callable  # type: ignore[import-not-found]

    def start(resolve: Any, reject: Any) -> None:
        fs.syncfs(populate, create_once_callable(
            lambda err=None: reject(err) if err else resolve(True)))

    return js.Promise.new(create_once_callable(start))


async def keep_in_browser(folder: Path | None = None) -> bool:
    """Keep the kit's data folder (``folder``, default :func:`rummy.progress.data_dir`)
    in the browser's IndexedDB: read what is kept there, then write every change of the
    record back.  True on the static site; False (and nothing done) elsewhere."""
    if not in_browser():
        return False
    import js  # type: ignore[import-not-found]  # Pyodide's own modules
    import pyodide_js  # type: ignore[import-not-found]  # the Pyodide API of this page

    path = str(folder or data_dir())
    if path in _kept:
        return True
    fs = pyodide_js.FS
    fs.mkdirTree(path)
    fs.mount(fs.filesystems.IDBFS, js.Object.new(), path)
    await _sync(fs, True)
    _kept.append(path)

    def copy_back(written: Path) -> None:
        if str(written).startswith(path):
            _sync(fs, False).catch(create_logger())

    on_write(copy_back)
    return True


def create_logger() -> Any:
    """A JavaScript callback that logs a failed copy to IndexedDB (the page goes on)."""
    from pyodide.ffi import create_once_callable

    return create_once_callable(lambda err: log.warning("the browser did not keep the "
                                                        "record: %s", err))
