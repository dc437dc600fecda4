"""Loo on the command line: its decisions under ``sims advise``."""
