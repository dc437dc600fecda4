"""Start-up: each command imports what it uses and no more (checked in a fresh process through ``sys.modules``),
and what ``sims policies`` lists without importing a policy (the tables' declared names) is what the policies
themselves say."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

from sims.core.policies import TableParams
from sims.core.registry import get_game, names

PEG = [
    "peg",
    "7H",
    "8C",
    "5D",
    "--played",
    "KS,2S,5H",
    "--starter",
    "2C",
    "--dealer",
    "--thrown",
    "QD,3C",
    "--score",
    "97-104",
]
DISCARD = ["discard", "5H", "5S", "JD", "6C", "4H", "KD", "--dealer"]
RUN = """
    import json, sys
    from sims.cli import main
    code = main(json.loads(sys.argv[1]))
    print(json.dumps({"code": code, "modules": sorted(sys.modules)}), file=sys.stderr)
"""
FIRST_DECISION = """
    import json, sys
    from sims.cribbage.advice import Player
    from sims.cribbage.situation import PegSituation
    card = Player("position_distilled").choose(PegSituation("7H 8C 5D", "KS 2S 5H", role="dealer", starter="2C",
                                                             thrown="QD 3C", score=(97, 104)))
    print(json.dumps({"code": 0 if card == "5D" else 1, "modules": sorted(sys.modules)}), file=sys.stderr)
"""
KERNELS = "sims.cribbage.policies."  # modules of kernels
TABLE_READERS = ("pandas", "pyarrow", "scipy.special", "sims.cribbage.odds.table")


def modules(script: str, *args: str) -> set[str]:
    out = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(script), *args], capture_output=True, text=True, timeout=600
    )
    got = json.loads(out.stderr.strip().splitlines()[-1])
    assert got["code"] == 0, out.stderr
    return set(got["modules"])


def test_sims_policies_imports_no_numba_and_no_policy():
    loaded = modules(RUN, json.dumps(["policies"]))
    assert not {m for m in loaded if m.split(".")[0] in ("numba", "pandas", "scipy", "pyarrow")}
    assert not {m for m in loaded if m.startswith(KERNELS)}


def test_sims_discard_reads_no_table_and_loads_no_policy():
    loaded = modules(RUN, json.dumps(DISCARD))
    assert not loaded & {*TABLE_READERS, "tabulate"} and not {m for m in loaded if m.startswith(KERNELS)}


@pytest.mark.parametrize("what", ["sims peg", "first decision"])
def test_the_position_players_advise_without_reading_their_tables(what):
    """The board-position vectors are memory-mapped data: a position player's decision reads no Parquet, pandas
    or SciPy's special functions (``sims peg --score`` does, once: the chance it prints carries the shipped
    table's standard errors, issue 34's honest intervals); and a pegging decision loads no discard policy's
    kernels (the position-aware discard has its own module)."""
    loaded = modules(RUN, json.dumps(PEG)) if what == "sims peg" else modules(FIRST_DECISION)
    assert "sims.cribbage.policies.position_vectors" in loaded
    assert what == "sims peg" or not loaded & set(TABLE_READERS)
    assert not loaded & {"sims.cribbage.policies.discard", "sims.cribbage.policies.position_throw"}


FIRST_DEAL = """
    import json, sys
    from sims.cribbage import simulate_deals
    result = simulate_deals("six-card", None, 1)
    code = 0 if result.summary["n"] == 1 else 1
    print(json.dumps({"code": code, "modules": sorted(sys.modules)}), file=sys.stderr)
"""


@pytest.mark.parametrize("what", ["sims simulate", "first deal"])
def test_a_deal_run_and_its_summary_import_no_pandas(what):
    """Batches add up as numpy arrays and a deal summary is made from them: pandas (and the Parquet reader, and
    the run store) are imported when a DataFrame or a stored run is asked for, not to play and sum up deals."""
    loaded = modules(RUN, json.dumps(["simulate", "--deals", "1"])) if what == "sims simulate" else modules(FIRST_DEAL)
    assert "sims.cribbage.engine" in loaded
    assert not loaded & {"pandas", "pyarrow", "pyarrow.parquet", "sims.core.store"}


KERNEL_CALLED = """
    import json, sys
    import sims.core.chunks as chunks
    from sims.cli import main

    play_chunks, at_kernel = chunks.run_chunks, []

    def run_chunks(*args, **kwargs):  # the modules loaded when the first chunk of games goes to the kernel
        at_kernel.append(sorted(sys.modules))
        return play_chunks(*args, **kwargs)

    chunks.run_chunks = run_chunks
    import sims.core.executors
    sims.core.executors.run_chunks = run_chunks
    code = main(json.loads(sys.argv[1]))
    print(json.dumps({"code": code, "modules": at_kernel[0] if at_kernel else []}), file=sys.stderr)
    print(json.dumps({"code": code, "modules": sorted(sys.modules)}), file=sys.stderr)
"""
HEAVY = {"pandas", "scipy.stats", "pyarrow", "tqdm.asyncio"}


@pytest.mark.parametrize(
    "command",
    [
        ["play", "--rules", "six-card", "--games", "2", "--discard", "random", "--peg", "random", "--json"],
        ["simulate", "--deals", "1"],
        ["play", "--game", "loo", "--games", "2", "--declare", "always"],
    ],
)
def test_play_and_simulate_import_no_statistics_or_data_frames_to_their_end(command):
    """Issue 36: whole commands at the kernels' pace.  ``sims play`` and ``sims simulate`` reach the kernel with
    neither scipy.stats nor pandas imported, and their summaries (Wilson intervals, histograms) need neither:
    the commands end without them (nor asyncio, which ``tqdm.auto`` imports outside a notebook)."""
    out = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(KERNEL_CALLED), json.dumps(command)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    at_kernel, at_end = (json.loads(line) for line in out.stderr.strip().splitlines()[-2:])
    assert at_end["code"] == 0, out.stderr
    game = command[command.index("--game") + 1] if "--game" in command else "cribbage"
    assert f"sims.{game}.engine" in at_end["modules"] and at_kernel["modules"]
    assert not set(at_kernel["modules"]) & HEAVY
    assert not set(at_end["modules"]) & HEAVY


def test_the_position_sections_size_the_discard_tables_as_the_discard_policies_do():
    from sims.cribbage.policies import discard, position

    assert position.N_KEPT == discard.N_KEPT


def test_every_declared_table_name_is_a_table_of_the_policy():
    """``sims policies`` lists the names a TableParams declares: they are its tables' names, in their order."""
    declared = [
        spec.params
        for g in names()
        for table in get_game(g).policies.values()
        for spec in table.values()
        if isinstance(spec.params, TableParams)
    ]
    assert declared and all(p.names for p in declared)
    for params in declared:
        assert list(params.names) == list(params.named()), params.tables
        assert params.default in params.names
