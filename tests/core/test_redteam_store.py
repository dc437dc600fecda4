"""Red team for the run store (issue 35): what a careless or hostile hand can leave in a run directory that
would mislead a reader, refused by ``sims verify`` and by :func:`sims.core.runner.load_run`, in one line.

A link to a folder among a table's files (``totals/extra`` to another run's totals, ``totals/loop`` to the run
itself) is read by ``pandas.read_parquet(run / "totals")`` as more numbers; a listed file linked to a copy
outside the run passes its checksum today and can change tomorrow; a named pipe, or a link to ``/dev/zero``, in
the place of a listed file never ends when read.  Each case runs the command (or ``load_run``) in a forked
process (:mod:`tests.core.forked`), so a case that blocks is killed and counted, not waited for: it must give
exit status 2 and one line naming what is wrong, no traceback, and leave the run directory as it was.
"""

from __future__ import annotations

import os
import shutil
import sys

import pandas as pd
import pytest

from sims.cli import main
from sims.core.jobs import Job
from sims.core.runner import load_run, run
from sims.core.store import MANIFEST, SUMMARY
from tests.core.forked import answer

TOTALS = "totals/batch-00000.parquet"
RECORD = "batches/batch-00000.json"
LINK, NOT_REGULAR = "symbolic link", "not a regular file"


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """Two finished runs of ten deals (one batch each): the one tampered with, and another."""
    root = tmp_path_factory.mktemp("runs")
    for seed in (1, 2):
        job = Job.make("cribbage", "deals", "six-card", {"discard": "greedy", "peg": "greedy"}, 10, seed=seed)
        run(job, root / f"seed-{seed}", progress=False)
    return root / "seed-1", root / "seed-2"


def _link_to_copy(run, name, outside):
    """``name`` replaced by a link to an identical copy outside the run (its checksum still matches)."""
    copy = outside / name.replace("/", "-")
    (shutil.copytree if (run / name).is_dir() else shutil.copy2)(run / name, copy)
    (shutil.rmtree if (run / name).is_dir() else os.unlink)(run / name)
    (run / name).symlink_to(copy)


def _fifo(run, name):
    (run / name).unlink(missing_ok=True)
    os.mkfifo(run / name)


def _zero(run, name):
    (run / name).unlink(missing_ok=True)
    (run / name).symlink_to("/dev/zero")


CASES = {
    # silent wrong numbers: pandas.read_parquet(run / "totals") counts the linked folder's files too
    "totals/extra, a link to another run's totals": (
        lambda r, o, t: (r / "totals/extra").symlink_to(o / "totals"),
        LINK,
    ),
    "totals/loop, a link to the run itself": (lambda r, o, t: (r / "totals/loop").symlink_to("."), LINK),
    # links leading outside the run
    "a listed Parquet file linked outside": (lambda r, o, t: _link_to_copy(r, TOTALS, t), LINK),
    "the manifest linked outside": (lambda r, o, t: _link_to_copy(r, MANIFEST, t), LINK),
    "the batches folder linked outside": (lambda r, o, t: _link_to_copy(r, "batches", t), LINK),
    "a listed Parquet file linked inside the run": (
        lambda r, o, t: (shutil.move(r / TOTALS, r / "totals.bak"), (r / TOTALS).symlink_to("../totals.bak")),
        LINK,
    ),
    # no answer: reading never ends
    "a listed Parquet file that is a named pipe": (lambda r, o, t: _fifo(r, TOTALS), NOT_REGULAR),
    "a manifest that is a named pipe": (lambda r, o, t: _fifo(r, MANIFEST), NOT_REGULAR),
    "a summary that is a named pipe": (lambda r, o, t: _fifo(r, SUMMARY), NOT_REGULAR),
    "a batch record that is a named pipe": (lambda r, o, t: _fifo(r, RECORD), NOT_REGULAR),
    "an unlisted named pipe among the totals": (
        lambda r, o, t: os.mkfifo(r / "totals/batch-00001.parquet"),
        NOT_REGULAR,
    ),
    "a listed Parquet file linked to /dev/zero": (lambda r, o, t: _zero(r, TOTALS), LINK),
    "a manifest linked to /dev/zero": (lambda r, o, t: _zero(r, MANIFEST), LINK),
    "a summary linked to /dev/zero": (lambda r, o, t: _zero(r, SUMMARY), LINK),
    "a batch record linked to /dev/zero": (lambda r, o, t: _zero(r, RECORD), LINK),
    "an unlisted link to /dev/zero among the totals": (lambda r, o, t: _zero(r, "totals/batch-00001.parquet"), LINK),
}


