"""What every game shares and that knows no game: streams, jobs, chunked runs, policies, the run store.

A game plugs in through :class:`sims.core.protocol.Game`; :mod:`sims.core.registry` lists the games.
"""
