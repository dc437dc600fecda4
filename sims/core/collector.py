"""Python's garbage collector while sims loads its kernels.

The first kernels a process loads (numba's registries, the cached kernels and the policies they call) make some
10^5 objects that live as long as the process; Python's default collects the youngest generation every 700 new
objects, so it walks them about 150 times (0.1 s of CPU before a first simulated deal).  The command line
collects every :data:`YOUNG` new objects while a command runs; a Python call that plays a job does the same for
its own duration (:func:`young_collections_every`), and puts the collector back as it found it.
"""

from __future__ import annotations

import gc
from contextlib import contextmanager

YOUNG = 400_000  # objects made between two collections of the youngest generation while sims works


@contextmanager
def young_collections_every(objects: int = YOUNG):
    """Inside the block the youngest generation is collected every ``objects`` new objects (unless the process
    already collects less often, or not at all); after it, as before."""
    previous = gc.get_threshold()
    if previous[0] == 0 or previous[0] >= objects:
        yield
        return
    gc.set_threshold(objects, *previous[1:])
    try:
        yield
    finally:
        gc.set_threshold(*previous)
