"""Loo's rules as data: one frozen, validated dataclass and the presets of docs/rules.md (Loo).

Mottoes "Three-Card Loo" and "Five-Card Loo", Sections 87-96 §95-96.  Every reading
where the seeds are silent is a field, so a user can change it:
``get_rules("three-card").replace(players=7)``.  Kernels see the flat int64
array of :meth:`Rules.to_kernel`, indexed by the ``R_*`` constants.

Money is counted in integer units.  The stake is divisible by the number of
tricks, so every pool is (each pool is a sum of stakes and of looes, and a looe
is a stake or a whole pool).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..core.rules import GameRules, preset

MIN_PLAYERS, MAX_PLAYERS = 3, 10
# The cut for deal: the lowest card deals, ace lowest, tens and court cards all ten (Sections 87-96 §96 ii).
CUT_ORDER = np.minimum((np.arange(52) >> 2) + 1, 10)
SINGLES = ("always-first", "stake-all")
PAMS = ("clubs", "trumps")
MAX_SESSION_ROUNDS = 100
MONEY_BOUND = 2**31  # the most a seat can win or lose in a session, so squares of totals stay in int64

# Kernel array layout.
(
    R_CARDS,
    R_PLAYERS,
    R_STAKE,
    R_UNLIMITED,
    R_LOO_LIMIT,
    R_STAKE_ALL,
    R_PAM_TRUMPS,
    R_PAM_CIVIL,
    R_ROUNDS,
    R_PAM_EXEMPT,
    R_SIZE,
) = range(11)


@dataclass(frozen=True)
class Rules(GameRules):
    """One variant of Loo.

    Attributes
    ----------
    cards
        3: three-card loo, a miss dealt (Mottoes "Three-Card Loo"); 5: five-card loo with
        Pam, exchanges from the pack and flushes (Mottoes "Five-Card Loo")
    players
        people at the table, 3 to 10 ("five or seven make the best game", Sections 87-96 §95)
    stake
        what the dealer puts into the pool, in money units; divisible by the tricks (3 or 5)
    unlimited
        a looed player pays as much as the pool held (unlimited loo) instead of the stake
    loo_limit
        unlimited loo: the most one looe costs (a table's means; it keeps money exact in int64)
    single
        a deal whose pool holds nothing carried over (the first deal, or after a deal in which
        nobody was looed): "always-first" deals a single (no miss, everyone must play),
        "stake-all" makes everyone stake as much as the dealer and deals a miss (Sections 87-96 §96 viii)
    pam
        five-card: Pam is the knave of clubs ("generally") or the knave of trumps ("sometimes")
    pam_be_civil
        five-card: when the ace of trumps is led, the holder of Pam may not play Pam on it
    pam_exempt
        five-card: a flush looes every other stander "except a player holding pam" (off: him too)
    session_rounds
        a session ("game") is this many rounds of deals, every seat dealing once a round, with
        the pool carried from deal to deal; the seeds set no end to a sitting, and whole rounds
        keep every seat's share of the deal equal
    """

    name: str
    cards: int = 3
    players: int = 5
    stake: int = 3
    unlimited: bool = False
    loo_limit: int = 3000
    single: str = "always-first"
    pam: str = "clubs"
    pam_be_civil: bool = True
    pam_exempt: bool = True
    session_rounds: int = 10

    def __post_init__(self):
        def bad(msg):
            raise ValueError(f"invalid rules {self.name!r}: {msg}")

        for field in ("cards", "players", "stake", "loo_limit", "session_rounds"):
            value = getattr(self, field)
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
                bad(f"{field} must be an integer, got {value!r}")
        for field in ("unlimited", "pam_be_civil", "pam_exempt"):
            if not isinstance(getattr(self, field), (bool, np.bool_)):
                bad(f"{field} must be true or false, got {getattr(self, field)!r}")
        if self.cards not in (3, 5):
            bad(f"cards must be 3 (three-card loo) or 5 (five-card loo), got {self.cards}")
        if not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            bad(f"players must be {MIN_PLAYERS} to {MAX_PLAYERS}, got {self.players}")
        if self.dealt + 1 > 52:
            bad(
                f"{self.players} hands of {self.cards}{' and the miss' if self.miss else ''} and the trump "
                f"need {self.dealt + 1} cards; the pack has 52"
            )
        if self.stake < 1 or self.stake % self.cards:
            bad(f"stake must be a positive multiple of {self.cards} (one share for each trick), got {self.stake}")
        if self.loo_limit < self.stake:
            bad(f"loo_limit must be at least the stake ({self.stake}), got {self.loo_limit}")
        if self.single not in SINGLES:
            bad(f"single must be one of {', '.join(SINGLES)}, got {self.single!r}")
        if self.pam not in PAMS:
            bad(f"pam must be one of {', '.join(PAMS)}, got {self.pam!r}")
        if not 1 <= self.session_rounds <= MAX_SESSION_ROUNDS:
            bad(f"session_rounds must be 1 to {MAX_SESSION_ROUNDS}, got {self.session_rounds}")
        if self.session_deals * self.players * (self.stake + self.worst_loo) > MONEY_BOUND:
            bad(f"a session could move more than {MONEY_BOUND:,} units: lower loo_limit, stake or session_rounds")

    @property
    def miss(self) -> bool:
        """Three-card loo deals a miss (an extra hand) except in a single."""
        return self.cards == 3

    @property
    def dealt(self) -> int:
        """Cards dealt before the trump is turned (hands and, in three-card, the miss)."""
        return self.cards * (self.players + self.miss)

    @property
    def worst_loo(self) -> int:
        """The most one player pays for being looed."""
        return self.loo_limit if self.unlimited else self.stake

    @property
    def session_deals(self) -> int:
        return self.session_rounds * self.players

    def to_kernel(self) -> np.ndarray:
        """The flat int64 array that kernels read (indices ``R_*``)."""
        arr = np.zeros(R_SIZE, dtype=np.int64)
        arr[R_CARDS] = self.cards
        arr[R_PLAYERS] = self.players
        arr[R_STAKE] = self.stake
        arr[R_UNLIMITED] = self.unlimited
        arr[R_LOO_LIMIT] = self.loo_limit
        arr[R_STAKE_ALL] = self.single == "stake-all"
        arr[R_PAM_TRUMPS] = self.pam == "trumps"
        arr[R_PAM_CIVIL] = self.pam_be_civil
        arr[R_ROUNDS] = self.session_rounds
        arr[R_PAM_EXEMPT] = self.pam_exempt
        return arr


PRESETS: dict[str, Rules] = {
    r.name: r
    for r in (
        Rules("three-card"),
        Rules("three-card-unlimited", unlimited=True),
        Rules("five-card-pam", cards=5, stake=5, loo_limit=5000),
        Rules("five-card-pam-unlimited", cards=5, stake=5, unlimited=True, loo_limit=5000),
    )
}


def get_rules(rules: str | Rules) -> Rules:
    """A preset by name, or the Rules given; unknown names raise ValueError listing the presets."""
    return preset(PRESETS, Rules, rules)
