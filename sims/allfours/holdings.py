"""The chance of each point by what a player holds when the play begins (issue 21, item 4).

For every player of a hand (Sections 87-96 §93: high, low, jack, game) the deal kernels, with the option
``holdings``, count the hands by what he holds in trumps when the play begins (after any running
of the cards, and any discarding to six) and the points his side then scores, for each of three
descriptions of his holding:

* ``trumps held``: how many trumps he holds (0 .. 6, "7 or more" after the cards were run);
* ``highest trump held``: his highest trump ("none", 2 .. A);
* ``holds the knave``: whether he holds the knave of trumps ("no", "yes").

:func:`tally` is the kernel's part, :func:`names` the rows of its counts in the batch's totals (scope
``holding``), and :func:`table` turns those totals into a table of rates with Wilson intervals.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..core.kernel import njit
from ..stats import wilson
from .cards import KNAVE, whist_rank
from .rules import PACK

TRUMP_BINS = 8  # 0 .. 6 trumps, then 7 or more
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")  # by whist_rank
BINS = (
    [("trumps held", str(k)) for k in range(TRUMP_BINS - 1)]
    + [("trumps held", f"{TRUMP_BINS - 1} or more")]
    + [("highest trump held", "none")]
    + [("highest trump held", r) for r in RANKS]
    + [("holds the knave", "no"), ("holds the knave", "yes")]
)
N_BINS = len(BINS)
TOP_BIN = TRUMP_BINS  # "none"; rank r at TOP_BIN + 1 + r
KNAVE_BIN = TRUMP_BINS + 1 + len(RANKS)
POINTS = ("high", "low", "jack", "game")
COUNTS = ("hands",) + POINTS


@njit(cache=True)
def tally(holder, trump, players, comp, out, row):
    """Add one hand to ``out[row + side role * N_BINS + bin, :]`` (hands, then high, low, jack and game scored by
    that side) for each player: ``holder[card]`` is the role the card in play was dealt to (-1: not in play),
    ``comp[side role, component]`` the points of the hand (components 2 .. 5: high, low, jack, game)."""
    for r in range(players):
        count, top, knave = 0, -1, 0
        for c in range(trump, PACK, 4):
            if holder[c] == r:
                count += 1
                top = max(top, whist_rank(c))
                if c >> 2 == KNAVE:
                    knave = 1
        s = r % 2
        for b in (min(count, TRUMP_BINS - 1), TOP_BIN + 1 + top, KNAVE_BIN + knave):
            out[row + s * N_BINS + b, 0] += 1
            for k in range(len(POINTS)):
                out[row + s * N_BINS + b, 1 + k] += comp[s, 2 + k]


def names(roles) -> list[str]:
    """The counts' rows, side role by side role and bin by bin: ``<role>/<held>/<value>`` (the totals' who)."""
    return [f"{role}/{held}/{value}" for role in roles for held, value in BINS]


def table(totals: pd.DataFrame) -> pd.DataFrame:
    """From a batch's totals: side (the dealer's or the eldest's), held, value, hands, and for each point its
    chance for the holder's side with the Wilson interval (``high``, ``high lo``, ``high hi``, ...)."""
    t = totals[totals["scope"] == "holding"]
    rows = []
    for who, group in t.groupby("who", sort=False):
        side, held, value = who.split("/")
        count = group.set_index("component")["sum"]
        row = {"side": side, "held": held, "value": value, "hands": int(count["hands"])}
        for point in POINTS:
            rate, lo, hi = wilson(int(count[point]), int(count["hands"])) if count["hands"] else (np.nan,) * 3
            row.update({point: rate, f"{point} lo": lo, f"{point} hi": hi})
        rows.append(row)
    return pd.DataFrame(rows)
