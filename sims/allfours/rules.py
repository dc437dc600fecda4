"""All Fours rules as data: one frozen, validated dataclass and the presets of docs/rules.md.

Sections 87-96 §91-94 and Mottoes ("Laws of All-Fours") give the game; where they are
silent docs/rules.md chooses a reading, and each reading is a field here, so a
user can change it: ``PRESETS["two-hand"].replace(game_tie="dealer")``.  Kernels
see the flat int64 array of :meth:`Rules.to_kernel`, indexed by the ``R_*`` constants.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..core.rules import GameRules, preset

HAND = 6  # cards dealt to each player, three at a time (Sections 87-96 §91)
PACKET = 3  # cards given to each player at a time, and when the cards are run (§93 v)
PACK = 52
GAME_TIES = ("none", "eldest", "dealer")

# Kernel array layout.
(
    R_PLAYERS,
    R_TARGET,
    R_BEGGING,
    R_RUN_KNAVES,
    R_DISCARD_TO_SIX,
    R_GAME_TIE,
    R_MAY_TRUMP,
    R_MAX_RUNS,
    R_HAND_MAX,
    R_BEGS,
    R_SIZE,
) = range(11)
MAX_BEGS = 10
MAX_TARGET = 1000  # the highest target a game may be played to


def max_runs(players: int) -> int:
    """Times the cards can be run before the pack is short: the deal and the turn take 6n + 1 cards,
    each run 3n + 1 more (RULES.md: a run the pack cannot supply means a new deal)."""
    return (PACK - (HAND * players + 1)) // (PACKET * players + 1)


@dataclass(frozen=True)
class Rules(GameRules):
    """One All Fours variant (RULES.md, All Fours).

    Attributes
    ----------
    players
        2, or 4 playing as partners (seats opposite: 0 and 2 against 1 and 3)
    target
        points that win (10; seven-up 7); the game ends the moment a side reaches it
    begging
        the eldest may beg (Sections 87-96 §93 v); off: every hand is played on the first trump
    run_knaves
        each knave turned while running the cards scores 1 to the dealer, like the first
    discard_to_six
        after the cards are run each player keeps six (the later custom); off: all are played
    game_tie
        who scores game on equal totals: "none" (RULES.md), "eldest" or "dealer"
    may_trump
        law iii: a player holding the suit led may follow it *or trump*; off: he must follow
    begs
        times the eldest may beg in a deal: law ii, "no person can beg more than once in each hand,
        except by mutual agreement" (1); 2 or more: after the cards are run and a new trump turned he
        may beg again, and the dealer gives one or runs them again until a suit other than the one
        begged on turns up
    """

    name: str
    players: int = 2
    target: int = 10
    begging: bool = True
    run_knaves: bool = True
    discard_to_six: bool = False
    game_tie: str = "none"
    may_trump: bool = True
    begs: int = 1

    def __post_init__(self):
        def bad(msg):
            raise ValueError(f"invalid rules {self.name!r}: {msg}")

        for field in ("players", "target", "begs"):
            value = getattr(self, field)
            if isinstance(value, bool) or not isinstance(value, int):
                bad(f"{field} must be an integer, got {value!r}")
        for field in ("begging", "run_knaves", "discard_to_six", "may_trump"):
            if not isinstance(getattr(self, field), bool):
                bad(f"{field} must be true or false, got {getattr(self, field)!r}")
        if self.players not in (2, 4):
            bad(f"players must be 2, or 4 playing as partners, got {self.players}")
        if not 1 <= self.target <= MAX_TARGET:
            bad(f"target must be 1 .. {MAX_TARGET}, got {self.target}")
        if not 1 <= self.begs <= MAX_BEGS:
            bad(f"begs must be 1 (law ii) .. {MAX_BEGS}, got {self.begs}")
        if self.game_tie not in GAME_TIES:
            bad(f"game_tie must be one of {', '.join(GAME_TIES)}, got {self.game_tie!r}")

    @property
    def sides(self) -> int:
        """Scoring sides: always two (two players, or two partnerships)."""
        return 2

    @property
    def partners(self) -> bool:
        return self.players == 4

    @property
    def hand_max(self) -> int:
        """The most cards a player can hold: six, and three more for every time the cards are run."""
        return HAND + PACKET * max_runs(self.players)

    def to_kernel(self) -> np.ndarray:
        """The flat int64 array that kernels read (indices ``R_*``)."""
        arr = np.zeros(R_SIZE, dtype=np.int64)
        arr[R_PLAYERS] = self.players
        arr[R_TARGET] = self.target
        arr[R_BEGGING] = self.begging
        arr[R_RUN_KNAVES] = self.run_knaves
        arr[R_DISCARD_TO_SIX] = self.discard_to_six
        arr[R_GAME_TIE] = GAME_TIES.index(self.game_tie)
        arr[R_MAY_TRUMP] = self.may_trump
        arr[R_MAX_RUNS] = max_runs(self.players)
        arr[R_HAND_MAX] = self.hand_max
        arr[R_BEGS] = self.begs
        return arr


PRESETS: dict[str, Rules] = {
    r.name: r
    for r in (
        Rules("two-hand"),  # Sections 87-96 §91: "usually played by two persons"; ten points
        Rules("four-hand", players=4),  # "not unfrequently by four": partners opposite
        Rules("seven-up", target=7),
    )
}


def get_rules(rules: str | Rules) -> Rules:
    """A preset by name, or the Rules given; unknown names raise ValueError listing the presets."""
    return preset(PRESETS, Rules, rules)
