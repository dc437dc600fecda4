"""The kernel cache (:mod:`sims.core.cache`): keyed by the sources a kernel's module reaches, so it cannot
go stale and an edit recompiles only the kernels that can reach the edited module; its directory is
owner-only, and one that other users can write to is refused in one line.

numba alone keys a cached function on its own file, so after a callee in another file changes the caller
loads stale code (the sentinel below shows it)."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
import textwrap

import pytest

from sims.core.cache import CacheDirError, safe_root

CALLER = textwrap.dedent("""
    from {njit} import njit
    from .callee import value

    @njit(cache=True)
    def caller():
        return value() + 1
""")
CALLEE = "from {njit} import njit\n\n@njit(cache=True)\ndef value():\n    return {value}\n"
OTHER = "from {njit} import njit\n\n@njit(cache=True)\ndef other():\n    return 7\n"
SCRIPT = textwrap.dedent("""
    import sys
    sys.path.insert(0, {root!r})
    from numba import config
    config.CACHE_DIR = {cache!r}      # plain numba's cache, for the sentinel
    from demo.caller import caller
    from demo.other import other
    print(caller(), sum(caller.stats.cache_hits.values()), other(), sum(other.stats.cache_hits.values()))
""")


def run_demo(tmp_path, env=None):
    """(caller's value, caller loaded from the cache, other's value, other loaded from the cache)."""
    script = SCRIPT.format(root=str(tmp_path / "src"), cache=str(tmp_path / "numba-cache"))
    env = {**os.environ, "SIMS_CACHE_DIR": str(tmp_path / "sims-cache"), **(env or {})}
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300, env=env)
    assert out.returncode == 0, out.stderr
    return tuple(int(x) for x in out.stdout.split())


def write_demo(package, njit, value=1):
    package.mkdir(parents=True, exist_ok=True)
    (package / "__init__.py").write_text("")
    (package / "caller.py").write_text(CALLER.format(njit=njit))
    (package / "callee.py").write_text(CALLEE.format(njit=njit, value=value))
    (package / "other.py").write_text(OTHER.format(njit=njit))


@pytest.fixture
def demo(tmp_path):
    package = tmp_path / "src" / "demo"
    write_demo(package, "sims.core.kernel")
    return package


@pytest.fixture(scope="module")
def first_run(tmp_path_factory):
    """The demo package run once into empty caches, and what that run gave: the tests that edit after a first
    run copy its folder (sources with their times, and caches) and need not compile it again."""
    base = tmp_path_factory.mktemp("first-run")
    write_demo(base / "src" / "demo", "sims.core.kernel")
    return base, run_demo(base)


@pytest.fixture
def compiled(tmp_path, first_run):
    """This test's copy of the demo package and its caches after the first run."""
    shutil.copytree(first_run[0], tmp_path, dirs_exist_ok=True)
    return tmp_path / "src" / "demo"


def test_plain_numba_loads_a_stale_caller(tmp_path):
    """The sentinel: with numba's own cache the caller keeps the old callee (so the tests below can fail)."""
    package = tmp_path / "src" / "demo"
    write_demo(package, "numba")
    assert run_demo(tmp_path)[:2] == (2, 0)
    write_demo(package, "numba", value=41)
    assert run_demo(tmp_path)[:2] == (2, 1)


def test_a_changed_callee_recompiles_its_caller_and_only_it(tmp_path, first_run, compiled):
    assert first_run[1] == (2, 0, 7, 0)
    assert run_demo(tmp_path) == (2, 1, 7, 1)  # cached when nothing changed
    write_demo(compiled, "sims.core.kernel", value=41)
    assert run_demo(tmp_path) == (42, 0, 7, 1)  # the caller recompiled, not loaded stale; other cached
    assert run_demo(tmp_path) == (42, 1, 7, 1)


def test_editing_a_module_no_kernel_reaches_recompiles_nothing(tmp_path, compiled):
    (compiled / "unused.py").write_text("X = 1\n")
    (compiled / "__init__.py").write_text("# the package's own file: neither kernel's module imports it\n")
    assert run_demo(tmp_path) == (2, 1, 7, 1)


def test_an_edit_moves_exactly_the_modules_that_reach_it_to_new_directories(tmp_path, compiled):
    def directories():
        return {p.name for p in (tmp_path / "sims-cache" / "demo").iterdir()}

    before = directories()
    write_demo(compiled, "sims.core.kernel", value=41)
    run_demo(tmp_path)
    assert sorted(name.split("-")[0] for name in directories() - before) == ["callee", "caller"]


