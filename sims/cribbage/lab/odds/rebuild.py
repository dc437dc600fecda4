"""Rebuilding the board-position tables that ship with the package (``python -c "from
sims.cribbage.lab.odds.rebuild import build_shipped; build_shipped(players=...)"``): above both the tables
(:mod:`sims.cribbage.lab.odds.build`) and the position players' iteration (:mod:`sims.cribbage.lab.odds.position`),
which reads the tables."""

from __future__ import annotations

from ...odds.layout import BASE_PLAYERS, PLAYERS, POSITION_PLAYERS, check_players
from ...odds.table import SHIPPED, _shipped_file
from .build import DEFAULT_DEALS, win_table
from .position import iterate_position


def build_shipped(
    n_deals: int = DEFAULT_DEALS,
    seed: int = 0,
    presets=SHIPPED,
    threads: int | None = None,
    players: str = BASE_PLAYERS,
    **iteration,
) -> list:
    """Rebuild the tables that ship with the package for ``players`` (quantized Parquet and the deal model beside
    each); the position players' table is iterated from the table of the players they play as far from home
    (:func:`sims.cribbage.lab.odds.position.iterate_position`, ``iteration``: zone, iterations, per_position).
    Returns the files written."""
    check_players(players)
    files = []
    for name in presets:
        if players == POSITION_PLAYERS:
            table = iterate_position(name, n_deals=n_deals, seed=seed, base="distilled", threads=threads, **iteration)[
                0
            ]
        else:
            table = win_table(name, PLAYERS[players], n_deals, seed, threads=threads)
        files.append(table.write(_shipped_file(name, players), quantized=True))
    return files
