"""Board position: the chance of winning from every score, and players that play for the game (issue 12).

* :func:`win_table` - the dealer's chance of winning and expected game points from every position before
  a deal, by backward induction over deal timings (:mod:`.timings`, :mod:`.induction`, :mod:`.table`), with
  jackknife intervals; :func:`shipped_table` and :func:`read_table` for tables on file;
* :func:`games_from` - whole games played on from positions, the direct check (:mod:`.direct`);
* :func:`position_table` and :func:`iterate_position` - the table of the position-aware players
  (:mod:`sims.cribbage.policies.position`) and the iteration table -> players -> table (:mod:`.position`);
* :func:`paired_match` - strength on common random numbers (:mod:`.match`);
* :func:`throw_win_chances` - each throw's chance of winning from a position (:mod:`.throws`).

The names load on first use, so importing the package compiles no kernel.
"""

from __future__ import annotations

import importlib

_LAZY = {
    "win_table": ".table",
    "read_table": ".table",
    "shipped_table": ".table",
    "OddsTable": ".table",
    "games_from": ".direct",
    "position_table": ".position",
    "iterate_position": ".position",
    "paired_match": ".match",
    "throw_win_chances": ".throws",
}
__all__ = sorted(_LAZY)


def __getattr__(name):
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name], __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
