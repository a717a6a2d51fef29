"""How long a lesson page takes: a plain GET of each lesson through Voilà.

The kit's Voilà server is started as the browser tests start it
(``tests/browser/harness.py``, ``start_voila``: ``make app``'s settings and
template), on folders of its own: its data folder (``RUMMY_DATA``), Jupyter's
and IPython's folders and matplotlib's (``MPLCONFIGDIR``, its font cache made
once before the first page, as a learner's machine has it) are fresh temporary
folders, so nothing of the user's is read or written.  The server's kernel pools
are for the apps only: a lesson page starts a kernel of its own, cold, runs every
cell of the lesson in it, and sends the page's end only then.  So a page's time
is its kernel starting plus its cells running; a cell waiting on a browser would
never end (the GET has ``--timeout``).

For each lesson (``notebooks/NN_*.ipynb``; ``--lessons 06 01`` picks some), the
page is asked for ``--repeats`` times in a row (5 unless told), each answer read
whole until it ends; printed per lesson: the median and the longest time, and the
page kernel's CPU seconds (user + system, of the kernel and what it started,
read with psutil when the page has ended; the kernel is then shut down).  On a
shared machine the wall time grows with the load, the CPU seconds much less, so
the load (``os.getloadavg()``) is printed before and after.  Target: every page
within 30 s.

    .venv/bin/python benchmarks/lesson_pages.py                    # every lesson, 5 times
    .venv/bin/python benchmarks/lesson_pages.py --lessons 06 --repeats 3

With ``--browser``, each lesson is opened in Chromium instead (the browser tests'
``harness.chromium``), ``--repeats`` times in one tab (the tab goes to the same
page again) and ``--repeats`` times in new tabs of one browser, each timed from
asking for the page until Voilà has run every cell and the page shows it
(``harness.wait_rendered``); the page is left (its kernel shut down, as a closed
tab's is) before the next.

    .venv/bin/python benchmarks/lesson_pages.py --browser
"""

from __future__ import annotations

import argparse
import json
import os
import re
import secrets
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import psutil

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.browser import harness  # noqa: E402

TARGET_S = 30.0
#: how the page names its kernel (Voilà's page config)
KERNEL_ID = re.compile(r'"kernelId":\s*"([0-9a-f-]{36})"')


