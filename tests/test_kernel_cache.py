"""The kernel cache cannot go stale: change a callee in another file and its caller recompiles.

numba alone keys a cached function on its own file, so the second run below would print the old value;
:mod:`sims.core.cache` keys the cache directory on the sources a kernel can reach."""
from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

CALLER = textwrap.dedent("""
    from numba import njit
    from .callee import value

    @njit(cache=True)
    def caller():
        return value() + 1
""")
SCRIPT = textwrap.dedent("""
    import sys
    from pathlib import Path
    sys.path.insert(0, {root!r})
    if {use_sims}:
        from sims.core.cache import install
        install(Path({root!r}) / "demo", Path({cache!r}))
    else:
        from numba import config
        config.CACHE_DIR = {cache!r}
    from demo.caller import caller
    print(caller(), sum(caller.stats.cache_hits.values()))
""")


def run_demo(tmp_path, use_sims):
    root, cache = tmp_path / "src", tmp_path / ("sims-cache" if use_sims else "numba-cache")
    script = SCRIPT.format(root=str(root), cache=str(cache), use_sims=use_sims)
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300, check=True)
    value, hits = out.stdout.split()
    return int(value), int(hits)


@pytest.fixture
def demo(tmp_path):
    package = tmp_path / "src" / "demo"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "caller.py").write_text(CALLER)
    (package / "callee.py").write_text("from numba import njit\n\n@njit(cache=True)\ndef value():\n    return 1\n")
    return package


def change_callee(package):
    (package / "callee.py").write_text("from numba import njit\n\n@njit(cache=True)\ndef value():\n    return 41\n")


def test_plain_numba_loads_a_stale_caller(tmp_path, demo):
    """The sentinel: without the scheme the cached caller keeps the old callee (so the test below can fail)."""
    assert run_demo(tmp_path, False) == (2, 0)
    change_callee(demo)
    assert run_demo(tmp_path, False) == (2, 1)


def test_changed_callee_recompiles_the_caller(tmp_path, demo):
    assert run_demo(tmp_path, True) == (2, 0)
    assert run_demo(tmp_path, True) == (2, 1)          # cached when nothing changed
    change_callee(demo)
    assert run_demo(tmp_path, True) == (42, 0)         # recompiled, not loaded stale
    assert run_demo(tmp_path, True) == (42, 1)


def test_processes_starting_at_once_share_the_cache(tmp_path, demo):
    root, cache = tmp_path / "src", tmp_path / "sims-cache"
    script = SCRIPT.format(root=str(root), cache=str(cache), use_sims=True)
    procs = [subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True) for _ in range(3)]
    outs = [p.communicate(timeout=300)[0].split() for p in procs]
    assert all(p.returncode == 0 for p in procs) and {int(o[0]) for o in outs} == {2}
    assert run_demo(tmp_path, True) == (2, 1)
