"""Board position: the chance of winning from every score, and players that play for the game (issue 12).

* :func:`shipped_table` and :func:`read_table` - the dealer's chance of winning and expected game points from
  every position before a deal (an :class:`OddsTable`, :mod:`.table`), from the tables that ship or a file;
* :func:`paired_match` - strength on common random numbers (:mod:`.match`);
* :func:`throw_win_chances` - each throw's chance of winning from a position (:mod:`.throws`).

The tables are built offline by :mod:`sims.cribbage.lab.odds` (deal timings, backward induction, the
position-aware players' iteration, the direct check).  The names load on first use, so importing the package
compiles no kernel.
"""

from __future__ import annotations

import importlib

_LAZY = {
    "read_table": ".table",
    "shipped_table": ".table",
    "OddsTable": ".table",
    "paired_match": ".match",
    "throw_win_chances": ".throws",
}
__all__ = sorted(_LAZY)


def __getattr__(name):
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name], __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
