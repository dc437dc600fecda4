"""Start-up: ``import sims`` leaves numba alone and configures nothing, yet every kernel gets sims's cache
whatever is imported first (kernels are defined through :func:`sims.core.kernel.njit`); Ctrl-C while
numba loads is one line and exit status 130, not a traceback; the package's programs alone turn NumPy's
huge-page hint off."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

INTERRUPT_WHILE_NUMBA_LOADS = """
    import os, signal, sys
    signal.signal(signal.SIGINT, signal.default_int_handler)   # as in a terminal

    class CtrlC:
        def find_spec(self, name, path=None, target=None):
            if name == "numba.core":
                os.kill(os.getpid(), signal.SIGINT)

    from sims.cli import main
    sys.meta_path.insert(0, CtrlC())
    sys.argv = ["sims", "discard", "5H", "5S", "JD", "6C", "4H", "KD", "--dealer"]
    sys.exit(main())
"""
CACHED_WHERE = """
    import sys
    if sys.argv[1] == "numba first":
        import numba
    if sys.argv[1] == "cache module first":
        import sims.core.cache
    import sims
    from sims.cribbage.tables import pip_value
    pip_value(3)
"""


def python(script: str, *args: str, env=None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(script), *args], capture_output=True, text=True, timeout=300, env=env
    )


def test_the_command_line_entry_does_not_import_numba():
    assert python("import sys, sims.cli; print('numba' in sys.modules)").stdout.split() == ["False"]


def test_importing_sims_configures_nothing():
    """No import hook is installed and numba's cache locators are untouched until a kernel is defined."""
    out = python(
        "import sys; hooks = list(sys.meta_path); import sims, sims.core.registry, sims.core.protocol; "
        "print(sys.meta_path == hooks, 'numba' in sys.modules)"
    )
    assert out.stdout.split() == ["True", "False"], out.stderr


HUGE_PAGES = """
    import sys
    sys.orig_argv = [sys.executable, *sys.argv[1:]]   # as if started so
    import sims, numpy._core.multiarray
    print(numpy._core.multiarray._get_madvise_hugepage())
"""


@pytest.mark.parametrize(
    ("started_as", "hinted"),
    [
        (["-m", "sims.analysis.claims"], "False"),
        (["-m", "sims"], "False"),
        (["/venv/bin/sims"], "False"),
        (["-m", "simsx"], "True"),
        (["-m", "pytest"], "True"),
        (["notebook.py"], "True"),
    ],
)
def test_the_packages_programs_alone_turn_numpys_huge_page_hint_off(monkeypatch, started_as, hinted):
    """sims's programs (``sims``, ``python -m sims.<module>``) set ``NUMPY_MADVISE_HUGEPAGE=0`` before NumPy reads it;
    a process that only imports sims keeps NumPy's default (on for Linux kernels from 4.6)."""
    monkeypatch.delenv("NUMPY_MADVISE_HUGEPAGE", raising=False)
    out = python(HUGE_PAGES, *started_as)
    assert out.stdout.split() == [hinted], out.stderr


def test_a_huge_page_setting_of_the_users_own_is_kept(monkeypatch):
    monkeypatch.setenv("NUMPY_MADVISE_HUGEPAGE", "1")
    assert python(HUGE_PAGES, "-m", "sims").stdout.split() == ["True"]


@pytest.mark.parametrize("order", ["sims first", "numba first", "cache module first"])
def test_kernels_are_cached_by_sims_whatever_is_imported_first(tmp_path, monkeypatch, order):
    monkeypatch.setenv("SIMS_CACHE_DIR", str(tmp_path))
    out = python(CACHED_WHERE, order)
    assert out.returncode == 0, out.stderr
    assert list(tmp_path.glob("sims/cribbage/tables-*/tables.pip_value-*.nbi"))


def test_ctrl_c_while_numba_loads_is_one_line_and_130():
    out = python(INTERRUPT_WHILE_NUMBA_LOADS)
    assert (out.returncode, out.stderr, out.stdout) == (130, "sims discard: interrupted\n", "")


LAZY = """
    import json, sys
    import sims.cribbage.engine as engine, sims.cribbage.advice, sims.cribbage.lab.distilled_play_outs
    import sims.cribbage.policies.builtin, sims.cribbage.policies.position_throw
    from sims.core import kernel
    lazy = [k for k in kernel._LAZY if k.__module__.startswith("sims.cribbage")]
    before = [not k.compiled for k in lazy]
    from sims.cribbage import simulate_deals
    simulate_deals("six-card", {"discard": "greedy", "peg": "greedy"}, n_deals=50, seed=1)
    print(json.dumps({"names": sorted(k.__qualname__ for k in lazy), "untouched_on_import": all(before),
                      "compiled_after_run": sorted(k.__qualname__ for k in lazy if k.compiled),
                      "signatures": len(engine.DEAL_LOOP.signatures)}))
"""


def test_kernels_with_explicit_types_compile_at_their_first_use_not_at_import():
    """Chunk loops, advice loops and policies alike: importing their modules compiles nothing; a run compiles
    its chunk loop and the two policies it plays, and no other."""
    import json

    out = python(LAZY)
    assert out.returncode == 0, out.stderr
    got = json.loads(out.stdout)
    assert {
        "item_loop_one_deal",
        "item_loop_one_game",
        "_play_outs",
        "_returns",
        "_card_returns",
        "greedy_discard",
        "greedy_peg",
        "random_peg",
        "position_discard",
        "exploring_peg",
    } <= set(got["names"])
    assert got["untouched_on_import"] is True
    assert (
        got["compiled_after_run"] == ["greedy_discard", "greedy_peg", "item_loop_one_deal"] and got["signatures"] == 1
    )


COLLECTOR = """
    import gc, json, sys
    from sims.cli import main
    sys.argv = ["sims", *sys.argv[1:]]
    code = main()
    print(json.dumps([code, gc.isenabled(), gc.get_freeze_count()]))
"""


@pytest.mark.parametrize(
    "argv", [["discard", "5H", "5S", "JD", "6C", "4H", "KD", "--dealer"], ["discard", "--no-such-flag"], ["--version"]]
)
def test_the_command_line_freezes_what_start_up_made_and_gives_the_collector_back(argv):
    """The collector waits while the command's modules load, then the objects they made are frozen (never walked
    again) and it is back, whatever way the command ends."""
    import json

    out = python(COLLECTOR, *argv)
    code, enabled, frozen = json.loads(out.stdout.strip().splitlines()[-1])
    assert enabled is True and frozen > (50_000 if argv[-1] == "--dealer" else 0), out.stderr
    assert code == (0 if argv[-1] in ("--dealer", "--version") else 2)
