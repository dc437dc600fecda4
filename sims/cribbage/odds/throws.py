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
from .layout import DEFAULT_PLAYERS
from .table import shipped_table


def throw_win_chances(
    hand, role: str, dealer_score: int, pone_score: int, rules="six-card", tables=(), players: str = DEFAULT_PLAYERS
) -> pd.DataFrame:
    """For every throw of ``hand`` (``role`` ``dealer`` or ``pone``) before a deal from ``dealer_score`` to
    ``pone_score``: ``thrown, kept`` (as :func:`sims.cribbage.discards.analyze_discards` writes them) and
    ``win``, the player's chance of winning the game, with ``win_se`` (an upper bound on the standard error
    that the board-position table's sampling gives it) and the 95% interval ``win_lo, win_hi`` (Student's t,
    as the table's own intervals); best first.  ``players``: whose self-play the table describes, among the
    shipped tables (:data:`sims.cribbage.odds.layout.PLAYERS`); ``tables``: board-position tables to use
    instead of the shipped ones (:func:`sims.cribbage.policies.position.position_vector`)."""
    from ..contract import next_throw
    from ..policies import position

    rules = get_rules(rules)
    cards = parse_cards(hand)
    if len(cards) != rules.cards_dealt:
        raise ValueError(f"{rules.name} deals {rules.cards_dealt} cards to each player, got {len(cards)}")
    preset = preset_of(rules)
    by_preset = position.preset_tables([*([] if preset is None else [shipped_table(preset, players)]), *tables])
    values = np.concatenate([position.position_params(table) for table in by_preset.values()])
    ix = position.section(values, rules.to_kernel())
    if ix[position.X_T] < 0 or rules.throw != 2:
        raise ValueError(
            f"no board-position table for rules {rules.name!r}; tables ship for {', '.join(position.PRESETS)}"
        )
    if role not in ("dealer", "pone"):
        raise ValueError(f"role must be dealer or pone, got {role!r}")
    for who, score in (("dealer", dealer_score), ("pone", pone_score)):
        if isinstance(score, bool) or not isinstance(score, (int, np.integer)) or not 0 <= score < rules.target:
            raise ValueError(
                f"the {who}'s score must be an integer 0..{rules.target - 1} for a game to "
                f"{rules.target}, got {score!r}"
            )
    arr = np.asarray(cards, dtype=np.int64)
    starters = np.asarray([c for c in range(52) if c not in cards], dtype=np.int64)
    masks = []
    mask = next_throw(-1, len(cards), 2)
    while mask >= 0:
        masks.append(mask)
        mask = next_throw(mask, len(cards), 2)
    masks = np.asarray(masks, dtype=np.int64)
    table = by_preset[preset]
    win = _throw_values(arr, role, dealer_score, pone_score, masks, starters, values, ix)
    moved = shifted_by_error(values, ix, table)
    win_se = np.abs(_throw_values(arr, role, dealer_score, pone_score, masks, starters, moved, ix) - win)
    half = table.half_width * win_se
    frame = pd.DataFrame(
        {
            "thrown": [format_cards(c for i, c in enumerate(cards) if (m >> i) & 1) for m in masks],
            "kept": [format_cards(c for i, c in enumerate(cards) if not (m >> i) & 1) for m in masks],
            "win": win,
            "win_se": win_se,
            "win_lo": np.clip(win - half, 0, 1),
            "win_hi": np.clip(win + half, 0, 1),
        }
    )
    frame = frame.sort_values("win", ascending=False, kind="stable").reset_index(drop=True)
    frame.attrs.update(rules=rules.name, role=role, dealer_score=int(dealer_score), pone_score=int(pone_score))
    return frame


def _throw_values(hand, role, dealer_score, pone_score, masks, starters, values, ix) -> np.ndarray:
    """Each throw's chance of winning (:mod:`sims.cribbage.policies.position_throw`) from the sections ``values``."""
    from ...core.kernel import read_only
    from ..policies import position_throw

    win = np.empty(len(masks))
    hand, values = read_only(hand), read_only(values)  # as the position-aware discard sees them
    if role == "dealer":
        position_throw.dealer_throw_values(hand, values, ix, dealer_score, pone_score, masks, starters, win)
    else:
        position_throw.pone_throw_values(hand, values, ix, pone_score, dealer_score, masks, starters, win)
    return win


def preset_of(rules):
    """The preset of :data:`sims.cribbage.policies.position.PRESETS` whose kernel rules are ``rules``', or None."""
    from ..policies import position

    return next((p for p in position.PRESETS if get_rules(p).to_kernel().tolist() == rules.to_kernel().tolist()), None)


def shifted_by_error(values: np.ndarray, ix: np.ndarray, table) -> np.ndarray:
    """A copy of the position-aware players' ``values`` (:func:`sims.cribbage.policies.position.section` ``ix``)
    with every cell of ``table``'s chance of winning moved up by its standard error.  The cells enter a chance
    of winning after a deal with weights summing to at most one, all with the same sign (the pone's chance is
    W, the dealer's 1 - W after the deal), so the chance moves by the weighted sum of the cells' standard
    errors: an upper bound on its standard error (reached when the cells' errors are fully correlated)."""
    from ..policies import position

    t, w = ix[position.X_T], ix[position.X_W]
    moved = values.copy()
    moved[w : w + t * t] += table.win_se.ravel()
    return moved
