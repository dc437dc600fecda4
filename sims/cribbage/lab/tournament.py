"""Policies against each other and against the experts: the round robin and the strength report.

A *combo* is a discard policy and a pegging policy, written ``discard+peg``
(``expected_net+defensive``).  :func:`round_robin` plays every pair of combos
``n_games`` whole games, half with each combo in seat 0: the two halves use the
same seed, so the second half deals the same cards with the seats exchanged
(common random numbers: luck of the cards cancels between the halves).  Win
rates come with 95% Wilson intervals.

:func:`strength` plays a combo against itself in two-handed six-card (or any
two-player preset): independent deals for the per-deal averages by role and
component, and whole games for the first dealer's win rate, next to the
figures published for expert play (shared/data/README.md).
"""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd

from ...stats import Z95, wilson
from ..policies import resolve
from ..rules import get_rules
from ..simulate import play_games, simulate_deals

DEFAULT_COMBOS = ("expected_net+defensive", "hoyle+defensive", "greedy+greedy", "random+random")

# Published per-deal averages for expert two-player six-card play and the first dealer's win rate
# (shared/data/README.md): (role, component) -> (low, high).  The literature's "play" is set beside both
# readings of it for the dealer: his pegging (play and go), and his pegging with his heels ("pegging+heels").
# Chambers' five parts (each side's play and hand, the crib) sum to his totals, 10.1 and 16.2, "the average
# for all five parts" (cribbage.org, John Chambers, tip 6), and the totals here hold the heels, so on that
# reading his dealer's play holds the heels, pegged at the cut as the play opens.
LITERATURE = {
    ("pone", "total"): (10.1, 10.3),
    ("pone", "pegging"): (2.0, 2.2),
    ("pone", "hand"): (8.0, 8.2),
    ("dealer", "total"): (16.2, 16.5),
    ("dealer", "pegging"): (3.5, 3.6),
    ("dealer", "pegging+heels"): (3.5, 3.6),
    ("dealer", "hand"): (7.9, 8.0),
    ("dealer", "crib"): (4.6, 5.0),
}
FIRST_DEALER_WINS = (0.55, 0.56)
LITERATURE_SOURCES = (
    "J. Chambers, Cribbage: A New Concept; D. Colvert, Twenty-Six Theory; Cribbage Pro "
    "(first dealer, several million human-played hands)"
)


def parse_combo(text: str) -> tuple[str, str]:
    """``"discard+peg"`` -> the two registered names (checked)."""
    discard, plus, peg = str(text).strip().partition("+")
    if not plus or not discard or not peg or "+" in peg:
        raise ValueError(f"a policy combo is DISCARD+PEG, e.g. expected_net+defensive; got {text!r}")
    resolve("discard", discard)
    resolve("peg", peg)
    return discard, peg


def _seats(rules, first, second):
    """Per-seat policies with ``first`` on side 0 and ``second`` on side 1."""
    combos = [first, second]
    seats = [combos[s % 2] for s in range(rules.players)]
    return {"discard": [c[0] for c in seats], "peg": [c[1] for c in seats]}


def _wins(rules, first, second, n_games, seed, threads, progress):
    """Games won by side 0 (``first``) in ``n_games`` games."""
    return int(
        play_games(
            rules, _seats(rules, first, second), n_games, seed, threads=threads, progress=progress
        ).side_wins.iloc[0]
    )


