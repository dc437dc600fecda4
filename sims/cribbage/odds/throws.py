"""Each throw's chance of winning the game from a board position (for ``sims discard --score``).

The chance is the position-aware discard's own value of the throw
(:mod:`sims.cribbage.policies.position`): exact over the starters the player has
not seen, the rest of the deal from the deal model of the board-position table
in counting order, then the table's chance from the new scores with the deal
passed.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from ...cards import format_cards, parse_cards
from ..rules import get_rules


def throw_win_chances(hand, role: str, dealer_score: int, pone_score: int, rules="six-card",
                      tables=()) -> pd.DataFrame:
    """For every throw of ``hand`` (``role`` ``dealer`` or ``pone``) before a deal from ``dealer_score`` to
    ``pone_score``: ``thrown, kept`` (as :func:`sims.cribbage.discards.analyze_discards` writes them) and
    ``win``, the player's chance of winning the game; best first.  ``tables``: board-position tables to use
    instead of the shipped ones (:func:`sims.cribbage.policies.position.position_vector`)."""
    from ..contract import next_throw
    from ..policies import position

    rules = get_rules(rules)
    cards = parse_cards(hand)
    if len(cards) != rules.cards_dealt:
        raise ValueError(f"{rules.name} deals {rules.cards_dealt} cards to each player, got {len(cards)}")
    values = position.position_vector(tables)
    ix = position.section(values, rules.to_kernel())
    if ix[position.X_T] < 0 or rules.throw != 2:
        raise ValueError(f"no board-position table for rules {rules.name!r}; tables ship for "
                         f"{', '.join(position.PRESETS)}")
    if role not in ("dealer", "pone"):
        raise ValueError(f"role must be dealer or pone, got {role!r}")
    for who, score in (("dealer", dealer_score), ("pone", pone_score)):
        if isinstance(score, bool) or not isinstance(score, (int, np.integer)) or not 0 <= score < rules.target:
            raise ValueError(f"the {who}'s score must be an integer 0..{rules.target - 1} for a game to "
                             f"{rules.target}, got {score!r}")
    arr = np.asarray(cards, dtype=np.int64)
    starters = np.asarray([c for c in range(52) if c not in cards], dtype=np.int64)
    masks = []
    mask = next_throw(-1, len(cards), 2)
    while mask >= 0:
        masks.append(mask)
        mask = next_throw(mask, len(cards), 2)
    masks = np.asarray(masks, dtype=np.int64)
    win = np.empty(len(masks))
    if role == "dealer":
        position.dealer_throw_values(arr, values, ix, dealer_score, pone_score, masks, starters, win)
    else:
        position.pone_throw_values(arr, values, ix, pone_score, dealer_score, masks, starters, win)
    frame = pd.DataFrame({
        "thrown": [format_cards(c for i, c in enumerate(cards) if (m >> i) & 1) for m in masks],
        "kept": [format_cards(c for i, c in enumerate(cards) if not (m >> i) & 1) for m in masks],
        "win": win})
    frame = frame.sort_values("win", ascending=False, kind="stable").reset_index(drop=True)
    frame.attrs.update(rules=rules.name, role=role, dealer_score=int(dealer_score), pone_score=int(pone_score))
    return frame
