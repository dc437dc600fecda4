"""The expert against the exact advisor (tests/*/test_expert_exact.py): the positions where one choice is strictly
best, and those of them in which the expert chooses another."""

import numpy as np

DECISIVE = 2_000  # positions in which one choice is strictly best, at the least


def missed_bests(positions, values_of, expert, decisive: int = DECISIVE) -> list:
    """Draw ``positions`` until ``decisive`` of them have one best choice by the advisor (``values_of(situation)``
    -> the choices' labels and exact values, over the same deals, so equal sums give equal means); return those
    in which the ``expert`` (a Player) chooses another: ``(situation, {label: value}, his choice)``."""
    found, missed = 0, []
    for situation in positions:
        if found == decisive:
            break
        labels, value = values_of(situation)
        if np.sort(value)[-2] == value.max():
            continue
        found += 1
        choice = expert.choose(situation)
        if value[labels.index(choice)] != value.max():
            missed.append((situation.describe(), dict(zip(labels, value)), choice))
    return missed
