"""How well does the record of learning predict recall?  The old Leitner boxes
against FSRS, on simulated learners whose forgetting is known.

Each simulated learner meets one rule and comes back to it on days of their
own choosing (a practice session every 1 to 10 days, drawn at random, the same
for both schedulers: neither chooses the days, so both are judged on the same
reviews).  Their true memory forgets exponentially, ``p = exp(-t / S)``, with
a stability ``S`` of their own at the start (log-normal around 10 days) that
grows after each recall, more when the recall was hard (``S *= 1 + g * (1 -
p)``, ``g`` of their own), and loses 40% after a lapse.  This is not FSRS's own
model (FSRS forgets by a power law with its own growth), so FSRS is not judged
on its home ground.

Before each review after the first, each scheduler says the chance of a right
answer from the events so far (``rummy.progress.mastery``, the kit's own code):

- FSRS: ``Mastery.recall(now)`` (FSRS-6, default parameters, no fuzz);
- Leitner: the boxes' own promise, 90% recall at the box's interval, ``0.9 **
  (t / interval)`` (box 0: the interval of box 1);
- a constant: the share of right answers over all reviews (known only after the
  fact: a bound no scheduler is given).

The score is the log loss of those chances against what the simulated learner
answered (lower is better).  FSRS must not be worse than the boxes.

Run: ``.venv/bin/python benchmarks/scheduling.py`` (``--learners N``, ``--seed S``).
"""

from __future__ import annotations

import argparse
import math
import random

from rummy.progress import BOX_DAYS, DAY, Event, mastery

RULE = "G-9"


def log_loss(pairs: list[tuple[float, bool]]) -> float:
    """Mean log loss of chances ``p`` against outcomes (chances kept in [1e-6, 1 - 1e-6])."""
    total = 0.0
    for p, right in pairs:
        p = min(max(p, 1e-6), 1 - 1e-6)
        total -= math.log(p if right else 1 - p)
    return total / len(pairs)


def leitner_chance(box: int, last_seen: float, now: float) -> float:
    """The boxes' promise: 90% recall once the box's interval has passed."""
    interval = BOX_DAYS[box] or BOX_DAYS[1]
    return float(0.9 ** ((now - last_seen) / DAY / interval))


def simulate(learners: int, seed: int, reviews: int = 12) -> dict[str, float]:
    """Log losses of FSRS, Leitner and the constant over ``learners`` simulated learners."""
    rng = random.Random(seed)
    fsrs_pairs: list[tuple[float, bool]] = []
    box_pairs: list[tuple[float, bool]] = []
    outcomes: list[bool] = []
    for n in range(learners):
        stability = math.exp(rng.gauss(math.log(10.0), 0.6))  # days
        growth = rng.uniform(2.0, 6.0)
        t, last = 0.0, 0.0
        events: list[Event] = []
        for k in range(reviews):
            if k:
                t += rng.randint(1, 10) * DAY + rng.uniform(0, DAY / 4)
            p_true = math.exp(-(t - last) / DAY / stability) if k else 0.5
            right = rng.random() < p_true
            if k:
                m = mastery(events)[RULE]
                recall = m.recall(t)
                fsrs_pairs.append((0.5 if recall is None else recall, right))
                box_pairs.append((leitner_chance(m.box, m.last_seen or 0.0, t), right))
                outcomes.append(right)
            events.append(Event(f"sim{n}", RULE, f"position {k}", "a", right, True, "drill", t))
            if right:
                stability *= 1 + growth * (1 - p_true)
            else:
                stability = max(stability * 0.6, 0.5)
            last = t
    base = sum(outcomes) / len(outcomes)
    return {"fsrs": log_loss(fsrs_pairs), "leitner": log_loss(box_pairs),
            "constant": log_loss([(base, r) for r in outcomes]), "reviews": len(outcomes),
            "right": base}


def main() -> None:
    """Print the log losses."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--learners", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    out = simulate(args.learners, args.seed)
    print(f"{args.learners} simulated learners, {out['reviews']} reviews scored, "
          f"{out['right']:.0%} right")
    print(f"log loss  FSRS {out['fsrs']:.3f}   Leitner boxes {out['leitner']:.3f}   "
          f"constant (known after the fact) {out['constant']:.3f}")
    if out["fsrs"] > out["leitner"]:
        raise SystemExit("FSRS predicted recall worse than the Leitner boxes")


if __name__ == "__main__":
    main()
