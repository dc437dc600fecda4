"""All Fours' period claims, section 9 of the report (:mod:`.section`, with the laws in :mod:`.laws`), found
through the entry point ``sims.claims`` ``allfours`` (:mod:`sims.analysis.claims`)."""
