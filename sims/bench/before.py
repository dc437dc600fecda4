"""An earlier commit's code timed beside today's in the same run: a speed-up against figures recorded on another
day moves with the machine, whose speed here drifts by half within an hour.

:func:`cpu_seconds` runs a program (Python source whose last line of output is its CPU seconds) in a fresh
interpreter, on today's code or on a commit's: that commit's ``sims`` and ``analysis`` are extracted once from the
checkout's git history (``git archive``) into a folder of the user's cache, which the program then imports first,
with a kernel cache of its own (the first run compiles that code's kernels).  An installed package has no history:
there, and wherever git or the commit is missing, the answer is None and the caller falls back to its recorded
figures.
"""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]  # the checkout, when the package runs from one
TREES = ("sims", "analysis")
MARK = "sims imported from: "
WHERE = f"import sims; print({MARK!r} + sims.__file__)"


def cache_home() -> Path:
    """``$XDG_CACHE_HOME/sims/before`` (``~/.cache/sims/before``): the extracted commits and their kernels."""
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "sims" / "before"


def checkout(commit: str, root: Path = ROOT) -> Path | None:
    """The folder holding ``commit``'s code (extracted at the first call, into a temporary folder renamed when
    whole); None without git, without a checkout at ``root`` or without the commit."""
    if not (root / ".git").exists() or shutil.which("git") is None:
        return None
    full = subprocess.run(
        ["git", "-C", str(root), "rev-parse", "--verify", "--quiet", f"{commit}^{{commit}}"],
        capture_output=True,
        text=True,
        check=False,
    )
    if full.returncode != 0:
        return None
    sha = full.stdout.strip()
    home = cache_home()
    folder = home / sha
    if folder.is_dir():
        return folder
    archive = subprocess.run(
        ["git", "-C", str(root), "archive", "--format=tar", sha, *TREES],
        capture_output=True,
        check=False,
    )
    if archive.returncode != 0:
        return None
    home.mkdir(parents=True, exist_ok=True, mode=0o700)
    staging = Path(tempfile.mkdtemp(dir=home, prefix=".partial-"))
    safe = {"filter": "data"} if hasattr(tarfile, "data_filter") else {}  # Python 3.11.4 and later
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
        tar.extractall(staging, **safe)
    (staging / "kernels").mkdir(mode=0o700)
    try:
        staging.rename(folder)
    except OSError:  # another process extracted it first
        shutil.rmtree(staging)
    return folder


def cpu_seconds(program: str, commit: str | None = None) -> float | None:
    """The CPU seconds ``program`` prints last, run in a fresh interpreter on today's code (``commit`` None) or on
    ``commit``'s (:func:`checkout`; None when it cannot be had or the program fails there).  What it writes on
    stderr is shown: the notice of its kernels compiling at a first run, or why it failed."""
    env = dict(os.environ)
    if commit is not None:
        folder = checkout(commit)
        if folder is None:
            return None
        env["PYTHONPATH"] = os.pathsep.join([str(folder), *filter(None, [env.get("PYTHONPATH")])])
        env["SIMS_CACHE_DIR"] = str(folder / "kernels")
    done = subprocess.run(  # -P: the folder it is started in does not come first on the path; stderr shown
        [sys.executable, "-P", "-c", f"{WHERE}\n{program}"], env=env, stdout=subprocess.PIPE, text=True, check=False
    )
    if done.returncode != 0:
        return None
    imported = next(Path(line[len(MARK) :]) for line in done.stdout.splitlines() if line.startswith(MARK))
    if commit is not None and folder not in imported.resolve().parents:
        return None  # today's package won over the commit's on the path
    return float(done.stdout.strip().splitlines()[-1])


def same_run(program: str, commit: str | None) -> tuple[float, float] | None:
    """``(commit's CPU seconds, today's)`` for ``program`` (:func:`cpu_seconds`), today's code run before and after
    the commit's and the faster kept; None without a commit or when its code cannot run."""
    if commit is None:
        return None
    now = cpu_seconds(program)
    then = cpu_seconds(program, commit)
    if then is None or now is None:
        return None
    again = cpu_seconds(program)
    return then, min(now, again if again is not None else now)
