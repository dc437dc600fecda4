"""Rules as data: one frozen, validated dataclass and the presets of docs/rules.md.

Every nuance the seeds disagree on is a named field, so a user can change it:
``PRESETS["six-card-61"].replace(bath_flush=True)``.  Kernels see the flat
int64 array from :meth:`Rules.to_kernel`, indexed by the ``R_*`` constants.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..core.rules import GameRules, preset

CRIB_SIZE = 4
MAX_SEATS = 4
CUT_ORDER = np.arange(52) >> 2  # the cut for deal: the lowest card deals, ace low (Mottoes)
MAX_TARGET = 10_000  # scores are logged as int16

# Kernel array layout.
(
    R_PLAYERS,
    R_ACTIVE,
    R_DEALT,
    R_THROW,
    R_KEPT,
    R_FROM_PACK,
    R_TARGET,
    R_PARTNERS,
    R_THREE_FOR_LAST,
    R_ONE_COUNT,
    R_BATH,
    R_CRIB_FLUSH_FOUR,
    R_LURCH,
    R_DOUBLE_LURCH,
    R_SIT_OUT,
    R_SIZE,
) = range(16)


@dataclass(frozen=True)
class Rules(GameRules):
    """One cribbage variant.

    players         people at the table (2, 3 or 4)
    cards_dealt     cards dealt to each player in a deal
    throw           cards each player lays out for the crib
    crib_from_pack  cards the dealer adds to the crib from the pack (three-hand: 1)
    target          points that win (61 or 121); the game ends the instant a side reaches it
    partners        four-hand: players opposite are partners and score together
    sit_out         three-rotation (Sections 87-96 §88): each deal two play and the previous dealer sits out
    three_for_last  the first non-dealer scores 3 at the start of the game (five-card)
    one_count       the play ends at the first go (two-handed five-card)
    bath_flush      Rules of Cribbage, rule 11: suit runs of 3+ laid in succession score in the play
    crib_flush_four the period option that a four-card crib flush counts without the starter
    lurch           the loser is lurched (period) / skunked (modern) below this score
    double_lurch    double skunk threshold (0: none)
    """

    name: str
    players: int
    cards_dealt: int
    throw: int
    crib_from_pack: int = 0
    target: int = 121
    partners: bool = False
    sit_out: bool = False
    three_for_last: bool = False
    one_count: bool = False
    bath_flush: bool = False
    crib_flush_four: bool = False
    lurch: int = 91
    double_lurch: int = 61

    def __post_init__(self):
        def bad(msg):
            raise ValueError(f"invalid rules {self.name!r}: {msg}")

        for field in ("players", "cards_dealt", "throw", "crib_from_pack", "target", "lurch", "double_lurch"):
            value = getattr(self, field)
            if isinstance(value, bool) or not isinstance(value, int):
                bad(f"{field} must be an integer, got {value!r}")
        if not 2 <= self.players <= MAX_SEATS:
            bad(f"players must be 2, 3 or 4, got {self.players}")
        if self.throw < 1 or self.crib_from_pack < 0:
            bad("each player must throw at least one card and the pack cannot give a negative number")
        if self.kept < 1:
            bad(f"players keep {self.kept} cards; they must keep at least one")
        if self.crib_cards != CRIB_SIZE:
            bad(f"the crib must have {CRIB_SIZE} cards, these rules make {self.crib_cards}")
        if self.active * self.cards_dealt + self.crib_from_pack + 1 > 52:
            bad("more cards dealt than the pack holds")
        if self.partners and self.players != 4:
            bad("partners need four players")
        if self.sit_out and self.players != 3:
            bad("sitting out in rotation needs three players")
        if not 1 <= self.target <= MAX_TARGET:
            bad(f"target must be 1 to {MAX_TARGET}, got {self.target}")
        if not 0 <= self.double_lurch <= self.lurch <= self.target:
            bad(
                f"need 0 <= double_lurch <= lurch <= target, got double_lurch {self.double_lurch}, "
                f"lurch {self.lurch}, target {self.target}"
            )

    @property
    def active(self) -> int:
        """Players who take part in one deal (two in three-rotation)."""
        return 2 if self.sit_out else self.players

    @property
    def kept(self) -> int:
        """Cards kept in hand for the play and the show."""
        return self.cards_dealt - self.throw

    @property
    def crib_cards(self) -> int:
        return self.active * self.throw + self.crib_from_pack

    @property
    def sides(self) -> int:
        """Scoring sides: teams in four-hand, else players."""
        return 2 if self.partners else self.players

    def to_kernel(self) -> np.ndarray:
        """The flat int64 array that kernels read (indices ``R_*``)."""
        arr = np.zeros(R_SIZE, dtype=np.int64)
        arr[R_PLAYERS] = self.players
        arr[R_ACTIVE] = self.active
        arr[R_DEALT] = self.cards_dealt
        arr[R_THROW] = self.throw
        arr[R_KEPT] = self.kept
        arr[R_FROM_PACK] = self.crib_from_pack
        arr[R_TARGET] = self.target
        arr[R_PARTNERS] = self.partners
        arr[R_THREE_FOR_LAST] = self.three_for_last
        arr[R_ONE_COUNT] = self.one_count
        arr[R_BATH] = self.bath_flush
        arr[R_CRIB_FLUSH_FOUR] = self.crib_flush_four
        arr[R_LURCH] = self.lurch
        arr[R_DOUBLE_LURCH] = self.double_lurch
        arr[R_SIT_OUT] = self.sit_out
        return arr


PRESETS: dict[str, Rules] = {
    r.name: r
    for r in (
        Rules(
            "five-card",
            players=2,
            cards_dealt=5,
            throw=2,
            target=61,
            three_for_last=True,
            one_count=True,
            lurch=31,
            double_lurch=0,
        ),
        Rules("six-card", players=2, cards_dealt=6, throw=2, target=121, lurch=91, double_lurch=61),
        Rules("six-card-61", players=2, cards_dealt=6, throw=2, target=61, lurch=31, double_lurch=0),
        Rules("eight-card", players=2, cards_dealt=8, throw=2, target=121, lurch=91, double_lurch=61),
        Rules("three-hand", players=3, cards_dealt=5, throw=1, crib_from_pack=1, target=61, lurch=31, double_lurch=0),
        Rules("three-rotation", players=3, cards_dealt=6, throw=2, target=61, sit_out=True, lurch=31, double_lurch=0),
        Rules("four-hand", players=4, cards_dealt=5, throw=1, target=121, partners=True, lurch=91, double_lurch=61),
    )
}


def get_rules(rules: str | Rules) -> Rules:
    """A preset by name, or the Rules given; unknown names raise ValueError listing the presets."""
    return preset(PRESETS, Rules, rules)
