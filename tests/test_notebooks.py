"""The numbered notebooks: each runs at its small default size, is committed without outputs, and
stops plainly on a missing saved run; and the notebook helpers (sims.analysis.notebook_helpers)."""

from __future__ import annotations

import copy
import re
import threading
from pathlib import Path

import pytest

from sims.analysis import notebook_helpers as nh
from sims.analysis.claims.model import VERDICTS
from sims.cribbage.claims.measures import points_per_two_deals

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK_DIR = ROOT / "notebooks"
NOTEBOOKS = sorted(NOTEBOOK_DIR.glob("*.ipynb"))
CRIBBAGE = [
    "01-scoring",
    "02-twenty-five-points",
    "03-first-dealer",
    "04-three-hand",
    "05-discards",
    "06-pegging",
    "07-lurches",
]
SEED_FILE = re.compile(r"`\d{3}_[0-9a-f]{16}\.txt`")
GREEDY = {"discard": "greedy", "peg": "greedy"}
# What each notebook's verdict cell must show at its default size (seed 1): every claim it tests, each with a
# verdict, and estimates near the default-size report's, with tolerances of four standard errors or more at the
# notebook's size (a wrong engine - a crib not scored, seats not rotating, a rule dropped - lands outside).
CLAIMS = {
    "02-twenty-five-points": {"2": (25.5, 27.5)},  # 26.5 points in two deals, 5,000 deals
    "03-first-dealer": {
        "3a": (0.45, 0.62),
        "3b": (0.47, 0.63),
        "3c": (0.40, 0.57),
        "3d": (0.38, 0.54),
        "3e": (0.52, 0.80),
    },  # 53%, 55%, 48%, 46%, 66% of 1,000 games
    "04-three-hand": {
        "4a": (0.33, 0.46),
        "4b": (0.33, 0.46),  # three-rotation: 39.6% of 2,000 games
        "4c": (0.38, 0.52),
        "4d": (0.38, 0.52),
    },  # true three-hand: 45.1%
    "05-discards": {"5a": (0.09, 0.34), "5b": (0.20, 0.48)},  # the advice wins 21% / 34% of 250 games
    "06-pegging": {"6": (-0.15, 0.15)},  # keeping close: 0.002 points a deal
    "07-lurches": {"7a": (0.0, 0.04), "7b": (0.15, 0.28)},  # 1.0% and 21.3% of 1,000 games
}
# Notebooks run here at a smaller size than their default, set by a cell after the parameters cell (as papermill
# injects one): their sections' estimates are checked in process at the notebooks' default size
# (tests/analysis/test_allfours_claims.py, section 9), or are held to no window at any size (sections 10 and 11).
# Here they show that they load, call, plot and print a verdict for every claim.
SMALL = {
    "09-all-fours": ("DEALS, GAMES, SEARCHED = 1_000, 100, 20", [f"9{k}" for k in "abcdefghijkl"]),
    "10-loo": ("DEALS, GAMES, SEARCHED = 1_000, 20, 100", [f"10{k}" for k in "abcfghi"]),
    "11-board-position": (
        "TABLE_DEALS, GAMES, CHECK_GAMES, ZONE, PER_POSITION = 10_000, 200, 100, 3, 10",
        ["11a", "11b", "11c"],
    ),
}


# nbformat and nbclient are imported where they are used: they load jsonschema's format checkers, seconds
# that collecting the test suite should not pay.
def read(path: Path):
    import nbformat

    return nbformat.read(path, as_version=4)


STALLED = 240  # seconds; the slowest notebook takes about 30 at its default size
# One kernel runs every notebook of this module (a test process), its user namespace cleared before each: a fresh
# kernel per notebook paid its start, pandas, matplotlib and the compiled kernels again, about 5 s of CPU each.
# Names a notebook uses must still be defined by that notebook; the modules it imports stay imported.
pytestmark = pytest.mark.xdist_group("notebooks")
RESET = "%reset -f\nimport matplotlib.pyplot\nmatplotlib.pyplot.close('all')"


class Kernel:
    """The shared kernel, started in the notebooks' directory (as a reader's would be)."""

    def __init__(self):
        from nbclient import NotebookClient

        self.km = NotebookClient(None, kernel_name="python3").create_kernel_manager()
        self.start()

    def start(self):
        from jupyter_core.utils import run_sync

        run_sync(self.km.start_kernel)(cwd=str(NOTEBOOK_DIR))

    def restart(self):
        from jupyter_core.utils import run_sync

        run_sync(self.km.shutdown_kernel)(now=True)
        self.start()


