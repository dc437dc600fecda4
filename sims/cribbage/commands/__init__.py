"""Cribbage's own commands (registered in the entry-point group ``sims.commands``) and its decisions under
``sims advise``."""