def test_processes_starting_at_once_share_the_cache(tmp_path, demo):
    script = SCRIPT.format(root=str(tmp_path / "src"), cache=str(tmp_path / "numba-cache"))
    env = {**os.environ, "SIMS_CACHE_DIR": str(tmp_path / "sims-cache")}
    procs = [
        subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True, env=env) for _ in range(3)
    ]
    outs = [p.communicate(timeout=300)[0].split() for p in procs]
    assert all(p.returncode == 0 for p in procs) and {int(o[0]) for o in outs} == {2}
    assert run_demo(tmp_path) == (2, 1, 7, 1)


def test_the_cache_root_is_created_for_its_owner_only(tmp_path):
    root = safe_root(tmp_path / "a" / "cache")
    assert stat.S_IMODE(root.stat().st_mode) == 0o700


@pytest.mark.parametrize("mode", [0o775, 0o757, 0o1777])
def test_a_cache_root_others_can_write_is_refused_in_one_line(tmp_path, mode):
    root = tmp_path / "shared"
    root.mkdir()
    root.chmod(mode)
    with pytest.raises(CacheDirError, match="writable by other users") as info:
        safe_root(root)
    assert "\n" not in str(info.value)


def test_a_cache_root_that_is_a_file_is_refused(tmp_path):
    (tmp_path / "file").write_text("")
    with pytest.raises(CacheDirError, match="not a directory"):
        safe_root(tmp_path / "file")


def test_the_command_line_refuses_an_unsafe_cache_with_one_line_and_status_2(tmp_path):
    root = tmp_path / "shared"
    root.mkdir()
    root.chmod(0o777)
    env = {**os.environ, "SIMS_CACHE_DIR": str(root)}
    out = subprocess.run(
        [sys.executable, "-m", "sims", "score", "5H", "5S", "5C", "JD", "5D"],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )
    assert (out.returncode, out.stdout) == (2, "")
    assert out.stderr.count("\n") == 1 and "writable by other users" in out.stderr
    assert list(root.iterdir()) == []


LOOP_MODULE = textwrap.dedent("""
    from numba import types
    from sims.core.driver import chunk_loop
    from sims.core.kernel import njit
    from sims.core.kernel_types import I64_1, U64_2

    VALUE = {value}

    @njit(inline="always")
    def step(c, rules, keys, out):
        out[c] = VALUE + c

    LOOP = chunk_loop("LOOP", step, types.void(I64_1, U64_2, I64_1))
""")
DRIVE = textwrap.dedent("""
    import sys
    import numpy as np
    sys.path.insert(0, {root!r})
    from demo.play import LOOP
    out = np.zeros(3, np.int64)
    LOOP(np.zeros(1, np.int64), np.ones((3, 2), np.uint64), out)
    print(out.sum(), sum(LOOP.stats.cache_hits.values()))
""")


def test_a_driver_loop_is_recompiled_when_its_games_module_changes(tmp_path):
    """A chunk loop's code is the core's, its step a game's: editing the game's module must not load the loop
    stale (the key covers what both modules reach), and an unchanged module loads it from the cache.  The
    step here is the least one (a game's deal loop, :func:`sims.core.driver.deal_loop`, compiles for seconds);
    the next test checks that a deal loop is such a loop."""
    package = tmp_path / "src" / "demo"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    env = {**os.environ, "SIMS_CACHE_DIR": str(tmp_path / "sims-cache")}
    script = DRIVE.format(root=str(tmp_path / "src"))

    def drive():
        out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=600, env=env)
        assert out.returncode == 0, out.stderr
        return tuple(int(x) for x in out.stdout.split())

    (package / "play.py").write_text(LOOP_MODULE.format(value=1))
    assert drive() == (1 + 2 + 3, 0)
    assert drive() == (6, 1)
    (package / "play.py").write_text(LOOP_MODULE.format(value=10))
    assert drive() == (10 + 11 + 12, 0)


def test_a_deal_loop_is_a_chunk_loop_of_its_games_module():
    """What the test above needs of a game's deal loop: its kernel's code is the driver's file and its module
    the game's play module, so its cache key covers both (the worked example game, not compiled here)."""
    from triumph import engine, play

    from sims.core import driver

    loop = engine.LOOPS["deals"]
    kernel = loop.kernel
    assert isinstance(loop, driver.ChunkLoop)
    assert kernel.py_func.__module__ == play.__name__ == "triumph.play"
    assert kernel.py_func.__code__.co_filename == driver.__file__
