"""The games: a declarative table of ``name -> "module:GAME"``, each imported on first use."""
from __future__ import annotations

from .protocol import Game
from .policies import load

GAMES = {
    "cribbage": "sims.cribbage.game:GAME",
    "allfours": "sims.allfours.game:GAME",
    "loo": "sims.loo.game:GAME",
}
DEFAULT_GAME = "cribbage"


def get_game(game: str | Game | None = None) -> Game:
    """A game by name (default cribbage), or the Game given; unknown names are a one-line error."""
    if isinstance(game, Game):
        return game
    name = DEFAULT_GAME if game is None else game
    if name not in GAMES:
        raise ValueError(f"unknown game {name!r}; games: {', '.join(GAMES)}")
    return load(GAMES[name])
