"""Pin the cribbage engine's numbers from commit 9ecc7a3 (before the core refactor)."""

import json
import sys
import numpy as np
import sims

assert sims.__file__.startswith("/tmp/golden-src"), sims.__file__
from sims.cribbage.engine import Job, run_job  # noqa: E402 - after the check of which sims this is

DEALS = [
    ("six-card", {"discard": "random", "peg": "random"}, 4000, 1, False),
    ("six-card", {"discard": "expected_net", "peg": "defensive"}, 3000, 2, True),
    ("five-card", {"discard": "greedy", "peg": "greedy"}, 3000, 3, False),
    ("three-hand", {"discard": "expected_hand", "peg": "greedy"}, 3000, 4, False),
    ("four-hand", {"discard": "exact_net", "peg": "defensive_no_close"}, 1500, 5, False),
    ("eight-card", {"discard": "greedy", "peg": "random"}, 1500, 6, False),
    ("three-rotation", {"discard": "random", "peg": "defensive"}, 3000, 7, False),
    ("six-card-61", {"discard": ["hoyle", "greedy"], "peg": ["greedy", "random"]}, 3000, 8, False),
    ("six-card", {"discard": "expected_net", "peg": "rollout"}, 120, 9, False),
]
GAMES = [
    ("six-card", {"discard": "expected_net", "peg": "defensive"}, 300, 11, False),
    ("five-card", {"discard": "random", "peg": "random"}, 400, 12, True),
    ("three-hand", {"discard": "greedy", "peg": "greedy"}, 300, 13, False),
    ("four-hand", {"discard": "random", "peg": "greedy"}, 200, 14, False),
    ("six-card-61", {"discard": ["greedy", "expected_hand"], "peg": "defensive"}, 300, 15, False),
    ("three-rotation", {"discard": "greedy", "peg": "random"}, 300, 16, False),
]
out, cases = {}, []
for i, (rules, pol, n, seed, extra) in enumerate(DEALS):
    job = Job.make("deals", rules, pol, n, seed, records=extra)
    b = run_job(job)
    for k, v in b.arrays.items():
        out[f"d{i}_{k}"] = v
    cases.append(
        {"id": f"d{i}", "kind": "deals", "rules": rules, "policies": pol, "n": n, "seed": seed, "records": extra}
    )
for i, (rules, pol, n, seed, extra) in enumerate(GAMES):
    job = Job.make("games", rules, pol, n, seed, score_log=extra)
    b = run_job(job)
    for k, v in b.arrays.items():
        out[f"g{i}_{k}"] = v
    cases.append(
        {"id": f"g{i}", "kind": "games", "rules": rules, "policies": pol, "n": n, "seed": seed, "score_log": extra}
    )
np.savez_compressed(sys.argv[1], **out)
json.dump({"commit": "9ecc7a3", "cases": cases}, open(sys.argv[2], "w"), indent=1)
print("ok", len(cases))
