"""The command line's one error boundary: whatever the user's input, files, environment, plug-ins or ``py:``
modules make go wrong becomes one line on stderr, ``sims COMMAND: error: ...``, and exit status 2; the input it
echoes is cut to a readable length.  Anything else is a bug in sims: its traceback is shown, with a line saying
so, and the exit status is 1.  Ctrl-C is one line and status 130."""

from __future__ import annotations

import os
import sys
import traceback

WORD = 100  # characters of one echoed piece of input (a name, a path, a value)
LONGEST = 300  # characters of a whole message
# What the user, his files and his environment can cause (ValueError holds UnicodeError and JSON's errors;
# KeyError and OverflowError are the commands' refusals of a name or a number).
USER = (ValueError, KeyError, OverflowError, OSError, ImportError, RecursionError, MemoryError)


def tame(message) -> str:
    """A message on one line, each piece of it at most :data:`WORD` characters and the whole at most
    :data:`LONGEST` (an ellipsis where text was cut)."""
    from ..core.text import cut

    return cut(" ".join(cut(word, WORD) for word in str(message).split()), LONGEST)


def message(exc: BaseException) -> str:
    """What went wrong, for one line: a file's name and what the system said of it, else the message."""
    if isinstance(exc, OSError) and exc.strerror:
        from ..core.paths import shown

        return f"{shown(exc.filename)}: {exc.strerror}" if exc.filename is not None else exc.strerror
    if isinstance(exc, RecursionError):
        return "the input is nested too deeply (Python's recursion limit)"
    if isinstance(exc, MemoryError):
        return "not enough memory for this run: ask for fewer items, or drop --records"
    if isinstance(exc, ImportError) and not isinstance(exc, ModuleNotFoundError):
        return f"cannot import {exc.name or 'a module'}: {exc}"
    text = exc.args[0] if exc.args else ""
    return str(text) or type(exc).__name__


def say(line: str) -> None:
    """Write ``line`` to stderr, whatever its encoding cannot show escaped (a file name that is not UTF-8)."""
    stream = sys.stderr
    encoding = getattr(stream, "encoding", None) or "utf-8"
    try:
        stream.write(line.encode(encoding, "backslashreplace").decode(encoding) + "\n")
        stream.flush()
    except (OSError, ValueError):  # stderr closed: nothing more to say
        pass


def report(exc: BaseException, command: str) -> int:
    """The exit status for ``exc``, ending ``sims COMMAND``, after its one line (a bug: its traceback too)."""
    prefix = f"sims {command}".rstrip()
    if isinstance(exc, KeyboardInterrupt):
        say(f"{prefix}: {tame(exc.args[0]) if exc.args else 'interrupted'}")
        return 130
    if isinstance(exc, USER):
        say(f"{prefix}: error: {tame(message(exc))}")
        return 2
    traceback.print_exception(exc)
    say(f"{prefix}: internal error, a bug in sims ({type(exc).__name__}): please report it with the traceback above")
    return 1


def check_environment() -> None:
    """The environment's paths, before the command starts: ``SIMS_CACHE_DIR`` names a directory (or nothing yet)
    with a name the filesystem takes (whether it can be trusted is :mod:`sims.core.cache`'s check)."""
    root = os.environ.get("SIMS_CACHE_DIR")
    if root:
        from ..core.paths import check_length, shown

        label = f"SIMS_CACHE_DIR {shown(root)}"
        check_length(root, label)
        if os.path.exists(root) and not os.path.isdir(root):
            raise ValueError(f"{label}: is not a directory")


def write_out(text: str) -> None:
    """Print a command's result; a name in it that the terminal's encoding cannot show is escaped, and a closed
    pipe (``| head``) ends quietly."""
    try:
        try:
            print(text)
        except UnicodeEncodeError:
            encoding = sys.stdout.encoding or "utf-8"
            print(text.encode(encoding, "backslashreplace").decode(encoding))
    except BrokenPipeError:  # e.g. piped into head
        sys.stderr.close()
