import os
import sys

# Numpy advises the kernel to back each large array with 2 MB pages, which the kernel then finds and zeroes when a
# page is first written.  The report plays some forty runs with a row per hand, each a new 100 MB or so dropped
# after its claim: faulted in 2 MB pages they cost 0.25 s of system time each (All Fours' 500,000 maxim hands,
# 1 thread), in 4 kB pages 0.05 s, the deals played as fast.  Read when numpy is imported, so set before it is.
os.environ.setdefault("NUMPY_MADVISE_HUGEPAGE", "0")

from .command import main  # noqa: E402  (after the setting above)

sys.exit(main())
