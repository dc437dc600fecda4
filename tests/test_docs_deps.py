"""Dependencies by need: the numba versions the kernels were tested with, and what a single-machine command
imports (no Dask, no cryptography: they are the extra ``cluster``)."""

import re
import subprocess
import sys
import tomllib
from pathlib import Path

import numba

ROOT = Path(__file__).resolve().parents[1]
# sims.core.kernel relies on numba internals (typeinfer.register_dispatcher, global_compiler_lock, the typeof_impl
# registry); the whole suite passed with these numba releases.  A new one is added here, and the bound in
# pyproject.toml raised, once make test passes on it.
TESTED_NUMBA = ("0.68.1",)


def _minor(version: str) -> tuple[int, int]:
    major, minor = re.match(r"(\d+)\.(\d+)", version).groups()
    return int(major), int(minor)


def test_numba_is_a_tested_minor_release():
    tested = sorted({_minor(v) for v in TESTED_NUMBA})
    assert _minor(numba.__version__) in tested, (
        f"numba {numba.__version__} is not a release the kernels were tested with (numba "
        f"{', '.join(TESTED_NUMBA)}): sims.core.kernel relies on numba internals; run make test on it, then add it "
        f"to TESTED_NUMBA and raise the bound in pyproject.toml"
    )


def test_the_numba_bound_admits_the_tested_releases_and_no_later_minor():
    """pyproject.toml's ``numba>=A,<B``: every tested release inside, and B the minor after the newest tested."""
    (spec,) = [
        d
        for d in tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
        if d.startswith("numba")
    ]
    low, high = re.fullmatch(r"numba>=([\d.]+),<([\d.]+)", spec).groups()
    newest = max(_minor(v) for v in TESTED_NUMBA)
    assert _minor(high) == (newest[0], newest[1] + 1), f"{spec}: the upper bound is the minor after numba {newest}"
    assert all(_minor(low) <= _minor(v) < _minor(high) for v in TESTED_NUMBA)


SINGLE_MACHINE = """
import sys
from sims.cli import main
assert main(["discard", "5H", "5S", "JD", "6C", "4H", "KD", "--dealer"]) == 0
assert main(["peg", "7H", "8C", "5D", "--played", "KS,2S,5H", "--starter", "2C", "--dealer"]) == 0
assert main(["simulate", "--deals", "2000", "--quiet"]) == 0
assert main(["run", "--deals", "2000", "--out", sys.argv[1], "--quiet"]) == 0
print(sorted({m.split(".")[0] for m in sys.modules} & {"dask", "distributed", "cryptography"}), file=sys.stderr)
"""


def test_single_machine_commands_import_no_cluster_module(tmp_path):
    out = subprocess.run(
        [sys.executable, "-c", SINGLE_MACHINE, str(tmp_path / "run")], capture_output=True, text=True, timeout=600
    )
    assert out.returncode == 0, out.stderr
    assert out.stderr.strip().splitlines()[-1] == "[]"
