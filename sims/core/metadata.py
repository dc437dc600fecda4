"""The installed distributions' entry points, read once a process.

``importlib.metadata.entry_points(group=...)`` reads the metadata of every installed distribution at each call
(some 8 ms for the 150 of a test environment), and one command asks for several groups: its commands
(``sims.commands``), the games and the default game, the plug-in policies.  Here they are read the first time
any group is asked for, and each group is selected from that one reading.
"""

from __future__ import annotations

from functools import cache
from importlib.metadata import EntryPoints
from importlib.metadata import entry_points as _read


@cache
def _installed():
    """Every installed entry point, read once: ``importlib.metadata.entry_points()``, whose ``select(group=...)``
    is a group's (an ``EntryPoints`` from Python 3.12, a ``SelectableGroups`` before)."""
    return _read()


def entry_points(group: str) -> EntryPoints:
    """The entry points of ``group`` (as ``importlib.metadata.entry_points(group=group)``), from the one reading
    of this process."""
    return _installed().select(group=group)
