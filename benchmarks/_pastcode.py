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
            if hasattr(tarfile, "data_filter"):  # (3.11.4 on: refuse odd members)
                tar.extractall(tmp, filter="data")
            else:  # Debian's 3.11.2: git archive of our own commit, trusted
                tar.extractall(tmp)  # noqa: S202
        yield tmp


@contextmanager
def workers(script: str, args: Sequence[str], paths: Sequence[str]
            ) -> Iterator[list[subprocess.Popen[str]]]:
    """One worker per path in ``paths``: ``script`` run with ``args`` and
    that path as ``PYTHONPATH`` (which ``rummy`` it imports); closed and
    waited for on leaving.

    Every worker runs on one and the same CPU (the lowest this process may
    use), so the codes compared get the same core, in turn: left to the
    scheduler, the second of two copies of the same code ran 1-3% slower
    than the first on a 2-core VM (``PIN_WORKERS=0`` in the environment
    leaves them unpinned)."""
    procs = [subprocess.Popen([sys.executable, script, *args],
                              env=dict(os.environ, PYTHONPATH=path), stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True) for path in paths]
    cpu = pinned_cpu()
    if cpu is not None:
        for w in procs:
            os.sched_setaffinity(w.pid, {cpu})
    try:
        yield procs
    finally:
        for w in procs:
            assert w.stdin is not None
            w.stdin.close()
            w.wait()


def pinned_cpu() -> int | None:
    """The CPU that :func:`workers` pins its workers to, or None (not
    pinned: ``PIN_WORKERS=0``, or no affinity on this system)."""
    if os.environ.get("PIN_WORKERS", "1") == "0" or not hasattr(os, "sched_setaffinity"):
        return None
    return min(os.sched_getaffinity(0))


def pin_note() -> str:
    """Where the workers ran, for a benchmark's heading."""
    cpu = pinned_cpu()
    return "workers unpinned" if cpu is None else f"both workers on CPU {cpu}"


def ask(worker: subprocess.Popen[str], request: str) -> str:
    """Send one request line to ``worker`` and read its one-line answer."""
    assert worker.stdin is not None and worker.stdout is not None
    worker.stdin.write(request + "\n")
    worker.stdin.flush()
    return worker.stdout.readline()
