"""Batch runs, specs and ``sims run``: resume, refusal, Ctrl-C and kill -9, flat planning, atomic writes."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from sims.cli import main
from sims.core import store as st
from sims.core.chunks import run_chunks
from sims.core.executors import default_batch_chunks
from sims.core.jobs import Job, Plan
from sims.core.runner import RunInterrupted, load_run, run, summarize
from sims.core.spec import RunSpec, read_spec

GREEDY = {"discard": "greedy", "peg": "greedy"}
N_DEALS = 5 * 4096 - 100  # five chunks, the last one short


class Crash(Exception):
    pass


def crash_after(k):
    """An on_batch hook that 'crashes' the run after k batches."""
    seen = []

    def hook(index, batch):
        seen.append(index)
        if len(seen) == k:
            raise Crash

    return hook, seen


def bare(job):
    """The job in one kernel call, no runner."""
    return summarize(job, run_chunks(job, 0, job.n_chunks))


def deal_job(**kw):
    return Job.make("cribbage", "deals", "six-card", GREEDY, kw.pop("n", N_DEALS), kw.pop("seed", 7), **kw)


@pytest.fixture(scope="module")
def deals_job():
    return deal_job(records=True)


@pytest.fixture(scope="module")
def deals_reference(deals_job):
    return bare(deals_job)


def files(path: Path) -> dict:
    return {
        p.relative_to(path): (p.stat().st_mtime_ns, p.read_bytes())
        for p in sorted(path.rglob("*"))
        if p.is_file() and p.name != ".lock"
    }


def batch_records(path: Path) -> list[str]:
    return sorted(p.name for p in (path / st.BATCHES).glob("batch-*.json"))


# ---------------------------------------------------------------- plan


@pytest.mark.parametrize("n_chunks,k", [(1, 1), (5, 1), (5, 2), (5, 5), (7, 3), (64, 16)])
def test_plan_covers_every_chunk_once(n_chunks, k):
    job = Job.make("cribbage", "deals", "six-card", None, n_chunks * 100 - 7, 0, chunk_size=100)
    plan = Plan(job, k)
    chunks = [c for i in range(plan.n_batches) for c in range(plan.chunks(i)[0], sum(plan.chunks(i)))]
    assert chunks == list(range(n_chunks))
    assert sum(plan.items(i) for i in range(plan.n_batches)) == job.n


def test_default_batch_is_a_few_chunks_per_thread_and_two_batches_per_worker():
    job = Job.make("cribbage", "deals", "six-card", None, 1000 * 4096, 0)
    assert default_batch_chunks(job, threads=2) == 64
    assert default_batch_chunks(job, threads=1, workers=400) == 2  # ceil(1000 / 800)
    small = Job.make("cribbage", "deals", "six-card", None, 10, 0)
    assert default_batch_chunks(small, threads=8, workers=4) == 1


def test_planning_a_huge_run_lists_no_batches():
    """10^15 deals: the plan is arithmetic, so making it costs nothing (today's runner listed every batch)."""
    job = Job.make("cribbage", "deals", "six-card", None, 10**15, 0)
    plan = Plan(job, 64)
    start = time.perf_counter()
    assert plan.n_batches == -(-job.n_chunks // 64) and plan.items(plan.n_batches - 1) > 0
    assert time.perf_counter() - start < 30  # listing the batches would never end


# ---------------------------------------------------------------- runs, resume


def test_run_equals_bare_kernel_and_load_run_round_trips(tmp_path, deals_job, deals_reference):
    result = run(deals_job, tmp_path / "run", batch_chunks=2, progress=False)
    assert result.summary == deals_reference.summary
    loaded = load_run(tmp_path / "run")
    assert loaded.summary == deals_reference.summary
    pd.testing.assert_frame_equal(loaded.table(), deals_reference.table())
    pd.testing.assert_frame_equal(loaded.records, deals_reference.records)
    for role, frame in deals_reference.histograms.items():
        pd.testing.assert_frame_equal(loaded.histograms[role], frame)
    store, _ = st.open_run(tmp_path / "run")
    assert st.read_summary(store) == json.loads(json.dumps(result.summary))  # summary.json: its run and hash checked
    manifest = json.loads((tmp_path / "run" / st.MANIFEST).read_text())
    assert manifest["job"]["seed"] == 7 and manifest["batch_chunks"] == 2 and manifest["n_batches"] == 3
    assert manifest["game"] == "cribbage" and manifest["job"]["policies"]["discard"][0]["name"] == "greedy"
    assert set(manifest["versions"]) >= {"sims", "numba", "numpy", "pyarrow", "python"}
    assert "git_commit" in manifest
    assert not (tmp_path / "run" / ".lock").exists()  # the run's lock goes with it


def test_resume_after_crash_gives_the_uninterrupted_summary(tmp_path, deals_job, deals_reference):
    hook, seen = crash_after(2)
    with pytest.raises(Crash):
        run(deals_job, tmp_path, batch_chunks=1, progress=False, on_batch=hook)
    assert batch_records(tmp_path) == ["batch-00000.json", "batch-00001.json"]
    assert not (tmp_path / st.SUMMARY).exists()
    hook, seen = crash_after(99)
    result = run(deals_job, tmp_path, progress=False, on_batch=hook)  # batch size taken from the manifest
    assert seen == [2, 3, 4]  # nothing counted twice
    assert result.summary == deals_reference.summary
    pd.testing.assert_frame_equal(result.records, deals_reference.records)
    assert run(deals_job, tmp_path, progress=False, on_batch=crash_after(1)[0]).summary == deals_reference.summary


def test_partial_load_reads_the_finished_batches_and_says_so(tmp_path, deals_job):
    with pytest.raises(Crash):
        run(deals_job, tmp_path, batch_chunks=1, progress=False, on_batch=crash_after(2)[0])
    with pytest.raises(ValueError, match=r"incomplete \(2 of 5 batches\).*partial=True"):
        load_run(tmp_path)
    part = load_run(tmp_path, partial=True)
    assert part.partial == {"batches": 2, "of": 5, "n": 2 * 4096, "of_n": N_DEALS}
    assert part.summary["n"] == 2 * 4096
    assert part.summary == bare(deal_job(n=2 * 4096, records=True)).summary


def test_games_resume_keeps_every_game_row_in_order(tmp_path):
    job = Job.make(
        "cribbage",
        "games",
        "six-card",
        {"discard": "greedy", "peg": "random"},
        700,
        seed=3,
        records=True,
        score_log=True,
    )
    reference = bare(job)
    with pytest.raises(Crash):
        run(job, tmp_path, batch_chunks=1, progress=False, on_batch=crash_after(1)[0])
    result = run(job, tmp_path, progress=False)
    assert result.summary == reference.summary
    pd.testing.assert_frame_equal(load_run(tmp_path).games, reference.games)
    pd.testing.assert_frame_equal(load_run(tmp_path).score_log(), reference.score_log())


def test_ctrl_c_stops_after_the_batch_and_keeps_it(tmp_path, deals_job, deals_reference):
    def interrupt(index, batch):
        os.kill(os.getpid(), signal.SIGINT)

    with pytest.raises(RunInterrupted, match=r"stopped after 4,096 of 20,380 deals.*run the same command again"):
        run(deals_job, tmp_path, batch_chunks=1, progress=False, on_batch=interrupt)
    assert len(batch_records(tmp_path)) == 1
    assert run(deals_job, tmp_path, progress=False).summary == deals_reference.summary


def test_kill_9_mid_run_then_rerun_resumes(tmp_path, capsys):
    job = deal_job(n=20 * 4096, seed=11)
    argv = [
        "run",
        "--deals",
        str(job.n),
        "--discard",
        "greedy",
        "--peg",
        "greedy",
        "--seed",
        "11",
        "--out",
        str(tmp_path),
        "--batch-chunks",
        "1",
        "--threads",
        "1",
        "--quiet",
        "--json",
    ]
    proc = subprocess.Popen([sys.executable, "-m", "sims", *argv], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 600  # a loaded machine starts slowly
    while len(batch_records(tmp_path)) < 3 and time.time() < deadline:
        time.sleep(0.01)
    proc.send_signal(signal.SIGKILL)
    assert proc.wait() == -signal.SIGKILL
    kept = len(batch_records(tmp_path))
    assert 3 <= kept < 20
    code, out, err = cli(capsys, *argv)  # the same command again
    assert code == 0, err
    result = json.loads(out)
    assert result.pop("defaults") == {}  # every decision was named
    assert result == json.loads(json.dumps(bare(job).summary))
    assert not list(tmp_path.rglob(f"*{st.TMP_SUFFIX}"))


# ---------------------------------------------------------------- refusals


def test_directory_of_another_run_is_refused_and_left_alone(tmp_path, deals_job):
    run(deals_job, tmp_path, batch_chunks=2, progress=False)
    before = files(tmp_path)
    other = deal_job(seed=8, records=True)
    with pytest.raises(ValueError, match=r"holds another run \(job.seed: 8 here, 7 there\)"):
        run(other, tmp_path, progress=False)
    with pytest.raises(ValueError, match="batch_chunks 2, not 1"):
        run(deals_job, tmp_path, batch_chunks=1, progress=False)
    assert files(tmp_path) == before


def test_non_empty_directory_without_manifest_is_refused(tmp_path, deals_job):
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(ValueError, match="holds no sims run"):
        run(deals_job, tmp_path, progress=False)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]


def test_second_writer_is_refused_while_the_first_holds_the_directory(tmp_path, deals_job):
    def second_run(index, batch):
        with pytest.raises(ValueError, match="in use by another sims run"):
            run(deals_job, tmp_path, progress=False)

    run(deals_job, tmp_path, batch_chunks=5, progress=False, on_batch=second_run)


# ---------------------------------------------------------------- atomic writes


def test_atomic_write_leaves_no_partial_file(tmp_path, monkeypatch):
    target = tmp_path / "x.json"
    st.write_json(target, {"a": 1})

    def half_written(f):
        f.write(b'{"a": ')
        raise OSError("broken pipe")

    with pytest.raises(OSError):
        st.atomic_write(target, half_written)
    monkeypatch.setattr(os, "replace", lambda *a: (_ for _ in ()).throw(OSError("no")))
    with pytest.raises(OSError):
        st.write_json(target, {"a": 2})
    assert json.loads(target.read_text()) == {"a": 1}
    assert [p.name for p in tmp_path.iterdir()] == ["x.json"]


def test_full_disk_is_one_line_and_keeps_the_finished_batches(tmp_path, deals_job, monkeypatch):
    import errno

    real = st.atomic_write
    calls = []

    def fill_up(path, write):
        calls.append(path)
        if "batch-00002" in str(path):
            raise ValueError(f"disk full while writing {path}; finished batches are kept") from OSError(
                errno.ENOSPC, "No space left on device"
            )
        real(path, write)

    monkeypatch.setattr(st, "atomic_write", fill_up)
    with pytest.raises(ValueError, match="disk full while writing .*batch-00002.*finished batches are kept"):
        run(deals_job, tmp_path, batch_chunks=1, progress=False)
    monkeypatch.setattr(st, "atomic_write", real)
    assert batch_records(tmp_path) == ["batch-00000.json", "batch-00001.json"]


def test_enospc_from_the_filesystem_becomes_the_one_line_error(tmp_path):
    import errno

    def no_space(f):
        raise OSError(errno.ENOSPC, "No space left on device")

    with pytest.raises(ValueError, match=r"disk full while writing .*x.bin; finished batches are kept"):
        st.atomic_write(tmp_path / "x.bin", no_space)
    assert list(tmp_path.iterdir()) == []


def test_stale_temporaries_of_a_killed_writer_are_removed_on_resume(tmp_path, deals_job):
    with pytest.raises(Crash):
        run(deals_job, tmp_path, batch_chunks=1, progress=False, on_batch=crash_after(1)[0])
    stale = tmp_path / st.TOTALS / f".batch-00001.parquet.abc{st.TMP_SUFFIX}"
    stale.write_bytes(b"PAR1 half")
    run(deals_job, tmp_path, progress=False)
    assert not stale.exists()


# ---------------------------------------------------------------- policies for Dask


def test_policy_defined_in_main_is_refused_for_dask_before_starting_a_cluster(tmp_path):
    from sims.cribbage.contract import PEG_SIG

    namespace = {"__name__": "__main__"}
    exec(
        "from numba import njit\n"  # noqa: S102 - a function whose module is __main__, as in a notebook
        "def first_legal(hand, played, state, rules, rng, params):\n"
        "    for i in range(hand.shape[0]):\n"
        "        if hand[i] >= 0 and state[5] + min((hand[i] >> 2) + 1, 10) <= 31:\n"
        "            return i\n"
        "    return -1\n",
        namespace,
    )
    from numba import njit

    fn = njit(PEG_SIG)(namespace["first_legal"])
    job = Job.make("cribbage", "deals", "six-card", {"discard": "random", "peg": fn}, 100, 0)
    assert run(job, progress=False).summary["n"] == 100  # fine in this process
    with pytest.raises(ValueError, match="not importable from a module"):
        run(job, tmp_path, workers=2, progress=False)
    assert not tmp_path.joinpath(st.MANIFEST).exists()


# ---------------------------------------------------------------- specs


def write(tmp_path, text, name="spec.toml"):
    path = tmp_path / name
    path.write_text(text)
    return path


def test_spec_file_settings(tmp_path):
    path = write(
        tmp_path,
        'deals = 1000\nseed = 3\ndiscard = "greedy,random"\n'
        'peg = [{name = "greedy"}, "random"]\n[rules]\npreset = "six-card"\nbath_flush = true\n',
    )
    spec = RunSpec.from_settings(read_spec(path))
    job = spec.job()
    assert (job.game.name, job.kind, job.n, job.seed, job.rules.bath_flush) == ("cribbage", "deals", 1000, 3, True)
    assert [p.name for p in job.policies["discard"]] == ["greedy", "random"]
    assert [p.name for p in job.policies["peg"]] == ["greedy", "random"]
    assert spec.out_dir(job) == Path("data/runs/cribbage-deals-six-card-custom-greedy+random-greedy+random-n1000-seed3")


@pytest.mark.parametrize(
    "text,message",
    [
        ("deals = 10\nsede = 1\n", "unknown setting 'sede'"),
        ("deals = 10\n[rules]\npreset = 'six-card'\ntarget_score = 61\n", "unknown rules key 'target_score'"),
        ("deals = 10\npeg = {name = 'greedy', parms = [1]}\n", "must have a name and optional params"),
        ("deals = 10\ndiscard = 'clever'\n", "unknown discard policy 'clever'"),
        ("deals = 10\npeg = {name = 'defensive', params = [1, 2, 3]}\n", "'defensive' takes 4 parameter"),
        ("deals = 10\npeg = {name = 'defensive', params = [1, 2, 3, nan]}\n", "parameter 'keep_close' is nan"),
        ("deals = 10\ndiscard = {name = 'expected_net', params = [1, 2, 3]}\n", "'expected_net' takes 338 param"),
        ("deals = 10\ngames = 10\n", "not both"),
        ("seed = 1\n", "give the number of deals or of games"),
        ("deals = 'many'\n", "deals must be an integer"),
        ("deals = 10\nrecords = 1\n", "records must be true or false"),
        ("deals = 10\n[rules]\nbath_flush = 1\n", "rules.bath_flush must be true or false"),
        ("deals = 10\nworkers = 2\nscheduler = 'tcp://x:1'\n", "workers or scheduler"),
        ("deals = 10\ngame = 'whist'\n", "unknown game 'whist'"),
        ("deals = 10\nthreads = 0\n", "threads must be a positive integer"),
        ("deals = 1_000_000_000_000_000_000\n", "must be at most"),
        ("deals = = 10\n", "is not valid TOML"),
    ],
)
def test_bad_spec_is_one_line_naming_the_problem(tmp_path, text, message):
    with pytest.raises(ValueError, match=message) as info:
        RunSpec.from_settings(read_spec(write(tmp_path, text))).job()
    assert "\n" not in str(info.value)


def test_missing_spec_file(tmp_path):
    with pytest.raises(ValueError, match="not found"):
        read_spec(tmp_path / "nope.toml")


# ---------------------------------------------------------------- the command line


def cli(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(
    "argv,message",
    [
        (["run", "SPEC/missing.toml"], "spec file SPEC/missing.toml not found"),
        (["run", "SPEC/bad.toml"], "unknown setting 'sede'"),
        (["run", "--deals", "10", "--discard", "nope"], "unknown discard policy 'nope'"),
        (["run", "--deals", "10", "--games", "10"], "not both"),
        (["run", "--deals", "0"], "expected a positive integer, got 0"),
        (["run", "--deals", "10", "--threads", "-3"], "expected a positive integer, got -3"),
        (["run", "--deals", "10", "--rule", "target=x"], "takes an integer"),
        (["run", "--deals", "10", "--rule", "target=1000000000000000000000000000000"], "target must be 1 to 10000"),
        (["run", "--deals", "10", "--out", "SPEC/bad.toml"], "is not a directory"),
        (["run", "--deals", "10", "--out", "SPEC/bad.toml/under"], "is not a directory"),
        (["simulate", "--deals", "10", "--threads", "0"], "expected a positive integer, got 0"),
        (["simulate", "--deals", "1000000000000000", "--records"], "GiB, more than this machine's"),
        (["play", "--games", "10", "--rules", "six-card", "--rule", "target=61"], "lurch 91, target 61"),
    ],
)
def test_cli_bad_input_exits_2_with_one_line(tmp_path, capsys, argv, message):
    write(tmp_path, "deals = 10\nsede = 1\n", "bad.toml")
    argv = [a.replace("SPEC", str(tmp_path)) for a in argv]
    code, out, err = cli(capsys, *argv)
    assert code == 2 and out == ""
    assert err.startswith(f"sims {argv[0]}: error: ") and message.replace("SPEC", str(tmp_path)) in err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_cli_json_is_the_result_summary_and_flags_override_the_spec(tmp_path, capsys):
    spec = write(tmp_path, f'games = 300\nseed = 99\ndiscard = "greedy"\nout = "{tmp_path / "g"}"\n')
    code, out, err = cli(capsys, "run", str(spec), "--seed", "5", "--json", "--quiet")
    assert code == 0 and err == ""
    job = Job.make("cribbage", "games", "six-card", {"discard": "greedy", "peg": "distilled"}, 300, seed=5)
    assert json.loads(out) == {**json.loads(json.dumps(bare(job).summary)), "defaults": {"peg": "distilled"}}
    code, out, err = cli(capsys, "run", str(spec), "--quiet")  # seed 99 into the same directory
    assert code == 2 and "job.seed: 99 here, 5 there" in err


def test_cli_default_out_dir_and_text_output(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, _ = cli(capsys, "run", "--deals", "500", "--seed", "2", "--quiet")
    assert code == 0 and "500 deals, seed 2" in out
    assert (tmp_path / "data/runs/cribbage-deals-six-card-expected_peg-distilled-n500-seed2" / st.SUMMARY).exists()


def test_cli_interrupt_exits_130_with_how_to_resume(capsys, monkeypatch):
    import sims.core.runner

    def interrupted(*args, **kwargs):
        raise RunInterrupted(
            "stopped after 2 of 5 batches; finished batches are kept in X: run the same command again to resume"
        )

    monkeypatch.setattr(sims.core.runner, "run", interrupted)
    code, _, err = cli(capsys, "run", "--deals", "10", "--quiet")
    assert code == 130 and "stopped after 2 of 5 batches" in err and "Traceback" not in err


def test_records_flag_keeps_per_deal_rows(tmp_path, capsys):
    code, _, err = cli(capsys, "run", "--deals", "300", "--records", "--out", str(tmp_path), "--quiet")
    assert code == 0, err
    records = load_run(tmp_path).records
    assert len(records) == 300 and np.array_equal(records["deal"], np.arange(300))


def test_version_flag(capsys):
    from sims import __version__

    assert main(["--version"]) == 0 and capsys.readouterr().out.strip() == f"sims {__version__}"
