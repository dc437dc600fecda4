"""Analysis of simulation output, game-free: figures (plots), the period claims and the main job (claims: the
verdict rule, the Context; the sections are each game's, found through the entry points ``sims.claims``), the
report writer (report), saved runs (runs), and the notebooks' shared helpers (notebook_helpers: run and show a
section; advisor_widget: a decision behind controls).  The statistics are :mod:`sims.stats`; each game's own
measures, notebook helpers and widgets live with the game."""