@pytest.fixture(scope="module")
def kernel():
    from jupyter_core.utils import run_sync

    shared = Kernel()
    yield shared
    run_sync(shared.km.shutdown_kernel)(now=True)


def execute(nb, kernel: Kernel):
    """Run ``nb`` in the shared kernel, its namespace cleared first.  nbclient can wait for good with the kernel
    idle (jupyter/nbclient#312; seen here on the discard explorer's widget cell, now skipped): a run that has not
    finished after :data:`STALLED` seconds has its kernel stopped, and is run once more in a new one."""
    import nbformat
    from nbclient import NotebookClient
    from nbclient.exceptions import DeadKernelError

    pristine = copy.deepcopy(nb)
    for attempt in (1, 2):
        nb.cells.insert(0, nbformat.v4.new_code_cell(RESET))
        client = NotebookClient(nb, km=kernel.km, kernel_name="python3", timeout=600)
        stalled = threading.Event()
        watchdog = threading.Timer(STALLED, _stop_kernel, (client, stalled))
        watchdog.start()
        try:
            client.execute()
            return nb
        except DeadKernelError:
            if attempt == 2 or not stalled.is_set():
                raise
            nb.update(copy.deepcopy(pristine))
            kernel.restart()
        finally:
            watchdog.cancel()
            if client.kc is not None:
                client.kc.stop_channels()
            if nb.cells and nb.cells[0].source == RESET:
                del nb.cells[0]


def _stop_kernel(client, stalled: threading.Event):
    stalled.set()
    process = getattr(getattr(client.km, "provisioner", None), "process", None)
    if process is not None:
        process.kill()


def parameters_index(nb) -> int:
    tagged = [i for i, c in enumerate(nb.cells) if "parameters" in c.metadata.get("tags", [])]
    assert len(tagged) == 1, "exactly one cell tagged 'parameters'"
    return tagged[0]


def text_output(cell) -> str:
    return "".join(o.get("text", "") for o in cell.get("outputs", []) if o.get("output_type") == "stream")


def test_the_numbered_notebooks_are_all_there():
    stems = [p.stem for p in NOTEBOOKS]
    assert set(CRIBBAGE) <= set(stems)
    assert all(re.fullmatch(r"\d\d-[a-z0-9-]+", s) for s in stems)
    assert len({s[:2] for s in stems}) == len(stems), "two notebooks share a number"


def verdict_rows(text: str) -> dict[str, tuple[str, float]]:
    """``{claim: (verdict, estimate)}`` from the verdict table the last cell prints (sims.analysis.claims.command)."""
    lines = text.strip().splitlines()
    assert lines and lines[0].split()[:2] == ["claim", "verdict"], text
    rows = {}
    for line in lines[1:]:
        if line.startswith(" "):  # a claim's statement, under its figures
            continue
        cid, verdict, estimate = re.split(r"\s{2,}", line)[:3]
        number = float(re.match(r"-?[\d.]+", estimate).group())
        rows[cid] = (verdict, number / 100 if "%" in estimate.split()[0] else number)
    return rows


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_committed_without_outputs(path):
    import nbformat

    nb = read(path)
    nbformat.validate(nb)
    assert nb.nbformat == 4 and nb.metadata["kernelspec"]["name"] == "python3"
    for i, cell in enumerate(nb.cells):
        if cell.cell_type == "code":
            assert cell.outputs == [], f"cell {i} has outputs: clear them before committing"
            assert cell.execution_count is None, f"cell {i} has an execution count: clear it before committing"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_no_paths_into_the_repository(path):
    """A notebook copied out of the repository still runs: its code reads data through the packages, never
    through a path like '../data/...' or 'data/reference/...'."""
    for i, cell in enumerate(read(path).cells):
        if cell.cell_type == "code":
            code = "\n".join(line.split("#")[0] for line in cell.source.splitlines())  # comments may name paths
            assert not re.search(r"""["'](\.\./|\./)?(data|notebooks)/""", code), f"cell {i}: {code}"
            assert "../" not in code, f"cell {i}: {code}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_layout(path):
    """Claim first (with the seed file quoted), then the parameters cell, then a verdict cell last."""
    nb = read(path)
    first = nb.cells[0]
    assert first.cell_type == "markdown" and SEED_FILE.search(first.source)
    assert parameters_index(nb) == 1 and "full size" in nb.cells[1].source
    assert nb.cells[-1].cell_type == "code" and "print(" in nb.cells[-1].source


