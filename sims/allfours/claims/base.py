"""What both parts of section 9 (:mod:`~sims.allfours.claims.section`, the maxims and begging, and
:mod:`~sims.allfours.claims.laws`, the laws) stand on: the game, its rules and players, the strongest
players' share, the margin of a point per hand, and seat 0's net points per hand."""

from __future__ import annotations

import numpy as np
import pandas as pd

from sims.analysis.claims.model import more

GAME = "allfours"
RULES = "two-hand"
# Begging and answering by the hand's strength in trumps; the play by the four maxims (fast and sound).
MAIN = {"beg": "threshold", "answer": "threshold", "play": "maxims"}
STRONG_SHARE, STRONG_MIN = 400, 500  # the maxims against the expert: it searches, so 500 hands at report size
POINT_MARGIN = 0.01
POINT_WHY = (
    "a hundredth of a point a hand is under a tenth of a point over a game of ten (six or seven hands), "
    "about half a game in a hundred"
)
GAIN = more(0.0, POINT_MARGIN, POINT_WHY)


def seat_net(records: pd.DataFrame, seat: int = 0) -> np.ndarray:
    """Per hand of a two-handed deal run kept with records: ``seat``'s points minus his adversary's."""
    diff = (records["dealer_total"] - records["eldest_total"]).to_numpy(np.float64)
    return np.where(records["dealer"].to_numpy() == seat, diff, -diff)
