"""Loo's period claims, section 10 of the report (:mod:`.section`, with the laws of the deal in :mod:`.laws`),
found through the entry point ``sims.claims`` ``loo`` (:mod:`sims.analysis.claims`)."""

from . import base, laws, section

MODULES = (section, laws, base)  # the report reads its sections and sources here
