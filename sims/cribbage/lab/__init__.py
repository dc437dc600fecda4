"""The offline builders of cribbage's shipped tables, apart from the rules, the engine and the policies.

* :mod:`.crib_self_play` and :mod:`.crib_tables` - the crib tables by self-play (``sims crib-tables``);
* :mod:`.distillation` and :mod:`.distilled_play_outs` - the ``distilled`` pegging tables fitted to play-outs;
* :mod:`.odds` - the board-position tables (``sims odds --build``, ``--position``);
* :mod:`.tournament` - round robins and strength against the literature (``sims round-robin``,
  ``sims strength``).

They write the files the game reads (``sims/cribbage/data``); nothing of the game imports them, only the
commands that run them (the import-layer test holds this).
"""
