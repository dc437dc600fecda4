"""Triumph (French ruff), a worked example of a sims game: see docs/adding-a-game.md."""
