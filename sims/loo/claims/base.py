"""What both parts of section 10 (:mod:`~sims.loo.claims.section`, the best game, the pool and the miss, and
:mod:`~sims.loo.claims.laws`, the laws of the deal) stand on: the game, its players and table sizes,
the strongest players' share, a variant of a preset, and the money one rule moves on the same deals."""

from __future__ import annotations

import numpy as np

from sims.stats import normal_ci, rate_estimate, wilson

GAME = "loo"
# Declarations and exchanges from the self-play tables; cards played greedily (the searching player is too slow
# for eight table sizes at report size, and the declarations are what the claims are about).
MAIN = {"declare": "expert", "exchange": "expert", "card": "greedy"}
PLAYERS = tuple(range(3, 11))
# The strongest players: every decision by the expert (its cards search, so a tenth of the report's deals).
STRONG = {"declare": "expert", "exchange": "expert", "card": "expert"}
STRONG_SHARE, STRONG_MIN = 10, 2_000


def single_rules(preset: str, single: str):
    """``preset`` with its first round dealt as ``single`` (``"always-first"``, ``"stake-all"``, ...)."""
    from sims.loo import get_rules

    rules = get_rules(preset)
    return rules if single == rules.single else rules.replace(name=f"{preset}, {single}", single=single)


def civility(civil, rude) -> dict:
    """Pam be civil on and off, the same deals: the share of deals whose money changes, and the money per deal
    that moves (half the sum over players of the absolute change)."""
    columns = [f"{role}_money" for role in civil.roles]
    a, b = civil.records[columns].to_numpy(), rude.records[columns].to_numpy()
    changed = (a != b).any(axis=1)
    moved = np.abs(a - b).sum(axis=1) / 2
    rate, lo, hi = wilson(int(changed.sum()), len(changed))
    return {
        "deals changed": rate_estimate(rate, lo, hi, len(changed)),
        "money moved per deal": normal_ci(moved.mean(), moved.std(ddof=1) / np.sqrt(len(moved)), len(moved)),
    }