def round_robin(
    rules="six-card",
    combos=DEFAULT_COMBOS,
    n_games: int = 1_000,
    seed: int = 0,
    threads: int | None = None,
    progress: bool = False,
) -> pd.DataFrame:
    """Every pair of combos plays ``n_games`` games, each in each seat half the time (same seed).

    One row per ordered pair: ``combo, opponent, games, wins, rate, lo, hi`` (95% Wilson interval
    of ``combo``'s win rate); :func:`win_matrix` lays it out as a matrix.
    """
    rules = get_rules(rules)
    if rules.sides != 2:
        raise ValueError(f"a round robin needs two sides; {rules.name} has {rules.sides}")
    names = [str(c).strip() for c in combos]
    if len(names) < 2:
        raise ValueError("a round robin needs at least two policy combos")
    if len(set(names)) != len(names):
        raise ValueError(f"a policy combo is listed twice in {', '.join(names)}")
    parsed = {name: parse_combo(name) for name in names}
    if isinstance(n_games, bool) or not isinstance(n_games, (int, np.integer)) or n_games < 2:
        raise ValueError(f"the number of games per pair must be an integer of at least 2, got {n_games!r}")
    half = (n_games + 1) // 2
    rows = []
    for a, b in itertools.combinations(names, 2):
        wins = _wins(rules, parsed[a], parsed[b], half, seed, threads, progress)
        wins += (n_games - half) - _wins(rules, parsed[b], parsed[a], n_games - half, seed, threads, progress)
        for combo, opponent, w in ((a, b, wins), (b, a, n_games - wins)):
            rate, lo, hi = wilson(w, n_games)
            rows.append(
                {
                    "combo": combo,
                    "opponent": opponent,
                    "games": int(n_games),
                    "wins": w,
                    "rate": rate,
                    "lo": lo,
                    "hi": hi,
                }
            )
    frame = pd.DataFrame(rows)
    frame.attrs.update(rules=rules.name, seed=int(seed), games_per_pair=int(n_games), combos=names)
    return frame


def win_matrix(frame: pd.DataFrame) -> pd.DataFrame:
    """Win rate of the row combo against the column combo, the combos in the order given."""
    order = frame.attrs.get("combos") or list(dict.fromkeys(frame["combo"]))
    return frame.pivot(index="combo", columns="opponent", values="rate").reindex(index=order, columns=order)


def strength(
    rules="six-card",
    combo: str = "expected_net+defensive",
    n_deals: int = 200_000,
    n_games: int = 20_000,
    seed: int = 0,
    threads: int | None = None,
    progress: bool = False,
) -> pd.DataFrame:
    """Self-play of ``combo``: per-deal averages by role and component and the first dealer's win
    rate, each with a 95% interval, beside the published expert figures (:data:`LITERATURE`).

    Columns: ``combo, role, component, estimate, se, lo, hi, lit_lo, lit_hi, n``; the last row is
    the first dealer's win rate (role ``first dealer``, component ``wins``).
    """
    rules = get_rules(rules)
    if rules.active != 2:
        raise ValueError(
            f"the strength report is for two-handed play; {rules.name} has {rules.active} players in a deal"
        )
    discard, peg = parse_combo(combo)
    policies = {"discard": discard, "peg": peg}
    table = simulate_deals(rules, policies, n_deals, seed, threads=threads, progress=progress).table()
    literature = LITERATURE if rules == get_rules("six-card") else {}
    rows = []
    for role in ("dealer", "pone"):
        for component in ("total", "hand", "crib", "pegging", "pegging+heels", "play", "go", "heels"):
            if role == "pone" and component in ("crib", "heels", "pegging+heels"):
                continue
            parts = [table[(table.role == role) & (table.component == part)].iloc[0] for part in component.split("+")]
            # A sum's standard error is at most the sum of its parts' (no per-deal records are kept).
            mean, se = sum(p["mean"] for p in parts), sum(p["se"] for p in parts)
            lit = literature.get((role, component), (np.nan, np.nan))
            rows.append(
                {
                    "role": role,
                    "component": component,
                    "estimate": mean,
                    "se": se,
                    "lo": mean - Z95 * se,
                    "hi": mean + Z95 * se,
                    "lit_lo": lit[0],
                    "lit_hi": lit[1],
                    "n": int(parts[0]["n"]),
                }
            )
    games = play_games(rules, policies, n_games, seed, threads=threads, progress=progress)
    rate, lo, hi = wilson(games.first_dealer_wins, games.finished)
    lit = FIRST_DEALER_WINS if literature else (np.nan, np.nan)
    rows.append(
        {
            "role": "first dealer",
            "component": "wins",
            "estimate": rate,
            "se": np.sqrt(rate * (1 - rate) / games.finished),
            "lo": lo,
            "hi": hi,
            "lit_lo": lit[0],
            "lit_hi": lit[1],
            "n": games.finished,
        }
    )
    frame = pd.DataFrame(rows)
    frame.insert(0, "combo", combo)
    frame.attrs.update(rules=rules.name, seed=int(seed), sources=LITERATURE_SOURCES)
    return frame
