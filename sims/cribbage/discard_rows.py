"""The throws of a dealt hand and the advisor's rows (:mod:`sims.cribbage.discards`).

Every way to lay out cards for the crib with its exact figures (the expected hand and random-opponent crib,
the kept cards' points with each unseen starter); throws in classes of suit-equivalent throws (the same
ranks kept and thrown, and the same exact figures); the rows, best first, with the spread of each kept
hand over the starters (``hand_min``, ``hand_max``, ``hand_dist``, ``helps_most``).
"""

from __future__ import annotations

import numpy as np

from ..cards import format_card
from ..core.kernel import njit
from .contract import split_throw
from .crib_tables import RANK_LABELS
from .expectations import throw_expectations
from .scoring import PARTS, starter_shows

HELPS_MOST = 3  # starter ranks listed in ``helps_most``


@njit(cache=True)
def exact_figures(hand, n_throw, crib_flush_four, pool):
    """Every throw mask with its exact expected hand and random-opponent crib
    (:func:`throw_expectations`), and the kept cards' points with each starter of ``pool``."""
    masks, hand_mean, crib_mean = throw_expectations(hand, n_throw, crib_flush_four, True)
    n_kept = hand.shape[0] - n_throw
    kept = np.empty(n_kept, dtype=np.int64)
    thrown = np.empty(n_throw, dtype=np.int64)
    points = np.empty((masks.shape[0], pool.shape[0]), dtype=np.int64)
    parts = np.empty(PARTS, dtype=np.int64)
    for j in range(masks.shape[0]):
        split_throw(hand, masks[j], kept, thrown)
        starter_shows(kept, n_kept, pool, parts, points[j])
    return masks, hand_mean, crib_mean, points


def cards_of(hand, mask, thrown: bool) -> np.ndarray:
    """The cards ``mask`` throws (or keeps)."""
    return np.array([c for i, c in enumerate(hand) if bool((mask >> i) & 1) == thrown], dtype=np.int64)


def card_names(hand, mask, thrown: bool) -> list[str]:
    return [format_card(c) for c in cards_of(hand, mask, thrown)]


def throw_classes(hand, masks, crib_mean, points, pool, suits_matter, win=None) -> list[list[int]]:
    """Throws (indices into ``masks``) in classes of suit-equivalent throws (module docstring), in
    mask order; ``suits_matter`` (Bath flushes in a pegging estimate) keeps every kept hand apart;
    ``win``, the chances of winning, must agree too (to 1e-9)."""
    ranks = pool >> 2
    found: dict[tuple, list[int]] = {}
    for j, mask in enumerate(masks):
        kept = cards_of(hand, mask, False)
        key = (
            tuple(sorted(kept >> 2)),
            tuple(sorted(cards_of(hand, mask, True) >> 2)),
            float(crib_mean[j]),
            tuple(np.bincount(points[j])),
            tuple(np.bincount(ranks, weights=points[j], minlength=13)),
            tuple(kept) if suits_matter else (),
            () if win is None else round(float(win[j]), 9),
        )
        found.setdefault(key, []).append(j)
    return list(found.values())


WIN_DIGITS = 12  # chances of winning equal to this many digits are a tie (their sums differ in the 16th)


def advice_rows(hand, masks, points, pool, classes, columns, key, collapse) -> list[dict]:
    """The rows best first by ``columns[key]`` (ties by the expected hand; by the chance of winning, the one
    best choice of issue 34: ties, to :data:`WIN_DIGITS`, by the net, then the hand): one per class of
    suit-equivalent throws, or with ``collapse`` off one per throw, each with the figures of its class."""
    if collapse:
        layout = list(enumerate(classes))
    else:
        of = {j: c for c, group in enumerate(classes) for j in group}
        layout = [(of[j], [j] + [o for o in classes[of[j]] if o != j]) for j in range(len(masks))]

    def ranked(c):  # the key, a chance rounded off the noise of its sums
        return round(columns[key][c], WIN_DIGITS) if key == "win" else columns[key][c]

    then = ("net", "hand") if key == "win" else ("hand",)
    layout.sort(key=lambda item: (-ranked(item[0]), *(-columns[name][item[0]] for name in then)))
    best = columns[key][layout[0][0]]
    rows = []
    for place, (c, group) in enumerate(layout):
        tied = place > 0 and ranked(c) == ranked(layout[place - 1][0])
        kept_points = points[group[0]]
        row = {
            "rank": rows[-1]["rank"] if tied else place + 1,
            "thrown": card_names(hand, masks[group[0]], True),
            "kept": card_names(hand, masks[group[0]], False),
            "throws": len(group) if collapse else 1,
            "hand": float(columns["hand"][c]),
            "hand_min": int(kept_points.min()),
            "hand_max": int(kept_points.max()),
        }
        row.update({name: float(values[c]) for name, values in columns.items() if name != "hand"})
        row["vs_best"] = float(columns[key][c] - best)
        row["helps_most"] = helps_most(kept_points, pool)
        row["hand_dist"] = {int(p): int(n) for p, n in enumerate(np.bincount(kept_points)) if n}
        row["same_as"] = [card_names(hand, masks[j], True) for j in group[1:]]
        rows.append(row)
    return rows


def helps_most(points, pool) -> list[dict]:
    """The starter ranks giving the kept cards most points, on average over the rank's unseen cards."""
    ranks = pool >> 2
    held = np.bincount(ranks, minlength=13)
    mean = np.bincount(ranks, weights=points, minlength=13) / np.maximum(held, 1)
    top = sorted((r for r in range(13) if held[r]), key=lambda r: (-mean[r], r))[:HELPS_MOST]
    return [{"rank": RANK_LABELS[r], "points": float(mean[r]), "cards": int(held[r])} for r in top]
