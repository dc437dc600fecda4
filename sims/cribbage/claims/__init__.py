"""Cribbage's period claims, sections 1-7 and 11 of the report: each module defining ``NUMBER``, ``TITLE`` and
``run(ctx)`` is a section (:mod:`sims.analysis.claims`), found through the entry point ``sims.claims``
``cribbage``; :mod:`.measures` holds the quantities they measure."""
