"""Board position: the chance of winning from every score, and players that play for the game."""
