"""What a game gives the core: the :class:`Game` record every game folder defines.

The core (jobs, chunked runs, the run store, the spec reader) knows no game.  A
game is a package whose ``game.py`` defines ``GAME``, a :class:`Game`, registered
as an entry point of the group ``sims.games`` (:mod:`sims.core.registry`).  Every
field that names code is a ``"module"`` or ``"module:attribute"`` string imported
on first use, so listing the games (or ``sims --help``) compiles no kernel.

The engine module a game names must define::

    def play_chunks(job, keys, first_item, n_items, err) -> Batch
        # play items first_item .. first_item+n_items-1 of ``job`` (chunk c of the call holds
        # items first_item + c*job.chunk_size ...); keys = uint64[n_chunks, n_streams] from
        # sims.core.rng.chunk_keys; on an illegal policy answer fill err[c] (sims.core.errors
        # layout) and stop that chunk.
    def describe_error(job, row) -> str
        # the situation of one err row in words: "returned mask 3 for hand 5H 5S ...: it must ..."

and its results module (by default :mod:`sims.core.tally_results`: the means of what its engine's
``TALLIES[kind]`` add up)::

    def summarize(job, batch) -> result   # an object with .summary (JSON-able dict) and .table()
    def render(summary) -> str            # the summary as text (sims simulate / play / run)

The parts a game may add, each a ``"module"`` field too (left empty: the game has no such part,
and the command that needs it says so in one line):

* ``advice``: ``advise(situation, playout=None, samples, seed) -> DataFrame``, every legal choice
  valued, best first (the hints of ``sims duel``);
* ``record``: its game records (:mod:`sims.core.record`: ``sims play --record``, ``sims review``);
* ``duel``: ``View``, the table as ``sims duel`` shows it (:class:`sims.core.duel.View`);
* ``advise_command``: its decisions under ``sims advise``, where the facts of its declared
  situations do not make them: ``DECISIONS`` (decision -> help), ``add_arguments(parser, decision)``
  and ``situation(args, rules)`` (or its own ``run`` and ``render``: :mod:`sims.cli.advise`).

A decision's ``situation`` (``"module:Class"``) is what a player at the table knows when he makes it: a
frozen dataclass whose fields are the facts (the records' fields, and ``sims advise``'s arguments).

A game's own commands (ones that make sense for it alone) are command modules (:mod:`sims.cli`)
registered in the entry-point group ``sims.commands``.

Adding a game is adding such a package and its entry point (``docs/adding-a-game.md``).
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property

from .policies import PolicySpec, load

KINDS = ("deals", "games")
# The arguments of a policy in the games so far (each game's ``contract`` module says what each holds).
HAND = "hand, state, rules, rng, params"
PLAY = "hand, played, state, rules, rng, params"


@dataclass(frozen=True)
class Decision:
    """One kind of decision a player makes (e.g. a discard, or the card to play) and its policies' njit signature.

    ``signature`` is a ``"module:attribute"`` naming the numba signature; ``default`` the policy
    used when none is given; ``arguments`` the names of the signature's arguments (for error messages);
    ``situation`` the ``"module:Class"`` of the decision as a situation (the module docstring), if any."""

    name: str
    signature: str
    default: str
    help: str = ""
    arguments: str = ""
    situation: str = ""


@dataclass(frozen=True)
class Game:
    """Everything the core needs of one game (see the module docstring)."""

    name: str
    title: str
    rules: str  # "module" defining Rules and PRESETS
    default_preset: str
    decisions: tuple[Decision, ...]
    policies: Mapping[str, Mapping[str, PolicySpec]]  # decision -> policy name -> spec (declarative)
    engine: str  # "module" with play_chunks and describe_error
    reference: str  # "module" of the slow plain-Python engine (test oracle)
    results: str = "sims.core.tally_results"  # "module" with summarize(job, batch) and render(summary)
    chunk_size: Mapping[str, int] = field(default_factory=lambda: {"deals": 4096, "games": 256})
    max_seats: int = 4  # seat random streams the kernels draw from
    kinds: tuple[str, ...] = KINDS
    options: Mapping[str, str] = field(default_factory=dict)  # the game's on/off job switches -> help
    record_bytes: Mapping[str, int] = field(default_factory=lambda: {"deals": 64, "games": 128})  # memory a row
    compile_time: str = "a minute"  # the first run's compilation on 2 cores (sims.core.first_run)
    advice: str = ""  # the parts of the module docstring: "module" or ""
    record: str = ""
    duel: str = ""
    advise_command: str = ""
    ladder: tuple[str, ...] = ()  # the players `sims rate` rates when none is named (field specs, DECISION=POLICY)

    @cached_property
    def rules_module(self):
        return importlib.import_module(self.rules)

    @property
    def presets(self) -> Mapping:
        return self.rules_module.PRESETS

    def get_rules(self, rules):
        """A preset by name (None: the default preset), or the game's Rules as given; anything else is a one-line
        error."""
        from .rules import preset

        return preset(self.presets, self.rules_module.Rules, self.default_preset if rules is None else rules)

    def part(self, name: str):
        """The module of the part ``name`` (``advice``, ``record``, ``duel``, ``advise_command``), imported; a
        one-line error when the game has none."""
        if not getattr(self, name):
            raise ValueError(f"{self.name} declares no {name.replace('_', ' ')} (the {name} field of its Game)")
        return importlib.import_module(getattr(self, name))

    def decision(self, name: str) -> Decision:
        for d in self.decisions:
            if d.name == name:
                return d
        raise ValueError(
            f"{self.name} has no decision {name!r}; its decisions are {', '.join(d.name for d in self.decisions)}"
        )

    @cached_property
    def situations(self) -> Mapping[str, type]:
        """Decision -> its situation class, for the decisions that declare one."""
        return {d.name: load(d.situation) for d in self.decisions if d.situation}

    @property
    def n_streams(self) -> int:
        """Random streams per item, the deck and one per seat."""
        return 1 + self.max_seats
