"""What the timing kernel records and where: names and sizes shared by the kernel
(:mod:`sims.cribbage.lab.odds.timings`), the induction, the files and the position-aware players, and the players
whose tables ship (and which of them a command means), in a module that compiles nothing and imports nothing (the
command line reads it at start)."""

# The three count tables of a deal (:mod:`sims.cribbage.lab.odds.timings`) and their names in a Batch.
DEALER, PONE, TOTALS = 0, 1, 2
TABLE_NAMES = ("dealer reaches", "pone reaches", "deal totals")

# An event list: rows, and the kinds of event.
ROLE, POINTS, KIND, LAID, EV_ROWS = range(5)
HEELS, PEGGING, SHOW = range(3)
MAX_EVENTS = 48  # heels, two events per card laid, the go, three shows

# The deal model.
PEG_BINS = 32  # pegging points of a side in a deal, 31 and more in the last bin
SHOW_BINS = 32  # points of a hand or a crib (at most 29)
N_RANKS = 13

# The players whose self-play the shipped tables describe, by the name ``sims odds --players`` takes: the policy
# of each decision (both seats).  The position-aware players' table is their own iterated table
# (:mod:`sims.cribbage.lab.odds.position`).
PLAYERS = {
    "expected_net+defensive": {"discard": "expected_net", "peg": "defensive"},
    "expected_peg+distilled": {"discard": "expected_peg", "peg": "distilled"},
    "position_distilled": {"discard": "position_distilled", "peg": "position_distilled"},
}
POSITION_PLAYERS = "position_distilled"  # their table: the iteration table -> players -> table
# The players of the first tables (``<preset>.parquet``): ``shipped_table`` reads them unless told otherwise,
# ``lab.odds.build.win_table`` plays them by default, and the position players' vectors are made from them.
BASE_PLAYERS = "expected_net+defensive"
# The table ``sims odds`` (and ``--build``), ``sims discard --score`` and ``sims peg --score`` use when no players
# are asked for (nor a policy that other players' tables describe): the game's default players (what ``sims play``
# plays without a policy flag), the strongest whose table is within +-0.5 percentage points everywhere (the
# position players' own table is far noisier near home).
DEFAULT_PLAYERS = "expected_peg+distilled"


def check_players(players: str) -> str:
    """The name of a set of shipped tables (:data:`PLAYERS`); else a one-line error."""
    if players not in PLAYERS:
        raise ValueError(f"no tables ship for the players {players!r}; they ship for {', '.join(PLAYERS)}")
    return players


def _fitting(asked: dict) -> list[str]:
    return [name for name, policies in PLAYERS.items() if all(policies[d] == n for d, n in asked.items())]


def table_ships(**asked) -> bool:
    """Whether a table ships for players who play as asked (``discard=``, ``peg=``: policy names)."""
    return bool(_fitting(asked))


def players_of(players: str | None = None, **asked) -> str:
    """The players of the shipped tables (:data:`PLAYERS`) named ``players``, checked against the policy of each
    decision asked for (``discard=``, ``peg=``: a name, or None for any); without a name, the players who play
    as asked (:data:`DEFAULT_PLAYERS` when they do).  Else a one-line error."""
    asked = {decision: name for decision, name in asked.items() if name is not None}
    if players is not None:
        check_players(players)
        for decision, name in asked.items():
            if PLAYERS[players][decision] != name:
                raise ValueError(f"the players {players} {decision} by {PLAYERS[players][decision]}, not {name}")
        return players
    fits = _fitting(asked)
    if not fits:
        wanted = " and ".join(f"{d} by {n}" for d, n in asked.items())
        raise ValueError(
            f"no board-position table ships for {wanted}; tables ship for the self-play of {', '.join(PLAYERS)}"
        )
    return DEFAULT_PLAYERS if DEFAULT_PLAYERS in fits else fits[0]
