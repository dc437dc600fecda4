"""Building the board-position tables (:mod:`sims.cribbage.odds`) offline.

* :mod:`.build` - :func:`~.build.win_table`: deals played by the timing engine (:mod:`.timings`), every
  position filled by backward induction with jackknife intervals (:mod:`.induction`);
* :mod:`.position` - the table of the position-aware players and the iteration table -> players -> table;
* :mod:`.direct` - whole games played on from positions, the direct check of a table;
* :mod:`.rebuild` - the tables that ship, rebuilt.
"""
