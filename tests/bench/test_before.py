"""An earlier commit's code timed beside today's (sims.bench.before): extracted once from the checkout's git history,
imported first by the program run on it, with its own kernel cache; None wherever that cannot be done."""

import shutil
import subprocess

import pytest

from sims.bench import before

TIMED = "import time\nprint(time.process_time() + 100)"


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    return tmp_path / "sims" / "before"


def test_todays_code_runs_the_program_in_a_fresh_interpreter():
    assert before.cpu_seconds(TIMED) > 100


def test_a_commit_is_extracted_once_and_its_code_imported_first(cache):
    if shutil.which("git") is None:
        pytest.skip("no git")
    head = subprocess.run(["git", "-C", str(before.ROOT), "rev-parse", "HEAD"], capture_output=True, text=True)
    if head.returncode != 0:
        pytest.skip("not a git checkout")
    folder = before.checkout("HEAD")
    assert folder == cache / head.stdout.strip() and (folder / "sims" / "__init__.py").is_file()
    assert (folder / "kernels").is_dir() and not list(cache.glob(".partial-*"))
    assert before.checkout("HEAD") == folder  # extracted once
    then, now = before.same_run(TIMED, "HEAD")  # None if today's sims had been imported instead
    assert then > 100 and now > 100


def test_without_the_commit_or_a_checkout_there_is_nothing_to_time(cache, tmp_path):
    assert before.checkout("HEAD", root=tmp_path) is None  # an installed package: no history
    assert before.cpu_seconds(TIMED, "0000000000000000000000000000000000000000") is None
    assert before.same_run(TIMED, None) is None
    assert before.cpu_seconds("raise SystemExit(3)") is None
