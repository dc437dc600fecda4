"""Red team for the kernel cache (issue 35): numba's cache holds pickled code, so a folder or file in it that
another user could have written is refused, in one line naming it and the fix, before anything is loaded.

The cache of ``sims score`` (three small kernels) is made once into a folder of its own; each case changes a
copy (a folder or file below the root writable by group or others, owned by another user, or a link), then runs
``python -m sims score`` on it: exit status 2, one line on stderr, no traceback, the cache left as it was.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

SCORE = [sys.executable, "-m", "sims", "score", "5H", "5S", "5C", "JD", "--starter", "5D"]
OTHER_USER = 54321
ROOT_ONLY = pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="chown needs root")


def _score(cache):
    return subprocess.run(
        SCORE, capture_output=True, text=True, timeout=120, env={**os.environ, "SIMS_CACHE_DIR": str(cache)}
    )


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    """A cache holding the kernels ``sims score`` loads."""
    cache = tmp_path_factory.mktemp("made") / "cache"
    first = _score(cache)
    assert first.returncode == 0 and first.stdout.endswith("= 29\n"), first
    return cache


def _kernel(cache):
    return next((cache / "sims" / "cribbage").glob("scoring-*"))


def _file(cache, suffix):
    return next(_kernel(cache).glob(f"*{suffix}"))


def _linked(cache):
    kernel = _kernel(cache)
    moved = cache.parent / "elsewhere"
    shutil.move(kernel, moved)
    kernel.symlink_to(moved)


CASES = {
    "the sims folder writable by others": (lambda c: (c / "sims").chmod(0o757), "chmod go-w"),
    "a package folder writable by its group": (lambda c: (c / "sims" / "cribbage").chmod(0o775), "chmod go-w"),
    "a kernel folder writable by others": (lambda c: _kernel(c).chmod(0o777), "chmod go-w"),
    "an index file (.nbi) at 666": (lambda c: _file(c, ".nbi").chmod(0o666), "chmod go-w"),
    "a data file (.nbc) at 666": (lambda c: _file(c, ".nbc").chmod(0o666), "chmod go-w"),
    "the import graph writable by others": (lambda c: (c / "import-graph").chmod(0o777), "chmod go-w"),
    "a kernel folder that is a symbolic link": (lambda c: _linked(c), "symbolic link"),
    "an index file of another user": (lambda c: os.chown(_file(c, ".nbi"), OTHER_USER, -1), "chown"),
    "a data file of another user": (lambda c: os.chown(_file(c, ".nbc"), OTHER_USER, -1), "chown"),
    "a kernel folder of another user": (lambda c: os.chown(_kernel(c), OTHER_USER, -1), "chown"),
}


def _snapshot(path):
    found = {}
    for folder, dirs, files in os.walk(path):
        for name in dirs + files:
            info = os.lstat(os.path.join(folder, name))
            found[os.path.relpath(os.path.join(folder, name), path)] = (
                info.st_mode,
                info.st_uid,
                info.st_size,
                info.st_mtime_ns,
            )
    return found


def _copy(made, tmp_path):
    cache = tmp_path / "cache"
    shutil.copytree(made, cache, symlinks=True)
    return cache


@pytest.mark.parametrize("case", [pytest.param(name, marks=ROOT_ONLY if "user" in name else ()) for name in CASES])
def test_an_unsafe_cache_is_refused(made, tmp_path, case):
    cache = _copy(made, tmp_path)
    change, words = CASES[case]
    change(cache)
    before = _snapshot(cache)
    got = _score(cache)
    assert "Traceback" not in got.stderr, got.stderr
    assert (got.returncode, got.stdout) == (2, ""), got
    assert got.stderr.count("\n") == 1 and words in got.stderr and str(cache) in got.stderr, got.stderr
    assert _snapshot(cache) == before


def test_a_cache_of_ones_own_is_loaded(made, tmp_path):
    """The sentinel: the copy untouched answers, and is not refused."""
    cache = _copy(made, tmp_path)
    got = _score(cache)
    assert (got.returncode, got.stderr) == (0, "") and got.stdout.endswith("= 29\n"), got
