"""Cribbage's period claims, sections 1-7 and 11 of the report: each module defining ``NUMBER``, ``TITLE`` and
``run(ctx)`` is a section (:mod:`sims.analysis.claims`), found through the entry point ``sims.claims``
``cribbage``; :mod:`.measures` holds the quantities they measure."""

from . import (
    article_discards,
    board_position,
    first_dealer,
    keep_close,
    lurches,
    measures,
    scoring,
    three_hand,
    twenty_five,
)

MODULES = (
    scoring,
    first_dealer,
    keep_close,
    article_discards,
    three_hand,
    twenty_five,
    lurches,
    board_position,
    measures,
)  # the report reads its sections and sources here
