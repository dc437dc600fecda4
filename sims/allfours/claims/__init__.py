"""All Fours' period claims, section 9 of the report (:mod:`.section`, with the laws in :mod:`.laws`), found
through the entry point ``sims.claims`` ``allfours`` (:mod:`sims.analysis.claims`)."""

from . import base, laws, section

MODULES = (section, laws, base)  # the report reads its sections and sources here