def test_only_the_widgets_are_skipped_without_a_front_end():
    """nbclient skips cells tagged ``skip-execution``: only the widget cells of notebook 08 (the discard explorer
    and the pegging advisor), which need a reader (and can stall nbclient for good, jupyter/nbclient#312), are
    tagged; tests/browser runs them in a browser."""
    skipped = [
        (p.stem, c.source) for p in NOTEBOOKS for c in read(p).cells if "skip-execution" in c.metadata.get("tags", [])
    ]
    assert [(stem, "explorer(" in source, "advisor(" in source) for stem, source in skipped] == [
        ("08-discard-explorer", True, False),
        ("08-discard-explorer", False, True),
    ]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_runs_and_plots(path, kernel):
    """Every notebook runs: at its default size, or at the smaller size of :data:`SMALL`."""
    import nbformat

    nb = read(path)
    if path.stem in SMALL:
        nb.cells.insert(parameters_index(nb) + 1, nbformat.v4.new_code_cell(SMALL[path.stem][0]))
    nb = execute(nb, kernel)
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs if o.output_type == "error"]
    assert not errors
    verdict = text_output(nb.cells[-1])
    assert verdict.strip(), "the verdict cell printed nothing"
    assert "not run" not in verdict.lower(), verdict
    if path.stem == "01-scoring":
        assert "equals Lumetta's published counts: True" in verdict
    elif path.stem in CLAIMS:
        rows = verdict_rows(verdict)
        assert set(rows) == set(CLAIMS[path.stem]), verdict
        for cid, (lo, hi) in CLAIMS[path.stem].items():
            found, estimate = rows[cid]
            assert found in VERDICTS and lo < estimate < hi, (cid, found, estimate)
    elif path.stem in SMALL:
        rows = verdict_rows(verdict)
        assert list(rows) == SMALL[path.stem][1], verdict
        assert all(found in VERDICTS for found, _ in rows.values()), verdict
    figures = sum("image/png" in o.get("data", {}) for c in nb.cells if c.cell_type == "code" for o in c.outputs)
    assert figures >= 1, "no figure was drawn"


def test_a_missing_run_directory_stops_the_notebook_plainly(tmp_path, kernel):
    import nbformat
    from nbclient.exceptions import CellExecutionError

    path = NOTEBOOK_DIR / "02-twenty-five-points.ipynb"
    nb = read(path)
    missing = tmp_path / "no-such-run"
    nb.cells.insert(parameters_index(nb) + 1, nbformat.v4.new_code_cell(f"RUN_DIR = {str(missing)!r}"))
    with pytest.raises(CellExecutionError) as err:
        execute(nb, kernel)
    assert f"run directory {missing} does not exist" in str(err.value)
    assert "Traceback" not in str(err.value)
    ran = [c for c in nb.cells if c.cell_type == "code" and c.execution_count]
    assert "load_saved_run" in ran[-1].source, "the notebook went on past the failed load"


# ---- the helpers ----


@pytest.fixture(scope="module")
def deals_run(tmp_path_factory):
    from sims.core.jobs import Job
    from sims.core.runner import run

    out = tmp_path_factory.mktemp("runs") / "six-card"
    run(Job.make("cribbage", "deals", "six-card", GREEDY, 2_000, seed=3), out=out, progress=False)
    return out


def test_load_saved_run_accepts_a_matching_run(deals_run):
    saved = nh.load_saved_run(deals_run, kind="deals", rules="six-card")
    e = points_per_two_deals(saved.summary)
    assert saved.summary["n"] == 2_000 and 15 < e.estimate < 35


@pytest.mark.parametrize(
    "kind, rules, message",
    [
        ("games", None, "is a 'deals' run; this needs a 'games' run"),
        ("deals", "five-card", "used rules 'six-card'; this needs 'five-card'"),
    ],
)
def test_load_saved_run_refuses_a_mismatched_run(deals_run, kind, rules, message):
    with pytest.raises(SystemExit, match=f"cannot use the saved run: run .* {re.escape(message)}"):
        nh.load_saved_run(deals_run, kind=kind, rules=rules)
