"""Progress bars: tqdm's (a widget in a notebook, a line on standard error elsewhere), shown only for work
that runs longer than a moment, so that a quick command or a log of one prints no bar."""

from __future__ import annotations

import sys

DELAY = 2.0  # seconds of work before a bar appears


def progress_bar(iterable=None, **options):
    """A ``tqdm.auto`` bar that appears after :data:`DELAY` seconds (tqdm is imported only when a bar is made;
    outside IPython, where no notebook can be, tqdm's plain bar: ``tqdm.auto`` would import asyncio for nothing)."""
    if "IPython" in sys.modules:
        from tqdm.auto import tqdm
    else:
        from tqdm.std import tqdm

    return tqdm(iterable, delay=DELAY, **options)
