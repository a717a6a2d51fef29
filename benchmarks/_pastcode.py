"""What the benchmarks share to time a past commit's code beside this one.

``solver.py --against REV`` and ``games.py --against REV`` run the ``rummy``
package of commit ``REV`` (``git archive REV rummy``, unpacked in a
temporary directory) in worker processes of their own, next to a worker of
this code, and send each one request line at a time, in turn.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

#: the checkout these benchmarks belong to
ROOT = Path(__file__).resolve().parent.parent


@contextmanager
def past_rummy(rev: str) -> Iterator[str]:
    """A directory holding the ``rummy`` package of commit ``rev`` (for
    ``PYTHONPATH``), removed on leaving."""
    with tempfile.TemporaryDirectory() as tmp:
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev, "rummy"],
                                 capture_output=True, check=True).stdout
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            tar.extractall(tmp, filter="data")
        yield tmp


@contextmanager
def workers(script: str, args: Sequence[str], paths: Sequence[str]
            ) -> Iterator[list[subprocess.Popen[str]]]:
    """One worker per path in ``paths``: ``script`` run with ``args`` and
    that path as ``PYTHONPATH`` (which ``rummy`` it imports); closed and
    waited for on leaving."""
    procs = [subprocess.Popen([sys.executable, script, *args],
                              env=dict(os.environ, PYTHONPATH=path), stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True) for path in paths]
    try:
        yield procs
    finally:
        for w in procs:
            assert w.stdin is not None
            w.stdin.close()
            w.wait()


def ask(worker: subprocess.Popen[str], request: str) -> str:
    """Send one request line to ``worker`` and read its one-line answer."""
    assert worker.stdin is not None and worker.stdout is not None
    worker.stdin.write(request + "\n")
    worker.stdin.flush()
    return worker.stdout.readline()
