"""A call that may never answer, run in a forked copy of the test's process: its modules are already imported,
so a case costs milliseconds where ``python -m sims`` costs seconds of start-up, and a call that blocks (a named
pipe read to its end) or aborts (memory overwritten) is killed or reported, never taking the test run with it."""

from __future__ import annotations

import os
import signal
import sys
import tempfile
import time
import traceback
from pathlib import Path
from typing import NamedTuple

TIMEOUT = 20.0  # seconds: the cases answer in well under one; a case that blocks is killed after this


class Answer(NamedTuple):
    status: int  # the exit status (-N: killed by signal N)
    out: str
    err: str


def answer(fn, *args, timeout: float = TIMEOUT) -> Answer | None:
    """``fn(*args)``'s exit status (what it returns), standard output and error, in a forked process; None if
    it gave no answer within ``timeout`` seconds.  An exception escaping ``fn`` is printed with its traceback
    and is status 99."""
    with tempfile.TemporaryDirectory() as tmp:
        out, err = Path(tmp) / "out", Path(tmp) / "err"
        pid = os.fork()
        if pid == 0:  # the child: never returns into the test
            status = 99
            try:
                sys.stdout = open(os.open(out, os.O_WRONLY | os.O_CREAT, 0o600), "w")  # noqa: SIM115
                sys.stderr = open(os.open(err, os.O_WRONLY | os.O_CREAT, 0o600), "w")  # noqa: SIM115
                status = fn(*args)
            except BaseException:  # noqa: BLE001 - what the user would see, for the test to find
                traceback.print_exc()
            finally:
                sys.stdout.flush()
                sys.stderr.flush()
                os._exit(status if isinstance(status, int) else 99)
        deadline = time.monotonic() + timeout
        done, status = os.waitpid(pid, os.WNOHANG)
        while not done:
            if time.monotonic() > deadline:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                return None
            time.sleep(0.01)
            done, status = os.waitpid(pid, os.WNOHANG)
        return Answer(os.waitstatus_to_exitcode(status), out.read_text(), err.read_text())
