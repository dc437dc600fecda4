"""Kernels with explicit types (:class:`sims.core.kernel.LazyKernel`) compile at their first use: importing sims
compiles nothing, a recursive kernel gets its own dispatcher while it compiles, and threads asking at once share
one compilation."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor

from numba.core import types

from sims.core.kernel import LazyKernel, njit

IMPORT_ALL = """
import importlib, json, pkgutil, sys
from numba.core import event

compiled = []

class Listener(event.Listener):
    def on_start(self, e):
        pass
    def on_end(self, e):
        compiled.append(e.data["dispatcher"].py_func.__qualname__)

event.register("numba:compile", Listener())
import sims, triumph
from sims.core.kernel import lazy_kernels
names = [m.name for package in (sims, triumph) for m in pkgutil.walk_packages(package.__path__, package.__name__ + ".")]
for name in names:
    if not name.endswith("__main__"):
        importlib.import_module(name)
print(json.dumps({"modules": len(names), "kernels": len(lazy_kernels()), "compiled": compiled,
                  "loaded": [k.__qualname__ for k in lazy_kernels() if k.compiled]}))
"""


def test_importing_every_module_of_sims_and_of_a_game_compiles_nothing(tmp_path):
    env = {**os.environ, "SIMS_CACHE_DIR": str(tmp_path)}
    out = subprocess.run([sys.executable, "-c", IMPORT_ALL], capture_output=True, text=True, timeout=300, env=env)
    assert out.returncode == 0, out.stderr
    got = json.loads(out.stdout)
    assert got["modules"] > 150 and got["kernels"] > 60  # sims' and triumph's modules, their typed kernels
    assert (got["compiled"], got["loaded"]) == ([], [])
    assert not list(tmp_path.rglob("*.nbi"))  # and the cold cache stays empty


def _triangle(n):
    return 0 if n == 0 else n + _triangle_kernel(n - 1)


_triangle_kernel = njit(types.int64(types.int64))(_triangle)


def test_a_recursive_kernel_finds_itself_while_it_compiles():
    # numba types the call to itself while its first compilation runs: it must get the dispatcher being compiled,
    # from the same thread, rather than wait for the compilation to end (it would wait for ever).
    assert isinstance(_triangle_kernel, LazyKernel) and not _triangle_kernel.compiled
    result = []
    worker = threading.Thread(target=lambda: result.append(_triangle_kernel(100)), daemon=True)
    worker.start()
    worker.join(timeout=120)
    assert result == [5050] and _triangle_kernel.compiled
    assert len(_triangle_kernel.signatures) == 1


def _double(x):
    return 2 * x


def test_threads_asking_at_once_share_one_compilation():
    kernel = njit(types.int64(types.int64))(_double)
    start = threading.Barrier(4)

    def ask(_):
        start.wait()
        return kernel.dispatcher

    with ThreadPoolExecutor(4) as pool:
        dispatchers = list(pool.map(ask, range(4)))
    assert all(d is dispatchers[0] for d in dispatchers)
    assert dispatchers[0].signatures == [(types.int64,)] and kernel(21) == 42


def test_a_policy_without_a_kernel_does_not_import_numba():
    # A policy read from a store's spec has no function: making it must not pay numba's import.
    script = (
        "import sys; from sims.core.policies import Policy; Policy('greedy', 'peg', None, ()); "
        "print('numba' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert (out.returncode, out.stdout) == (0, "False\n"), out.stderr
