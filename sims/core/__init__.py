"""What every game shares and that knows no game: streams, jobs, chunked runs, policies, the run store.

A game plugs in through :class:`sims.core.protocol.Game` and the entry-point group ``sims.games``
(:mod:`sims.core.registry`); no module here names a game.
"""