def _snapshot(path):
    """Every entry under ``path`` (links not followed): its kind, size and time of change."""
    found = {}
    for folder, dirs, files in os.walk(path):
        for name in dirs + files:
            info = os.lstat(os.path.join(folder, name))
            found[os.path.relpath(os.path.join(folder, name), path)] = (info.st_mode, info.st_size, info.st_mtime_ns)
    return found


@pytest.fixture
def tampered(runs, tmp_path, request):
    """A copy of the first run, changed by the case, and the snapshot of it (nothing may change it)."""
    first, other = runs
    path, outside = tmp_path / "run", tmp_path / "outside"
    shutil.copytree(first, path, ignore=shutil.ignore_patterns(".lock"))
    outside.mkdir()
    change, words = CASES[request.param]
    change(path, other, outside)
    return path, words, _snapshot(path)


def _load(path) -> int:
    """:func:`load_run` as a script would call it: the error's one line and status 2, else the table and 0."""
    try:
        print(load_run(path).table().to_string())
    except ValueError as exc:
        print(" ".join(str(exc).split()), file=sys.stderr)
        return 2
    return 0


def _refused(got, words, path, before):
    assert got is not None, "no answer: killed after the timeout"
    assert "Traceback" not in got.err, got.err
    assert (got.status, got.out) == (2, ""), got
    assert got.err.count("\n") == 1 and words in got.err, got.err
    assert _snapshot(path) == before


@pytest.mark.parametrize("tampered", CASES, indirect=True)
def test_verify_refuses(tampered):
    path, words, before = tampered
    _refused(answer(main, ["verify", str(path)]), words, path, before)


@pytest.mark.parametrize("tampered", CASES, indirect=True)
def test_load_run_refuses(tampered):
    path, words, before = tampered
    _refused(answer(_load, path), words, path, before)


def test_a_sound_run_verifies_and_loads(runs, tmp_path):
    """The sentinel: the untouched copy is accepted by both, with the numbers pandas reads from its folders."""
    path = tmp_path / "run"
    shutil.copytree(runs[0], path, ignore=shutil.ignore_patterns(".lock"))
    verified, loaded = answer(main, ["verify", str(path)]), answer(_load, path)
    assert (verified.status, verified.err, loaded.status, loaded.err) == (0, "", 0, ""), (verified, loaded)
    assert "ok, 1 batches and 5 files" in verified.out
    assert pd.read_parquet(path / "totals")["n"].sum() == pd.read_parquet(runs[0] / "totals")["n"].sum()


def _read_manifest(path) -> int:
    from sims.core.store import DamagedRun, read_json

    try:
        read_json(path, "manifest")
    except DamagedRun as exc:
        print(exc, file=sys.stderr)
        return 2
    return 0


@pytest.mark.parametrize("make", [os.mkfifo, lambda path: path.symlink_to("/dev/zero")], ids=["pipe", "zero"])
def test_a_file_read_is_never_waited_on(tmp_path, make):
    """A file swapped for a pipe or a link after its folder was looked through is refused when it is opened."""
    make(tmp_path / MANIFEST)
    got = answer(_read_manifest, tmp_path / MANIFEST)
    assert got is not None and got.status == 2 and "Traceback" not in got.err, got
    assert NOT_REGULAR in got.err or LINK in got.err
