"""A class at the Big Table on this machine: N learners, each in a browser
context of their own (Chromium driven by Playwright), join one table at once
and play a hand by clicking; the server is Voilà with the table service, as
``make app`` serves it.

Printed (the browsers share the machine's cores with the server and the
kernels: say so beside any figure, with the load average printed first):

- **kernels ahead**: from the teacher making the table to Voilà's pool for
  the Big Table page holding a kernel for every seat (tableserver.preheat);
- **seated** and **playable**: from opening the join address to the seat's
  token kept by the page, and to the page showing the seat's hand (median, max);
- **click**: from a learner's click to the service having it (the seat's
  version in the API moved on), p50 and p90 over every click of the hand;
- **call**: from the service calling a new phase to every page's caller line
  saying it (median, max over the hand's calls);
- **CPU**: from opening the pages to every page playable, the CPU seconds
  of the server and its kernels and of the browsers, each per learner (a
  class's own devices would run the browsers: the server's share is what
  its laptop must do);
- **memory**: the resident memory of the server's process tree (the server and
  every kernel) divided by N, and the server alone.

    .venv/bin/python benchmarks/classroom.py --learners 12   # 2 to 24 (over 12: max_players)
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rummy import Action  # noqa: E402
from rummy.big_table import options_for  # noqa: E402
from rummy.bots import make_bot  # noqa: E402
from tableserver.wire import decode_observation  # noqa: E402
from tests.browser import harness  # noqa: E402
from tests.browser.classroom import (  # noqa: E402
    DEAL,
    KEY,
    Arriving,  # noqa: E402
    api_get,
    wait_token,
)
from tests.browser.pages import HAND, select  # noqa: E402
from tests.servers import call_json  # noqa: E402

NAMES = ("Ana", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hana", "Ivo", "Jo", "Kim", "Lev",
         "Mia", "Ned", "Ola", "Pia", "Quin", "Rui", "Sam", "Tia", "Uma", "Vic", "Wen", "Xia")
CONTROL = {"call match": "button.rummy-match", "play on": "button.rummy-play-on",
           "draw pile": "button.rummy-neighbour-pile", "draw pool": "button.rummy-pool"}


def tree_stats(pid: int) -> dict[int, list[str]]:
    """The ``/proc/PID/stat`` fields (after the command) of process ``pid``
    and of every process under it, by pid."""
    children: dict[int, list[int]] = {}
    stats: dict[int, list[str]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            children.setdefault(int(stat[1]), []).append(int(entry.name))
            stats[int(entry.name)] = stat
        except (OSError, IndexError, ValueError):
            continue
    out, todo = {}, [pid]
    while todo:
        p = todo.pop()
        if p in stats:
            out[p] = stats[p]
        todo.extend(children.get(p, []))
    return out


def tree_rss(pid: int) -> tuple[int, int]:
    """Resident bytes of process ``pid`` alone and of it with every descendant."""
    stats, page = tree_stats(pid), os.sysconf("SC_PAGE_SIZE")
    return (int(stats[pid][21]) * page if pid in stats else 0,
            sum(int(s[21]) * page for s in stats.values()))


def tree_cpu(pid: int) -> float:
    """CPU seconds (user + system) of process ``pid`` and every process under it
    still running."""
    tick = os.sysconf("SC_CLK_TCK")
    return sum(int(s[11]) + int(s[12]) for s in tree_stats(pid).values()) / tick


def pct(values: list[float], q: float) -> float:
    """The ``q`` quantile (0..1) of ``values``."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def click_once(x: Any) -> float | None:
    """``x``'s move, clicked as a learner would (the greedy bot's choice);
    answers seconds from the click to the service having it."""
    view = x.view()
    if view["status"] != "playing" or not view.get("legal_actions"):
        return None
    action = make_bot("greedy", seed=1).choose(decode_observation(view))
    if Action.parse("call match") in [Action.parse(a) for a in view["legal_actions"]]:
        action = Action.parse("call match")
    control = CONTROL.get(action.verb)
    try:
        if control is None:  # a discard: choose the card (a round trip), then Discard
            assert action.card is not None
            x.page.wait_for_selector(f"{HAND}.rummy-card-{action.card}", timeout=30_000)
            select(x.watch, action.card)
            control = "button.rummy-discard"
        x.page.wait_for_selector(f"{control}:not([disabled])", timeout=30_000)
    except Exception:  # noqa: BLE001 - the call moved on (a helper played): no click
        return None
    start = time.monotonic()
    try:
        x.page.click(control, timeout=10_000)
    except Exception:  # noqa: BLE001 - the control went off meanwhile (the call moved on)
        return None
    while x.view()["version"] == view["version"] and time.monotonic() - start < 60:
        time.sleep(0.02)
    return time.monotonic() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--learners", type=int, default=12, help="learners (2 to 24)")
    parser.add_argument("--calls", type=int, default=0,
                        help="stop after this many calls (0: when the hand ends); this "
                             "script clicks every page in turn, so 24 pages on a busy "
                             "machine may take longer than the 20 minutes it waits")
    args = parser.parse_args(argv)
    n = max(2, min(len(NAMES), args.learners))
    options = options_for(n)  # more than 12 at one Big Table: max_players, packs enough
    print(f"machine: {os.cpu_count()} cores, load average "
          f"{', '.join(f'{x:.1f}' for x in os.getloadavg())}; the browsers share the cores")
    env = {"RUMMY_TEACHER_KEY": KEY}
    with harness.start_voila(env=env, seeds=[DEAL]) as server, harness.chromium() as browser:
        made_at = time.monotonic()
        status, made = call_json("POST", server.base + "rummy/api/tables",
                                 {"variant": "big_table", "seats": ["human"] * n, "pace": 0,
                                  "options": options},
                                 {"Content-Type": "application/json",
                                  "X-Rummy-Teacher-Key": KEY})
        assert status == 201, made
        code = made["code"]
        filled = f"Kernel pool of notebooks/apps/big_table.ipynb is filled with {n + 2} kernel"
        while filled not in server.log() and time.monotonic() - made_at < 300:
            time.sleep(0.5)
        print(f"kernels ahead: {time.monotonic() - made_at:.1f} s after the table was made")
        server_cpu = tree_cpu(server.proc.pid)  # Voilà and its kernels
        browser_cpu = tree_cpu(os.getpid())  # Chromium (and this script)
        learners = [Arriving(browser, server.base, code, name) for name in NAMES[:n]]
        seated, playable = [], []
        for x in learners:
            x.page.wait_for_selector(harness.READY, state="visible", timeout=300_000)
            x.token = wait_token(x.page, code, timeout=300)  # a loaded machine is patient
            seated.append(time.monotonic() - x.opened)
        for x in learners:
            x.wait_hand()
            playable.append(time.monotonic() - x.opened)
        print(f"seated: median {statistics.median(seated):.1f} s, max {max(seated):.1f} s; "
              f"playable: median {statistics.median(playable):.1f} s, "
              f"max {max(playable):.1f} s")
        # what the seating cost each side: on its own laptop a server does the
        # first share alone, and the pages' browsers run on the learners' devices
        served = tree_cpu(server.proc.pid) - server_cpu
        drawn = tree_cpu(os.getpid()) - browser_cpu
        print(f"CPU until every page played: the server and its kernels {served:.1f} s "
              f"({served / n:.2f} s a learner), the browsers {drawn:.1f} s "
              f"({drawn / n:.2f} s a page)")
        clicks: list[float] = []
        calls: list[float] = []
        start = time.monotonic()
        while api_get(server.base, f"/tables/{code}", KEY)["status"] == "playing":
            if time.monotonic() - start > 1200:
                print("the hand did not end in 20 minutes")
                break
            if args.calls and len(calls) >= args.calls:
                print(f"stopped after {len(calls)} calls (--calls)")
                break
            before = learners[0].view()["phase"]
            texts = {x.name: x.page.locator(".rummy-caller").inner_text() for x in learners}
            for x in learners:
                took = click_once(x)
                if took is not None:
                    clicks.append(took)
            # the call that follows: from the service's new phase to every page saying it
            t0 = time.monotonic()
            while learners[0].view()["phase"] == before and time.monotonic() - t0 < 30:
                time.sleep(0.05)
            called = time.monotonic()
            shown = set()
            while len(shown) < n and time.monotonic() - called < 30:
                for x in learners:
                    if x.name not in shown and \
                            x.page.locator(".rummy-caller").inner_text() != texts[x.name]:
                        shown.add(x.name)
                time.sleep(0.05)
            calls.append(time.monotonic() - called)
        print(f"click to acknowledged: p50 {pct(clicks, 0.5) * 1000:.0f} ms, p90 "
              f"{pct(clicks, 0.9) * 1000:.0f} ms over {len(clicks)} clicks; a call on every "
              f"page: median {statistics.median(calls):.2f} s, max {max(calls):.2f} s over "
              f"{len(calls)} calls; the play took {time.monotonic() - start:.0f} s")
        own, total = tree_rss(server.proc.pid)
        print(f"memory: {total / n / 2**20:.0f} MiB per learner (the server and its "
              f"{n + 2}+ kernels: {total / 2**30:.2f} GiB; the server alone "
              f"{own / 2**20:.0f} MiB)")
        print(f"load average after: {', '.join(f'{x:.1f}' for x in os.getloadavg())}")
        for x in learners:
            x.context.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
