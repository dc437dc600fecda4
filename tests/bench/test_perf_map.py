"""sims.bench.perf_map: the kernels compiled in a process, named for perf, and a module run under it."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

from sims.bench import perf_map

MODULE = textwrap.dedent(
    """
    import sys
    from numba import types
    from sims.core.kernel import njit

    @njit(types.int64(types.int64), cache=True)
    def doubled_and_one(x):
        return x * 2 + 1

    if __name__ == "__main__":
        print(doubled_and_one(int(sys.argv[1])))
        sys.exit(int(sys.argv[2]))
    """
)
LINE = re.compile(r"^([0-9a-f]+) ([0-9a-f]+) (\S+)$")


def test_numbas_mangled_names_read_as_python_names():
    assert perf_map.python_name(
        "_ZN4sims8allfours6search5solveB3v67B40c8tJTIeFIjxB2IKSgI4CrvSCKg1MMfAwK4LIaQIAE5Ar"
    ) == ("sims.allfours.search.solve")
    assert perf_map.python_name("cfunc._ZN8__main__4tinyB2v1B38c8tJTIeFIjxE") == "cfunc.__main__.tiny"
    assert perf_map.python_name("_ZN7cpython3loo4playB2v1") == "cpython.loo.play"
    assert perf_map.python_name("memcpy") == "memcpy"


def _run(tmp_path: Path, cache: str, *args: str) -> subprocess.CompletedProcess:
    (tmp_path / "tinymod.py").write_text(MODULE, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k != "SIMS_CACHE_DIR"}  # numba's cache, sims's with it
    env.update(PYTHONPATH=str(tmp_path), NUMBA_CACHE_DIR=str(tmp_path / cache))
    command = [sys.executable, "-m", "sims.bench.perf_map", *args]
    return subprocess.run(command, capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120)


def test_a_module_runs_as_python_m_runs_it_and_its_kernels_are_mapped_for_perf(tmp_path):
    done = _run(tmp_path, "cold", "tinymod", "20", "3")
    assert done.stdout == "41\n" and done.returncode == 3  # its arguments and its exit status are the module's
    (report,) = done.stderr.splitlines()
    path = Path(re.fullmatch(r"perf map: \d+ functions -> (\S+)", report).group(1))
    assert re.fullmatch(r"perf-\d+\.map", path.name) and path.parent == Path("/tmp")  # where perf reads it
    lines = path.read_text(encoding="utf-8").splitlines()
    path.unlink()
    entries = [LINE.fullmatch(line).groups() for line in lines]
    starts = [int(start, 16) for start, _, _ in entries]
    assert starts == sorted(starts) and all(int(size, 16) > 0 for _, size, _ in entries)
    assert all(a + int(size, 16) <= b for a, b, (_, size, _) in zip(starts, starts[1:], entries))  # no overlaps
    assert "__main__.doubled_and_one" in {name for _, _, name in entries}


def test_kernels_loaded_from_the_cache_are_counted_as_not_named(tmp_path):
    assert _run(tmp_path, "warm", "tinymod", "1", "0").returncode == 0  # compiled and cached
    done = _run(tmp_path, "warm", "tinymod", "1", "0")
    path = Path(re.search(r"-> (\S+);", done.stderr).group(1))
    assert path.read_text(encoding="utf-8") == ""
    path.unlink()
    assert done.stderr.endswith(f"1 loaded from the cache cannot be named ({perf_map.EMPTY_CACHE})\n")


def test_no_module_or_none_named_is_one_line_and_status_2(tmp_path):
    for args, message in (
        (("no_such_module",), "sims.bench.perf_map: no module named 'no_such_module' to run\n"),
        ((), perf_map.USAGE + "\n"),
        (("--json",), perf_map.USAGE + "\n"),
    ):
        done = _run(tmp_path, "cold", *args)
        assert (done.returncode, done.stderr, done.stdout) == (2, message, "")


def test_help_is_the_usage_and_how_to_profile_on_standard_output():
    done = subprocess.run([sys.executable, "-m", "sims.bench.perf_map", "--help"], capture_output=True, text=True)
    assert done.returncode == 0 and done.stderr == ""
    assert done.stdout.startswith(perf_map.USAGE + "\n\n") and "perf report -i perf.data" in done.stdout
