"""Cribbage's benchmarks: the engine, the show scoring, the discard and pegging strategies, the board-position
tables, start-up, a deal's phases, the runner's overhead and OpenSpiel's baseline; each declared in the entry points
``sims.benchmarks`` and run by ``python -m sims.bench NAME`` (:mod:`sims.bench`)."""