def lessons(chosen: list[str], root: Path = harness.ROOT) -> list[str]:
    """The lessons' names (``06_meld_odds``), those starting with one of ``chosen`` if given."""
    names = sorted(p.stem for p in (root / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    return [n for n in names if not chosen or any(n.startswith(c) for c in chosen)]


def own_folders(where: Path) -> dict[str, str]:
    """The server's environment: every folder it and its kernels would read or write
    in the user's home, here under ``where``; matplotlib's font cache made there once."""
    env = {name: str(where / folder) for name, folder in harness.LAB_FOLDERS.items()}
    env["RUMMY_DATA"] = str(where / "rummy-data")
    env["MPLCONFIGDIR"] = str(where / "matplotlib")
    for name in ("RUMMY_LEARNER", "JUPYTERHUB_USER"):
        os.environ.pop(name, None)
    subprocess.run([sys.executable, "-c", "import matplotlib.font_manager"],
                   env={**os.environ, **env}, check=True)
    return env


def tree_cpu(proc: psutil.Process) -> float:
    """CPU seconds (user + system) of ``proc`` and of what it started, still running."""
    total = 0.0
    for p in [proc, *proc.children(recursive=True)]:
        try:
            t = p.cpu_times()
        except psutil.Error:
            continue
        total += t.user + t.system
    return total


def settle(server: harness.Server, quiet_s: float = 0.3, window_s: float = 3.0,
           limit_s: float = 300.0) -> float:
    """Wait until the server and its kernels (the apps' pools filling) use less than
    ``quiet_s`` CPU seconds in ``window_s``; the seconds waited."""
    root = psutil.Process(server.proc.pid)
    t0 = time.monotonic()
    before = tree_cpu(root)
    while time.monotonic() - t0 < limit_s:
        time.sleep(window_s)
        now = tree_cpu(root)
        if now - before < quiet_s:
            break
        before = now
    return time.monotonic() - t0


def kernel_process(server: harness.Server, kernel_id: str) -> psutil.Process | None:
    """The kernel ``kernel_id`` of the server (its connection file is named after it)."""
    for p in psutil.Process(server.proc.pid).children():
        try:
            if any(kernel_id in part for part in p.cmdline()):
                return p
        except psutil.Error:
            continue
    return None


def shut_down(server: harness.Server, kernel_id: str) -> None:
    """Shut the page's kernel down as a page leaving does (Voilà's shutdown call; the
    cross-site check wants a cookie and a header that agree, made up here)."""
    made_up = secrets.token_hex(16)
    request = urllib.request.Request(f"{server.base}voila/api/shutdown/{kernel_id}", data=b"",
                                     method="POST", headers={"Cookie": f"_xsrf={made_up}",
                                                             "X-XSRFToken": made_up})
    try:
        with urllib.request.urlopen(request, timeout=60):
            pass
    except urllib.error.HTTPError as e:
        print(f"  (the kernel {kernel_id[:8]} was not shut down: HTTP {e.code})", file=sys.stderr)


def one_page(server: harness.Server, lesson: str, timeout: float) -> dict[str, Any]:
    """GET the lesson's page once and read it to its end: seconds, bytes, the page
    kernel's CPU seconds (None if it can't be told), whether it ended in time."""
    url = f"{server.base}voila/render/notebooks/{lesson}.ipynb"
    t0 = time.perf_counter()
    body = b""
    ended = True
    try:
        with urllib.request.urlopen(url, timeout=timeout) as answer:
            while True:
                if time.perf_counter() - t0 > timeout:
                    ended = False
                    break
                piece = answer.read1(65536)
                if not piece:
                    break
                body += piece
    except (TimeoutError, urllib.error.URLError):
        ended = False
    seconds = time.perf_counter() - t0
    cpu = None
    found = KERNEL_ID.search(body.decode("utf-8", errors="replace"))
    if found:
        kernel = kernel_process(server, found.group(1))
        cpu = tree_cpu(kernel) if kernel else None
        shut_down(server, found.group(1))
    return {"seconds": seconds, "bytes": len(body), "cpu": cpu, "ended": ended}


def in_the_browser(browser: Any, server: harness.Server, lesson: str, repeats: int,
                   timeout: float) -> dict[str, list[float]]:
    """Seconds until the lesson page is drawn whole: ``repeats`` times in one
    tab, then ``repeats`` times each in a new tab."""
    url = server.base + f"voila/render/notebooks/{lesson}.ipynb"
    out: dict[str, list[float]] = {"one tab": [], "new tabs": []}
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        tab = harness.patient(context.new_page(), timeout * 1000)
        for _ in range(repeats):
            start = time.monotonic()
            tab.goto(url, timeout=timeout * 1000)
            harness.wait_rendered(tab, timeout=timeout * 1000)
            out["one tab"].append(time.monotonic() - start)
        tab.close(run_before_unload=True)
        for _ in range(repeats):
            page = harness.patient(context.new_page(), timeout * 1000)
            start = time.monotonic()
            page.goto(url, timeout=timeout * 1000)
            harness.wait_rendered(page, timeout=timeout * 1000)
            out["new tabs"].append(time.monotonic() - start)
            page.close(run_before_unload=True)
    finally:
        context.close()
    return out


def main_browser(names: list[str], args: argparse.Namespace) -> int:
    """``--browser``: every lesson in Chromium, in one tab and in new tabs."""
    with tempfile.TemporaryDirectory(prefix="rummy-lesson-pages-") as where:
        env = own_folders(Path(where))
        with harness.start_voila(root=args.root.resolve(), env=env) as server, \
                harness.chromium() as browser:
            waited = settle(server)
            load = os.getloadavg()
            print(f"server ready, its app kernels idle after {waited:.0f} s; load before "
                  f"{load[0]:.1f} {load[1]:.1f} {load[2]:.1f} ({os.cpu_count()} cores)", flush=True)
            print(f"{'lesson':28} {'where':9} {'median s':>9} {'max s':>7}  all s")
            for name in names:
                for where_, secs in in_the_browser(browser, server, name, args.repeats,
                                                   args.timeout).items():
                    flag = "" if max(secs) <= TARGET_S else "  over 30 s"
                    print(f"{name:28} {where_:9} {statistics.median(secs):9.1f} {max(secs):7.1f}  "
                          f"{' '.join(f'{x:.1f}' for x in secs)}{flag}", flush=True)
            load = os.getloadavg()
            print(f"load after {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}")
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lessons", nargs="*", default=[], help="lessons whose name starts so (06 01 ...)")
    ap.add_argument("--repeats", type=int, default=5, help="GETs of each page in a row (5)")
    ap.add_argument("--timeout", type=float, default=600.0, help="seconds a GET may take (600)")
    ap.add_argument("--json", type=Path, help="also write every measure to this file")
    ap.add_argument("--browser", action="store_true",
                    help="open the pages in Chromium, in one tab and in new tabs")
    ap.add_argument("--root", type=Path, default=harness.ROOT,
                    help="serve the lessons of this checkout of the kit (its notebooks, settings and "
                         "template; the Python code is this environment's): another commit's pages")
    args = ap.parse_args(argv)
    # stopped (SIGTERM), the server and its kernels stop too (the ``with`` below ends)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    names = lessons(args.lessons, args.root)
    if not names:
        ap.error(f"no lesson starts with {args.lessons}")
    if args.browser:
        return main_browser(names, args)
    results: dict[str, list[dict[str, Any]]] = {}
    with tempfile.TemporaryDirectory(prefix="rummy-lesson-pages-") as where:
        env = own_folders(Path(where))
        with harness.start_voila(root=args.root.resolve(), env=env) as server:
            waited = settle(server)
            load_before = os.getloadavg()
            print(f"server ready, its app kernels idle after {waited:.0f} s; load before "
                  f"{load_before[0]:.1f} {load_before[1]:.1f} {load_before[2]:.1f} "
                  f"({os.cpu_count()} cores)", flush=True)
            print(f"{'lesson':28} {'median s':>9} {'max s':>7} {'kernel CPU s':>13}  all s")
            for name in names:
                runs = [one_page(server, name, args.timeout) for _ in range(args.repeats)]
                results[name] = runs
                secs = [r["seconds"] for r in runs]
                cpus = [r["cpu"] for r in runs if r["cpu"] is not None]
                cpu = f"{statistics.median(cpus):.1f}" if cpus else "?"
                late = [f"{s:.0f}" + ("" if r["ended"] else " (unfinished)") for s, r in zip(secs, runs)]
                flag = "" if max(secs) <= TARGET_S and all(r["ended"] for r in runs) else "  over 30 s"
                print(f"{name:28} {statistics.median(secs):9.1f} {max(secs):7.1f} {cpu:>13}  "
                      f"{' '.join(late)}{flag}", flush=True)
            load_after = os.getloadavg()
            print(f"load after {load_after[0]:.1f} {load_after[1]:.1f} {load_after[2]:.1f}")
    if args.json:
        args.json.write_text(json.dumps({"load_before": load_before, "load_after": load_after,
                                         "pages": results}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
