"""Triumph's rules as data, and what its policies see (the decision's signature and the state layout).

A plain member of the Triumph (ruff) family of trick games, kept small for the example: each player is dealt
``cards`` cards, the next card is turned up for trumps; the eldest (left of the dealer) leads; a player must follow
suit if he can, else may trump or throw any card; the highest trump wins the trick, else the highest card of the suit
led (aces high); the winner leads the next. A deal scores a point a trick, and a trump-trick for each trick won with
a trump; a game is dealt round to the left until a player has taken ``target`` tricks (more than a deal has), and he
wins it."""

from dataclasses import dataclass

import numpy as np
from numba import types

from sims.core.rules import GameRules

MAX_SEATS = 4
S_TRUMP, S_LED, S_BEST, S_SEAT, S_TURNED, S_SIZE = range(6)  # the state a policy sees (S_LED, S_BEST: -1 leading)
CARD_SIG = types.int64(types.int64[::1], types.int64[::1], types.int64[::1], types.uint64[::1], types.float64[::1])


@dataclass(frozen=True)
class Rules(GameRules):
    name: str = "two-hand"
    players: int = 2
    cards: int = 5
    target: int = 7

    def __post_init__(self):
        if not 2 <= self.players <= MAX_SEATS:
            raise ValueError(f"players must be 2..{MAX_SEATS}, got {self.players}")
        if not 1 <= self.cards <= 51 // self.players:
            raise ValueError(f"cards must be 1..{51 // self.players} for {self.players} players, got {self.cards}")
        if self.target <= self.cards:
            raise ValueError(f"target must be more tricks than a deal's {self.cards}, got {self.target}")

    def to_kernel(self) -> np.ndarray:
        return np.array([self.players, self.cards, self.target], dtype=np.int64)


R_PLAYERS, R_CARDS, R_TARGET = range(3)
PRESETS = {r.name: r for r in (Rules(), Rules("four-hand", players=4))}
