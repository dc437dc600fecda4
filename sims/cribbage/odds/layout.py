"""What the timing kernel records and where: names and sizes shared by the kernel (:mod:`.timings`), the
induction, the files and the position-aware players, in a module that compiles nothing."""

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
