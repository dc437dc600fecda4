"""What the timing kernel records and where: names and sizes shared by the kernel (:mod:`.timings`), the
induction, the files and the position-aware players, and the players whose tables ship, in a module that
compiles nothing and imports nothing (the command line reads it at start)."""

# The three count tables of a deal (:mod:`.timings`) and their names in a Batch.
DEALER, PONE, TOTALS = 0, 1, 2
TABLE_NAMES = ("dealer reaches", "pone reaches", "deal totals")

# An event list: rows, and the kinds of event.
ROLE, POINTS, KIND, LAID, EV_ROWS = range(5)
HEELS, PEGGING, SHOW = range(3)
MAX_EVENTS = 48                     # heels, two events per card laid, the go, three shows

# The deal model.
PEG_BINS = 32                       # pegging points of a side in a deal, 31 and more in the last bin
SHOW_BINS = 32                      # points of a hand or a crib (at most 29)
N_RANKS = 13

# The players whose self-play the shipped tables describe, by the name ``sims odds --players`` takes: the policy
# of each decision (both seats).  The position-aware players' table is their own iterated table (:mod:`.position`).
PLAYERS = {"expected_net+defensive": {"discard": "expected_net", "peg": "defensive"},
           "expected_peg+distilled": {"discard": "expected_peg", "peg": "distilled"},
           "position_distilled": {"discard": "position_distilled", "peg": "position_distilled"}}
POSITION_PLAYERS = "position_distilled"         # their table: the iteration table -> players -> table
# The players of the first tables (``<preset>.parquet``): ``shipped_table`` reads them unless told otherwise,
# ``win_table`` plays them by default, and the position players' vectors are made from them.
BASE_PLAYERS = "expected_net+defensive"
# The table ``sims odds`` (and ``--build``) and ``sims discard --score`` use when no players are asked for: the
# game's default players (what ``sims play`` plays without a policy flag), the strongest whose table is within
# +-0.5 percentage points everywhere (the position players' own table is far noisier near home).
DEFAULT_PLAYERS = "expected_peg+distilled"
